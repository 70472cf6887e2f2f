// libFuzzer entry: a compiled Oblivion script built from the input bytes, decompiled.
//
// Input layout (scripts/make_fuzz_seeds.py writes corpus scripts this way):
//   u8 flags        bits 0-1: 0, or 1 + which alternate OBSE plugin build to decompile against
//   u8 V, u8 R      local variable and reference-list counts
//   V x {u16 index, u8 type}   SLSD index; type bit 0: integer. Named `v1`..`vV` in list order:
//                              names that read back as themselves, distinct even where indices
//                              repeat
//   R x {u8 kind, u32 value}   kind bit 0: SCRV (value is a variable index), else SCRO (a
//                              FormID); bit 1: the FormID names a global (GLOB)
//   the rest        SCDA
//
// Oracle:
// - decompile() returns text, or throws tesmod::Error whose offset is a byte of the SCDA (the
//   fuzzer gives it a file offset); any other exception, crash or hang is a finding;
// - when its text (text1) compiles (a new script; a result script when the code has no
//   ScriptName; with an early OBSE's compiler when x shows one, as `verify --deep` does) to y,
//   then y must decompile to text1 again, and that text must compile to y byte for byte.
// Text that does not compile is not a finding: arbitrary bytes say things source cannot (code
// outside a block, an If without EndIf, Set on a form that is no global, unbalanced loops), and
// x itself need not come back (non-canonical number text, argument counts, jump counts and
// block lengths are not kept in the text). Once the compiler has spoken, though, the text is
// canonical, and decompile(compile(text)) == text is what the decompiler promises, with these
// freedoms (comparable_text(), same_lines()), none of which changes the bytes text compiles to:
// - when the reference list holds the player more than once, `player`, `PlayerRef` and
//   `@00000014` name the entries in first-use order, so text1 may give them in another order;
// - a declaration's keyword beyond integer or not is read from use: `ref` from an SCRV entry,
//   string_var/array_var from OBSE code. x may have an SCRV entry that no source makes (a ref
//   variable in a script without blocks), and then text1 says `ref` where text2 says `float`.
//   Where the keyword matters to the bytes (SCRV entries at the first Begin, OBSE variable
//   types), the byte comparison of y with compile(text2) sees it;
// - a command no name compiles back to (OBSE registered SetNumericINISetting and
//   GetLocalGravity twice, and the first registration of a name wins; a plugin build's command
//   whose names another build holds when that build is not chosen) is written by its name, the
//   decompiler's best text for it: a line calling one may come back as the command that name
//   means.
#include <array>
#include <cctype>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "script_fuzz_support.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/script/command_table.hpp"
#include "tesmod/script/obse_profile.hpp"

namespace {

using namespace tesmod;
using namespace tesmod::script;

// Where the fuzzer pretends SCDA sits in a file, so that errors carry file offsets.
constexpr std::uint64_t kBytecodeOffset = 0x1000;

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }

// The text with the freedoms described above taken out: every `PlayerRef` and `@00000014`
// written `player` (the decompiler's names for the player; the fuzzer's variables are `v<n>`),
// and each declaration keyword as the SLSD flag it sets (`short` or `float`): lines that start
// with one (no statement starts with these words, and no variable is named like them).
std::string comparable_text(std::string text) {
  for (std::string_view name : {std::string_view("PlayerRef"), std::string_view("@00000014")}) {
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at)) {
      const bool word_start = at == 0 || !word_char(text[at - 1]);
      const bool word_end = at + name.size() == text.size() || !word_char(text[at + name.size()]);
      if (word_start && word_end) text.replace(at, name.size(), "player");
      else at += name.size();
    }
  }
  static constexpr std::pair<std::string_view, std::string_view> kSlsdFlag[] = {
      {"ref ", "float "}, {"array_var ", "float "}, {"string_var ", "short "}};
  for (std::size_t line = 0; line < text.size(); line = text.find('\n', line) + 1) {
    for (const auto& [keyword, flag] : kSlsdFlag)
      if (text.compare(line, keyword.size(), keyword) == 0) text.replace(line, keyword.size(), flag);
    if (text.find('\n', line) == std::string::npos) break;
  }
  return text;
}

// Lower-case names of the commands that no name of theirs compiles back to, with the builds
// chosen by flags value `choice`: every opcode read with those builds, each command's name and
// short name looked up with them.
const std::set<std::string>& unreachable_command_names(std::size_t choice, std::span<const std::string> builds) {
  static std::array<std::optional<std::set<std::string>>, 4> cache;
  if (cache[choice]) return *cache[choice];
  std::set<std::string> names;
  for (std::uint32_t opcode = 0; opcode <= 0xFFFF; ++opcode) {
    const CommandInfo* c = find_command(static_cast<std::uint16_t>(opcode), builds);
    if (!c) continue;
    const bool by_name = find_command(c->name, builds) == c;
    const bool by_short_name = !c->short_name.empty() && find_command(c->short_name, builds) == c;
    if (!by_name && !by_short_name) names.insert(ascii::to_lower(c->name));
  }
  return *(cache[choice] = std::move(names));
}

// The texts line by line, equal except on lines of `a` that call a command in `skip`.
bool same_lines(std::string_view a, std::string_view b, const std::set<std::string>& skip) {
  const auto words_skip = [&](std::string_view line) {
    for (std::size_t i = 0; i < line.size();) {
      std::size_t end = i;
      while (end < line.size() && word_char(line[end])) ++end;
      if (end > i && skip.count(ascii::to_lower(line.substr(i, end - i)))) return true;
      i = end + 1;
    }
    return false;
  };
  while (!a.empty() || !b.empty()) {
    const std::size_t ea = std::min(a.find('\n'), a.size()), eb = std::min(b.find('\n'), b.size());
    if (a.substr(0, ea) != b.substr(0, eb) && !words_skip(a.substr(0, ea))) return false;
    if (a.empty() != b.empty()) return false;
    a.remove_prefix(std::min(ea + 1, a.size()));
    b.remove_prefix(std::min(eb + 1, b.size()));
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const std::uint8_t flags = data[0];
  const std::size_t variable_count = data[1], ref_count = data[2];
  std::size_t pos = 3;
  if (size < pos + variable_count * 3 + ref_count * 5) return 0;

  ScriptData x;
  for (std::size_t i = 0; i < variable_count; ++i, pos += 3) {
    const std::uint16_t index = le::u16(data + pos);
    x.variables.push_back(LocalVariable::make(index, (data[pos + 2] & 1) != 0, "v" + std::to_string(i + 1)));
    if (index > x.header.variable_count) x.header.variable_count = index;
  }
  fuzz::FuzzNames names;
  for (std::size_t i = 0; i < ref_count; ++i, pos += 5) {
    const std::uint8_t kind = data[pos];
    const std::uint32_t value = le::u32(data + pos + 1);
    x.refs.push_back({(kind & 1) ? ScriptRef::Kind::Variable : ScriptRef::Kind::Object, value});
    if ((kind & 3) == 2) names.add_global(value);
  }
  x.header.ref_count = static_cast<std::uint32_t>(x.refs.size());
  x.bytecode.assign(data + pos, data + size);
  x.header.compiled_size = static_cast<std::uint32_t>(x.bytecode.size());

  std::vector<std::string> builds;
  const auto alternates = alternate_builds();
  const std::size_t build = (flags & 3) <= alternates.size() ? flags & 3 : 0;
  if (build != 0) builds.emplace_back(alternates[build - 1]);

  DecompileOptions dopt;
  dopt.names = &names;
  dopt.script_name = "FuzzScript";
  dopt.where = ErrorContext{"fuzz.esp", Error::kNoOffset, RecordRef{Signature("SCPT"), 0x800, "FuzzScript"}};
  dopt.bytecode_offset = kBytecodeOffset;
  dopt.obse_plugins = builds;
  std::string text1;
  try {
    text1 = decompile(x, dopt);
  } catch (const Error& e) {
    if (e.offset() < kBytecodeOffset || e.offset() > kBytecodeOffset + x.bytecode.size())
      fuzz::finding("decompile error without an offset in the compiled script", e.what());
    return 0;
  } catch (const std::exception& e) {
    fuzz::finding("decompile threw something other than tesmod::Error", e.what());
  }

  CompileOptions co;
  co.names = &names;
  co.obse_plugins = builds;
  co.result_script = !(x.bytecode.size() >= 2 && x.bytecode[0] == 0x1D && x.bytecode[1] == 0);
  // Strings holding %r or %q as such: only an early OBSE keeps them, the current one reads them
  // as a line break and a quote.
  if (obse_evidence(x, builds).early_strings) co.obse_profile = ObseProfile::Early;
  ScriptData y;
  try {
    y = compile(text1, co).script;
  } catch (const CompileError&) {
    return 0;  // not representable as source (see above)
  } catch (const std::exception& e) {
    fuzz::finding("compile threw something other than CompileError", e.what(), text1);
  }
  DecompileOptions again = dopt;
  again.bytecode_offset = Error::kNoOffset;
  const std::string text2 = fuzz::decompiles_and_compiles_back(y, co, again, text1);
  if (!same_lines(comparable_text(text1), comparable_text(text2), unreachable_command_names(build, builds)))
    fuzz::finding("decompiled text is no fixed point: decompile(compile(text)) != text", "", text1, text2);
  return 0;
}
