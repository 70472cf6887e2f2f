// State shared by the decompiler's parts: the bytecode cursor and how indexes become names.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tesmod/io/byte_reader.hpp"
#include "tesmod/script/command_table.hpp"
#include "tesmod/script/decompiler.hpp"
#include "compile_context.hpp"

namespace tesmod::script::detail {

// Operator precedence used when turning postfix back into infix; atoms bind tightest.
inline constexpr int kAtom = 100;

struct Operand {
  std::string text;
  int precedence = kAtom;
};

// A string as source text: the compiler turns %r into a line break and %q into a quote, so those
// come back as %r and %q.
std::string quoted(std::span<const std::uint8_t> text);
// The shortest text that reads back as the same double, with a decimal point (infinities as a
// number too large for a double). Not for NaN, which no text reads back as.
std::string number_text(double v);

// Which reference-list entries for the player vanilla and OBSE code use.
struct PlayerUses {
  std::set<std::uint16_t> named, calling;  // named as typed / as an OBSE calling reference
  // Entries whose first use is a bare operand of OBSE code: named `player` there, with no entry
  // of that name yet, they would compile to the Player base form (see CompileContext).
  std::set<std::uint16_t> first_bare;
  std::set<std::uint16_t> seen;
};

class DecodeContext {
 public:
  DecodeContext(const ScriptData& script, const DecompileOptions& options);

  ByteReader r;
  const ScriptData& script;
  const DecompileOptions& options;
  // Local variables seen used as strings, arrays or refs by OBSE code (for their declarations:
  // a ref variable has no SCRV entry in a script without blocks, but OBSE code names its type).
  std::set<std::uint32_t> string_vars, array_vars, ref_vars;
  // When set, how the reference list is used is noted here (verify-mode hints).
  Hints* usage = nullptr;
  // Naming the calling reference of a command in OBSE expression code, where the compiler keys
  // every name of the player as `PlayerRef`.
  bool obse_calling_ref = false;
  // Naming a form that is a bare operand of OBSE expression code (not a calling reference).
  bool obse_bare_ref = false;
  // When set, the reference-list entries for the player are noted here as they are used.
  PlayerUses* player_uses = nullptr;
  // Inside a block compiled with OBSE's compiler override (`Begin _GameMode`): default-parsed
  // commands may carry OBSE expression arguments after the mode word op::kOverrideCommand.
  bool expression_args = false;
  // Names for reference-list entries of the player, when the list has more than one.
  std::map<std::uint16_t, std::string> player_names;
  // A string literal as source text (quoted()), noting strings only an early OBSE writes.
  std::string literal(std::span<const std::uint8_t> text);
  // A note on the entry read next (ref()): as a global, or for a variable of its script.
  Hints::Use pending;
  void note_global(std::uint16_t ref_index) {
    if (!usage) return;
    usage->refs[ref_index].global = true;
    pending.global = true;
  }
  void note_remote(std::uint16_t ref_index, std::uint32_t var, ObseVarType type) {
    if (!usage) return;
    pending.remote = true;
    pending.var = var;
    pending.var_type = type;
    auto& vars = usage->refs[ref_index].vars;
    for (auto& v : vars)
      if (v.first == var) return;
    vars.emplace_back(var, type);
  }

  std::string local(std::uint16_t index) const;
  std::string ref(std::uint16_t index);  // an entry of the reference list
  std::string form(std::uint32_t form_id) const;
  // `ref.var` for a variable of another script, given the ref-list entry and the var code.
  std::string remote_var(std::uint16_t ref_index, std::uint8_t code, std::uint16_t var_index);
  const CommandInfo& command(std::uint16_t opcode, std::size_t at) const;
  // The name to write for a command: one the compiler reads back as this command (its short
  // name where its name means another command of the chosen builds).
  std::string_view command_name(const CommandInfo& cmd) const;

  // A float literal's text (number_text()); NaN fails at byte `at`, as source cannot write one.
  std::string float_literal(std::uint64_t bits, std::size_t at) const;
  // One vanilla argument of the given parameter type.
  std::string argument(std::uint8_t type);
  // `Name arg arg...` of a call whose opcode has been read; stops at end (exclusive position).
  std::string call(const CommandInfo& cmd, std::size_t end);
  // A vanilla postfix expression of len bytes.
  std::string expression(std::size_t len);

  [[noreturn]] void fail(std::size_t at, const std::string& what) const;
};

}  // namespace tesmod::script::detail
