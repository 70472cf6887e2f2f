// An edited script that names a form nothing has must fail to compile, at that name, on every
// path: never compile to another form (or to a string). On the corpus: every script with one of
// its form names replaced by a made-up one (compile, as import and `script compile` compile it),
// a sample of them through a whole export -> edit -> import, and the case a newcomer hit.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/script/compiler.hpp"
#include "tesmod/script/obse_profile.hpp"
#include "tesmod/script/plugin_master_facts.hpp"
#include "tesmod/script/plugin_names.hpp"
#include "tesmod/script/plugin_scripts.hpp"
#include "tesmod/text/plugin_text.hpp"

using namespace tesmod;
using namespace tesmod::script;
namespace fs = std::filesystem;

namespace {

constexpr const char* kMadeUp = "TesmodNoSuchForm";

std::vector<fs::path> oblivion_plugins() {
  std::vector<fs::path> out;
  const std::string dir = (test::corpus_dir() / "oblivion").string();
  for (const auto& p : test::corpus_plugins())
    if (p.string().starts_with(dir)) out.push_back(p);
  return out;
}

struct Place {
  std::uint32_t line = 0, column = 0;  // 1-based, as compile errors count
  std::size_t offset = 0;              // in the source
  bool operator<(const Place& o) const { return offset < o.offset; }
};

// Where a word stands in source as a name: outside strings and comments, not after the
// ScriptName keyword, not a member after '.', not an escape. Read here without the library's
// lexer, so that the test does not share its mistakes.
std::vector<Place> name_places(const std::string& source, const std::string& word) {
  std::vector<Place> places;
  std::uint32_t line = 1;
  std::size_t line_start = 0;
  bool in_string = false, comment = false, first_word_of_line = true, script_name_line = false;
  const auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i < source.size();) {
    const char c = source[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
      in_string = comment = script_name_line = false;
      first_word_of_line = true;
      ++i;
      continue;
    }
    if (comment) { ++i; continue; }
    if (c == '"') { in_string = !in_string; ++i; continue; }
    if (in_string) { ++i; continue; }
    if (c == ';') { comment = true; ++i; continue; }
    if (!is_word(c)) { ++i; continue; }
    std::size_t end = i;
    while (end < source.size() && is_word(source[end])) ++end;
    const std::string w = source.substr(i, end - i);
    const char before = i > 0 ? source[i - 1] : ' ';
    if (first_word_of_line && (ascii::iequals(w, "scn") || ascii::iequals(w, "scriptname"))) script_name_line = true;
    if (!first_word_of_line && !script_name_line && ascii::iequals(w, word) && before != '.' && before != '@' &&
        before != '$')
      places.push_back({line, static_cast<std::uint32_t>(i - line_start + 1), i});
    first_word_of_line = false;
    i = end;
  }
  return places;
}

std::string replaced(std::string source, const std::vector<Place>& places, std::size_t length) {
  for (auto it = places.rbegin(); it != places.rend(); ++it) source.replace(it->offset, length, kMadeUp);
  return source;
}

// The places after replacing: columns move on lines that hold several.
std::vector<Place> places_after(const std::vector<Place>& places, std::size_t length) {
  std::vector<Place> out = places;
  for (std::size_t k = 0; k < out.size(); ++k)
    for (std::size_t j = 0; j < k; ++j)
      if (places[j].line == places[k].line)
        out[k].column = static_cast<std::uint32_t>(out[k].column + std::string(kMadeUp).size() - length);
  return out;
}

// A form name the script's source uses (and where), the player aside.
struct Pick {
  std::string name;
  std::vector<Place> places;
};
std::optional<Pick> pick_form_name(const PluginScript& s, const CompileOptions& o) {
  CompileOptions lenient = o;
  lenient.unquoted_strings = true;
  CompileResult r;
  try {
    r = compile(s.data.source, lenient);
  } catch (const CompileError&) {
    return std::nullopt;
  }
  for (const auto& [name, form] : r.names_used.forms) {
    if (name.size() <= 2) continue;
    std::vector<Place> places = name_places(s.data.source, name);
    if (!places.empty()) return Pick{name, std::move(places)};
  }
  return std::nullopt;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
void spit(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

// The exported source file of a SCPT, by its FormID.
std::optional<fs::path> script_file(const fs::path& dir, std::uint32_t form_id) {
  const std::string tail = fmt::format("[{:08X}].obl", form_id);
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().filename().string().ends_with(tail)) return e.path();
  return std::nullopt;
}

}  // namespace

// Every corpus script with a form name: that name replaced everywhere by a made-up one fails to
// compile at one of the places, as an unknown name, whether recompiled (the stored script as the
// previous compile, as import and `script compile` do) or compiled as a new script.
TEST(ScriptUnknownName, EveryFormNameReplacedFailsAtThatName) {
  TESMOD_REQUIRE_CORPUS();
  std::size_t scripts = 0, tried = 0, checked = 0;
  for (const fs::path& path : oblivion_plugins()) {
    SCOPED_TRACE(path.string());
    const PluginFile file = PluginFile::open(path);
    const std::vector<PluginScript> scripts_of = plugin_scripts(file);
    if (scripts_of.empty()) continue;
    const auto names = PluginNames::build(file);
    const std::vector<std::string> builds = obse_evidence(scripts_of).plugins;
    const PluginMasterFacts facts = plugin_master_facts(file, scripts_of, *names, builds);
    for (const PluginScript& s : scripts_of) {
      if (s.error || !s.data.has_source) continue;
      ++scripts;
      CompileOptions o;
      o.names = names.get();
      o.result_script = s.is_result_script();
      o.result_locals = o.result_script ? result_locals(s, *names) : nullptr;
      o.type = static_cast<ScriptType>(s.data.header.type);
      o.obse_plugins = builds;
      o.facts = &facts.facts;
      const std::optional<Pick> pick = pick_form_name(s, o);
      if (!pick) continue;
      ++tried;
      const std::string edited = replaced(s.data.source, pick->places, pick->name.size());
      const std::vector<Place> at = places_after(pick->places, pick->name.size());
      for (const bool in_place : {true, false}) {
        CompileOptions e = o;
        e.previous = in_place ? &s.data : nullptr;
        // Compiled fresh, a source with OBSE's unquoted strings fails at them first.
        try {
          compile(s.data.source, e);
        } catch (const CompileError&) {
          EXPECT_FALSE(in_place) << s.editor_id << " does not recompile";
          continue;
        }
        ++checked;
        try {
          compile(edited, e);
          ADD_FAILURE() << s.editor_id << ": '" << pick->name << "' replaced by " << kMadeUp << " compiled"
                        << (in_place ? " in place" : " fresh");
        } catch (const CompileError& err) {
          EXPECT_TRUE(err.unknown_name()) << s.editor_id << ": " << err.what();
          const bool at_a_place = std::any_of(at.begin(), at.end(), [&](const Place& p) {
            return p.line == err.line() && p.column == err.column();
          });
          EXPECT_TRUE(at_a_place) << s.editor_id << " '" << pick->name << "': " << err.what();
          EXPECT_NE(err.message().find(kMadeUp), std::string::npos) << err.what();
        }
      }
    }
  }
  std::cout << "[ unknown names ] " << tried << " of " << scripts << " scripts had a form name replaced; " << checked
            << " compiles (in place and fresh) refused it\n";
  EXPECT_GT(tried, 400u);
  EXPECT_GT(checked, tried + tried / 2);
}

// Through the folder: export, replace a form name in a script file, import. The import fails
// naming the file, line and column and the name, and writes nothing. Two scripts per plugin.
TEST(ScriptUnknownName, ImportOfAnEditedFolderFailsAndWritesNothing) {
  TESMOD_REQUIRE_CORPUS();
  std::size_t imports = 0;
  for (const fs::path& path : oblivion_plugins()) {
    SCOPED_TRACE(path.string());
    const PluginFile file = PluginFile::open(path);
    const std::vector<PluginScript> scripts_of = plugin_scripts(file);
    std::vector<const PluginScript*> scpt;
    for (const PluginScript& s : scripts_of)
      if (!s.error && s.data.has_source && !s.is_result_script()) scpt.push_back(&s);
    if (scpt.empty()) continue;
    const auto names = PluginNames::build(file);
    const std::vector<std::string> builds = obse_evidence(scripts_of).plugins;
    test::TempDir dir;
    text::export_plugin(path, dir / "text");
    int done = 0;
    for (std::size_t k = 0; k < scpt.size() && done < 2; k += std::max<std::size_t>(1, scpt.size() / 2)) {
      const PluginScript& s = *scpt[k];
      CompileOptions o;
      o.names = names.get();
      o.type = static_cast<ScriptType>(s.data.header.type);
      o.obse_plugins = builds;
      const auto facts = plugin_master_facts(file, scripts_of, *names, builds);
      o.facts = &facts.facts;
      const std::optional<Pick> pick = pick_form_name(s, o);
      const std::optional<fs::path> source_file = script_file(dir / "text", s.form_id);
      if (!pick || !source_file) continue;
      const std::string before = slurp(*source_file);
      // The exported file is the stored source (code page aside): find the name there again.
      const std::vector<Place> places = name_places(before, pick->name);
      ASSERT_FALSE(places.empty()) << *source_file;
      spit(*source_file, replaced(before, places, pick->name.size()));
      const fs::path out = dir / "out.esp";
      try {
        text::import_plugin(dir / "text", out);
        ADD_FAILURE() << s.editor_id << ": imported with '" << pick->name << "' replaced by " << kMadeUp;
      } catch (const Error& e) {
        const std::string what = e.what();
        const std::string file_name = source_file->string();
        bool named = false;
        for (const Place& p : places_after(places, pick->name.size()))
          named = named || what.find(fmt::format("{}:{}:{}", file_name, p.line, p.column)) != std::string::npos;
        EXPECT_TRUE(named) << what;
        EXPECT_NE(what.find(kMadeUp), std::string::npos) << what;
      }
      EXPECT_FALSE(fs::exists(out));
      spit(*source_file, before);
      ++imports;
      ++done;
    }
  }
  std::cout << "[ unknown names ] " << imports << " imports of an edited folder refused\n";
  EXPECT_GT(imports, 30u);
}

// The newcomer's case (issue 20): a spell name in lThis looks Familiar.esp replaced by an invented
// one. It compiled to the plugin's own lNFSummonSpellConjuration by position before.
TEST(ScriptUnknownName, NewcomersInventedSpellName) {
  TESMOD_REQUIRE_CORPUS();
  fs::path plugin;
  for (const fs::path& p : oblivion_plugins())
    if (p.filename() == "lThis looks Familiar.esp") plugin = p;
  ASSERT_FALSE(plugin.empty());
  test::TempDir dir;
  const fs::path text = dir / "text";
  ASSERT_EQ(test::run_cli({"export", plugin.string(), text.string()}).exit_code, 0);
  const fs::path script = text / "SCPT" / "lNFSpellBookScript [01003131].obl";
  std::string source = slurp(script);
  const std::string from = "player.Addspell lNFSummonSpellConjuration";
  const std::size_t at = source.find(from);
  ASSERT_NE(at, std::string::npos);
  source.replace(at, from.size(), "player.Addspell CompletelyMadeUpSpell");
  spit(script, source);
  const fs::path out = dir / "out.esp";
  const test::CommandResult r = test::run_cli({"import", text.string(), "-o", out.string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find(script.string() + ":9:29: unknown object 'CompletelyMadeUpSpell'"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));

  // The same source through `script compile` and `script check`.
  const fs::path src = dir / "edited.txt";
  spit(src, source);
  const test::CommandResult c =
      test::run_cli({"script", "compile", plugin.string(), "--source", src.string(), "-o", out.string()});
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_NE(c.err.find(src.string() + ":9:29: unknown object 'CompletelyMadeUpSpell'"), std::string::npos) << c.err;
  EXPECT_FALSE(fs::exists(out));
  const test::CommandResult k = test::run_cli({"script", "check", src.string(), "--plugin", plugin.string()});
  EXPECT_EQ(k.exit_code, 1);
  EXPECT_NE(k.err.find(src.string() + ":9:29: unknown object 'CompletelyMadeUpSpell'"), std::string::npos) << k.err;

  // A name of a missing master that the scripts use elsewhere compiles to that master's form.
  source = slurp(script);
  source.replace(source.find("CompletelyMadeUpSpell"), std::string("CompletelyMadeUpSpell").size(), "lNFSummonSpellConjuration");
  spit(script, source);
  const fs::path place = text / "SCPT" / "lNFPlaceBookQuestScript [010045B1].obl";
  std::string quest = slurp(place);
  const std::size_t cell = quest.find("GetInCell Anutwyll02");
  ASSERT_NE(cell, std::string::npos);
  quest.replace(cell, std::string("GetInCell Anutwyll02").size(), "GetInCell Belda02");
  spit(place, quest);
  const test::CommandResult ok = test::run_cli({"import", text.string(), "-o", out.string()});
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("compiled 1 changed script ("), std::string::npos) << ok.out;
  const PluginFile result = PluginFile::open(out);
  const std::vector<PluginScript> scripts_of = plugin_scripts(result);
  const auto it = std::find_if(scripts_of.begin(), scripts_of.end(),
                               [](const PluginScript& s) { return s.editor_id == "lNFPlaceBookQuestScript"; });
  ASSERT_NE(it, scripts_of.end());
  // Belda02 is Oblivion.esm's 0002443E (names.txt); the list gains no entry for it twice.
  std::set<std::uint32_t> objects;
  for (const ScriptRef& r : it->data.refs)
    if (r.kind == ScriptRef::Kind::Object) {
      EXPECT_TRUE(objects.insert(r.value).second) << std::hex << r.value;
    }
  EXPECT_TRUE(objects.count(0x0002443E));
}
