// libFuzzer entry: any bytes as Oblivion script source, compiled as a new object script (no
// previous compile): with a few known forms (add_known_forms() below; other names unknown), and
// when that fails, again with every name a form (FuzzNames), so that corpus sources with their
// plugins' EditorIDs compile in full.
// Oracle:
// - compile() returns, or throws CompileError with a line of the source and a column within
//   that line (1 .. its length + 1); any other exception, crash or hang is a finding;
// - source the compiler accepts must decompile, and the decompiled text must compile to the same
//   SCDA, SLSD/SCVR, SCRO/SCRV and SCHR byte for byte (issue 13). SCTX differs by design.
//   The decompiled text declares every variable at the top, while source may declare some after
//   the first Begin: a ref variable declared there enters the reference list there, not with the
//   others at the first Begin, and a name used before its declaration names something else (a
//   form, or in OBSE code a string). Text cannot keep the SCRO/SCRV order of such a script, so
//   the round trip is checked on the source with its declaration lines moved to the top (which
//   must compile too, or is left alone); source declaring nothing late is checked as it is.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "script_fuzz_support.hpp"

namespace {

using namespace tesmod;
using namespace tesmod::script;

void add_known_forms(fuzz::FuzzNames& names) {
  names.add(0x00001001, "FuzzGlobal", Signature("GLOB"));
  names.add(0x00001002, "FuzzRef", Signature("REFR"));
  names.add(0x00001003, "FuzzItem", Signature("MISC"));
  names.add(0x00001004, "FuzzFunction", Signature("SCPT"));
}

// The lines as the compiler counts them: split at '\n', a '\r' before it not part of the line.
std::vector<std::string_view> source_lines(std::string_view source) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = source.find('\n', start);
    std::string_view line = source.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (end != std::string_view::npos && line.ends_with('\r')) line.remove_suffix(1);
    lines.push_back(line);
    if (end == std::string_view::npos) return lines;
    start = end + 1;
  }
}

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\xA0'; }
bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (static_cast<unsigned char>(c) >= 0x80 && c != '\xA0');
}

// A line the compiler reads as a declaration: a type keyword first, not followed by a '.'.
bool is_declaration(std::string_view line) {
  static constexpr std::string_view kKeywords[] = {"short", "long", "int", "float", "ref", "reference", "string_var", "array_var"};
  std::size_t i = 0;
  while (i < line.size() && blank(line[i])) ++i;
  std::size_t end = i;
  while (end < line.size() && word_char(line[end])) ++end;
  const std::string_view word = line.substr(i, end - i);
  bool keyword = false;
  for (std::string_view k : kKeywords) keyword = keyword || ascii::iequals(word, k);
  while (end < line.size() && blank(line[end])) ++end;
  return keyword && (end == line.size() || line[end] != '.');
}

// The source with its declaration lines first, in their order: how the decompiler writes them.
std::string declarations_first(std::string_view source) {
  std::string declarations, rest;
  std::size_t start = 0;
  while (start <= source.size()) {
    const std::size_t end = std::min(source.find('\n', start), source.size());
    const std::string_view line = source.substr(start, end - start);
    std::string& to = is_declaration(line) ? declarations : rest;
    to += line;
    to += '\n';
    start = end + 1;
  }
  return declarations + rest;
}

// Compiles source with the names given. Rejected source: false, after checking where the
// error points. Accepted source: the round trip must hold (see the top of the file).
bool compiles_and_round_trips(std::string_view source, const fuzz::FuzzNames& names) {
  CompileOptions co;
  co.names = &names;
  ScriptData compiled;
  try {
    compiled = compile(source, co).script;
  } catch (const CompileError& e) {
    const auto lines = source_lines(source);
    if (e.line() < 1 || e.line() > lines.size()) fuzz::finding("compile error on a line the source does not have", e.what(), source);
    if (e.column() < 1 || e.column() > lines[e.line() - 1].size() + 1)
      fuzz::finding("compile error column outside its line", e.what(), source);
    return false;
  } catch (const std::exception& e) {
    fuzz::finding("compile threw something other than CompileError", e.what(), source);
  }
  std::string hoisted = declarations_first(source);
  if (hoisted.substr(0, hoisted.size() - 1) != source) {
    try {
      compiled = compile(hoisted, co).script;
    } catch (const CompileError&) {
      return true;  // a name used before its declaration meant something else there
    } catch (const std::exception& e) {
      fuzz::finding("compile threw something other than CompileError", e.what(), hoisted);
    }
  }
  DecompileOptions dopt;
  dopt.names = &names;
  dopt.script_name = "FuzzScript";
  fuzz::decompiles_and_compiles_back(compiled, co, dopt, hoisted);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  // First with only the known forms (unknown words stay unknown: strings in OBSE code, errors
  // elsewhere); rejected source again with every name a form.
  fuzz::FuzzNames known;
  add_known_forms(known);
  if (compiles_and_round_trips(source, known)) return 0;
  fuzz::FuzzNames any(true);
  add_known_forms(any);
  compiles_and_round_trips(source, any);
  return 0;
}
