// The compiler's state while it walks a script: the code written so far, the locals, the
// reference list, and how names resolve. Shared by the vanilla and OBSE parts of the compiler.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <span>
#include <unordered_map>
#include <optional>
#include <string>
#include <vector>

#include "lexer.hpp"
#include "obse_operators.hpp"
#include "tesmod/script/command_table.hpp"
#include "tesmod/script/compiler.hpp"

namespace tesmod::script::detail {

// The vanilla variable code: 's' for integers (string_var included), 'f' for the rest.
inline std::uint8_t vanilla_code(ObseVarType type) {
  return type == ObseVarType::Integer || type == ObseVarType::String ? 's' : 'f';
}

// The type a declaration keyword gives (short/long/int, float, ref/reference, string_var,
// array_var), or nothing when the word is not one.
std::optional<ObseVarType> declaration_type(const Token& keyword);

struct Local {
  std::string name;
  std::uint32_t index = 0;
  ObseVarType type = ObseVarType::Float;
  bool integer() const { return detail::vanilla_code(type) == 's'; }
  std::uint8_t vanilla_code() const { return detail::vanilla_code(type); }
};

// A variable of another script, as addressed through a reference-list entry.
struct RemoteVar {
  std::uint16_t ref_index = 0;
  std::uint32_t index = 0;
  ObseVarType type = ObseVarType::Float;
};

// What a compiled original tells about names that live in missing masters.
struct Hints {
  struct RefUse {
    bool global = false;
    std::vector<std::pair<std::uint32_t, ObseVarType>> vars;  // distinct var indexes in order of use
  };
  std::map<std::uint16_t, RefUse> refs;
  std::vector<std::uint16_t> first_use;  // reference-list indexes in order of first use
  // Every read of a reference-list entry, in byte order: as a global, or naming a variable of
  // the entry's script (remote). Two compiles of one source read their entries in the same order.
  struct Use {
    std::uint16_t ref_index = 0;
    bool global = false;
    bool remote = false;
    std::uint32_t var = 0;
    ObseVarType var_type = ObseVarType::Float;
  };
  std::vector<Use> uses;
  bool early_obse_strings = false;       // a string literal kept %r or %q (see obse_profile.hpp)
  std::set<std::string> obse_plugins;    // CommandInfo::plugin of the plugin commands called
  bool unsourced_commands = false;       // a command with CommandInfo::unsourced is called
};
Hints collect_hints(const ScriptData& original, std::span<const std::string> obse_plugins = {});
// The script's code as decompiled text with no names at hand: forms as @FormID (the player as
// `player`), variables of other scripts as @s5, locals by name. Raises tesmod::Error.
std::string canonical_text(const ScriptData& script, std::span<const std::string> obse_plugins = {});

// A tiny token cursor over one line.
struct Tokens {
  std::vector<Token> list;
  std::size_t pos = 0;
  const Token& peek(std::size_t ahead = 0) const {
    std::size_t i = pos + ahead;
    return i < list.size() ? list[i] : list.back();
  }
  const Token& next() {
    const Token& t = peek();
    if (pos < list.size() - 1) ++pos;
    return t;
  }
  bool at_end() const { return peek().kind == TokenKind::End; }
};

class Bytes {
 public:
  std::vector<std::uint8_t> b;
  void u8(std::uint8_t v) { b.push_back(v); }
  void u16(std::uint16_t v) {
    b.push_back(static_cast<std::uint8_t>(v));
    b.push_back(static_cast<std::uint8_t>(v >> 8));
  }
  void u32(std::uint32_t v) {
    u16(static_cast<std::uint16_t>(v));
    u16(static_cast<std::uint16_t>(v >> 16));
  }
  void f64(double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, 8);
    u32(static_cast<std::uint32_t>(bits));
    u32(static_cast<std::uint32_t>(bits >> 32));
  }
  void append(const Bytes& o) { b.insert(b.end(), o.b.begin(), o.b.end()); }
  void text(std::string_view s) { b.insert(b.end(), s.begin(), s.end()); }
  std::size_t size() const { return b.size(); }
  void patch16(std::size_t at, std::uint16_t v) {
    b[at] = static_cast<std::uint8_t>(v);
    b[at + 1] = static_cast<std::uint8_t>(v >> 8);
  }
  void patch32(std::size_t at, std::uint32_t v) {
    patch16(at, static_cast<std::uint16_t>(v));
    patch16(at + 2, static_cast<std::uint16_t>(v >> 16));
  }
};

// What a name in code stands for.
// Placeholders learn_master_facts() compiles with, for names nothing resolves: FormIDs no plugin
// uses (created forms start at 0xFF000000) and variable indices no script reaches.
inline constexpr std::uint32_t kPlaceholderForm = 0xFFF00000;
inline constexpr std::uint32_t kPlaceholderVariable = 0xF000;

struct Resolved {
  enum class Kind { None, Local, Form, Global, Command } kind = Kind::None;
  bool placeholder = false;  // a form only learn_master_facts() gave: may stand where a global must
  const Local* local = nullptr;
  std::uint16_t ref_index = 0;  // Form/Global: the reference-list entry
  std::uint32_t form_id = 0;
  const CommandInfo* command = nullptr;
};

class CompileContext {
 public:
  explicit CompileContext(const CompileOptions& options);

  const CompileOptions& options;
  std::vector<Local> locals;
  std::vector<ScriptRef> refs;
  std::vector<std::string> ref_keys;  // lower-case names, parallel to refs
  std::vector<LocalVariable> variables;  // SLSD/SCVR in declaration order
  std::uint32_t variable_count = 0;
  unsigned hints_used = 0;  // distinct facts taken from options.facts
  // Every EditorID resolved to a form (from names or facts, not placeholders) and every variable
  // of a form's script read as `owner.var` (see CompileResult::names_used).
  MasterFacts names_used;
  bool blocks_started = false;
  // Inside a `Begin _Name` block (OBSE's compiler override): default-parsed commands take OBSE
  // expression arguments, after this mode word (op::kOverrideBlockType / kOverrideCommand).
  bool expression_args = false;
  std::uint16_t expression_args_mode = 0;
  std::uint32_t line = 0;

  [[noreturn]] void fail(const Token& at, const std::string& message) const;
  [[noreturn]] void fail(std::uint32_t column, const std::string& message) const;
  // A name nothing resolves (CompileError::unknown_name).
  [[noreturn]] void fail_unknown(const Token& at, const std::string& message) const;

  const Local* local(std::string_view name) const;
  // A command by name, among the OBSE plugin builds the options name.
  const CommandInfo* command(std::string_view name) const { return find_command(name, options.obse_plugins); }
  void declare(const Token& keyword, const Token& name);

  // Reference-list entries, found or added (first use order).
  std::uint16_t ref_entry(const std::string& key, ScriptRef entry);
  std::uint16_t ref_for_local(const Local& v);
  // The reference-list entry of a resolved `owner` in owner.var / owner.Command: a local ref
  // variable or a form; anything else is an error at owner_token.
  std::uint16_t owner_entry(const Resolved& owner, const Token& owner_token);
  // Counts a fact from options.facts once per compile.
  void count_fact(const std::string& what);

  // A name used as an object: a local ref variable, a form (SCRO) or a global. `player` and
  // `PlayerRef` are separate entries, except for the calling reference of a command in OBSE
  // code (obse_calling), which OBSE always keys as `PlayerRef`.
  Resolved resolve(const Token& name, bool obse_calling);
  // A bare `player` operand of OBSE code (no dot after it): OBSE looks the name up among the
  // entries made so far (vanilla `player` makes one for the player's reference), else takes the
  // form whose EditorID it is, the Player base form (NPC_ 00000007).
  std::uint16_t obse_bare_player();
  // name is a form (not a local, not a command)? Adds its reference-list entry.
  std::optional<Resolved> form(const Token& name, bool obse_calling);
  // Declared type of a variable in another script's source (OBSE V tokens need the keyword);
  // each script's declarations are read once per compile.
  std::optional<ObseVarType> declared_type(const ScriptData& s, std::string_view var);
  std::map<const ScriptData*, std::unordered_map<std::string, ObseVarType>> declared_types;
  // `owner.var`: owner already resolved to an entry (or a local ref variable).
  RemoteVar remote_var(const Resolved& owner, const Token& owner_token, const Token& var);

  std::set<std::string> facts_counted_;

  // The vanilla parameter type of the argument being read as an OBSE expression (compiler
  // override blocks): a bare word that is a value of that type (an actor value, an axis, any
  // word for a string) is meant as a string.
  std::optional<std::uint8_t> argument_param;
  // Does a form have this EditorID (in the names, or a fact)?
  bool knows_form(std::string_view name) const;
  // May a bare word nothing resolves be the OBSE string text? When options.unquoted_strings
  // says so, or when the previous compile holds that string (the word stands on a line not
  // edited since).
  bool unquoted_string_allowed(std::string_view text) const;
  // A bare word given for a vanilla parameter of this type reads as that type's value.
  static bool bare_word_fits(std::uint8_t param_type, std::string_view word);

  // Escapes the decompiler writes: @0001ABCD (a FormID).
  static std::optional<std::uint32_t> form_escape(std::string_view word);
};

// Vanilla statement-level pieces used by the OBSE part.
void vanilla_arguments(CompileContext& c, Tokens& t, const CommandInfo& cmd, Bytes& out, bool always_count);
void vanilla_expression(CompileContext& c, Tokens& t, Bytes& out);

// OBSE pieces used by the vanilla part.
void obse_arguments(CompileContext& c, Tokens& t, const CommandInfo& cmd, Bytes& out);
// u8 count + at most max_args OBSE expressions, each after a u16 length (ParseArgs).
void obse_argument_list(CompileContext& c, Tokens& t, std::span<const ParamSpec> params, Bytes& out);
void obse_function_header(CompileContext& c, Tokens& t, Bytes& out);
// %r -> line break, %q -> quote, as OBSE does to every string literal it compiles (not the
// early builds: ObseProfile::Early keeps the text as written).
std::string obse_string(std::string_view text, ObseProfile profile);

}  // namespace tesmod::script::detail
