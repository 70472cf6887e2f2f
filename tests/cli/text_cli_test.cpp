// `tesmod export` and `tesmod import` on bad text, and what they leave behind: every error names
// the file, line and column and what was expected; an import that fails writes nothing (no
// output, an --in-place plugin unchanged, no temporary file beside it) and no import, failed or
// not, touches its folder; export refuses folders that are not its own and keeps dot files on
// --replace; files missing from or added to a listing are noted. On the committed samples
// (written afresh by the sample builder) and, for packages, a small corpus plugin.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "sample_builder.hpp"
#include "test_support.hpp"

using namespace tesmod;
using test::run_cli;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void spit(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Replaces the only occurrence of from in the file with to; returns "line:column" of the
// replacement's character at offset (1-based, as the errors count).
std::string edit(const fs::path& file, const std::string& from, const std::string& to, std::size_t offset = 0) {
  std::string text = slurp(file);
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from << " not in " << file;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from << " twice in " << file;
  if (at == std::string::npos) return "?";
  text.replace(at, from.size(), to);
  spit(file, text);
  const std::size_t line_start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  const auto line = 1 + std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n');
  return std::to_string(line) + ":" + std::to_string(at - line_start + offset + 1);
}

// "line:column" of the first character of the line holding needle.
std::string line_of(const fs::path& file, const std::string& needle) {
  const std::string text = slurp(file);
  const std::size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle << " not in " << file;
  return std::to_string(1 + std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n')) + ":1";
}

// A 64-bit FNV-1a hash of every file under dir (dot files too), by relative path.
std::map<std::string, std::uint64_t> hashes(const fs::path& dir) {
  std::map<std::string, std::uint64_t> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::uint64_t h = 1469598103934665603ull;
    for (const char c : slurp(e.path())) h = (h ^ std::uint8_t(c)) * 1099511628211ull;
    out[fs::relative(e.path(), dir).string()] = h;
  }
  return out;
}

// The names in a folder, dot files included.
std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

class TextCli : public ::testing::Test {
 protected:
  void SetUp() override { samples::write_all(samples_.path()); }

  fs::path skyrim() const { return samples_ / "TesmodSample.esp"; }
  fs::path oblivion() const { return samples_ / "TesmodSampleOblivion.esp"; }

  // Exports plugin into a new folder; returns it.
  fs::path export_text(const fs::path& plugin) {
    const fs::path dir = work_ / ("text" + std::to_string(++count_));
    const auto r = run_cli({"export", plugin.string(), dir.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return dir;
  }

  // Imports dir, which must fail with `tesmod: error: <dir/file>:<where>: <what>`, both into a new
  // plugin (which must not appear, nor any temporary file beside it) and in place over a copy of
  // plugin (which must stay as it was, alone in its folder); dir must be unchanged afterwards.
  void expect_import_fails(const fs::path& dir, const fs::path& plugin, const std::string& file,
                           const std::string& where, const std::string& what) {
    SCOPED_TRACE(file + ":" + where);
    const auto before = hashes(dir);
    const std::string expected = "tesmod: error: " + (dir / file).string() + (where.empty() ? "" : ":" + where) + ": " + what;

    const fs::path out_dir = work_ / ("out" + std::to_string(++count_));
    fs::create_directories(out_dir);
    const fs::path out = out_dir / plugin.filename();
    auto r = run_cli({"import", dir.string(), "-o", out.string()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(contains(r.err, expected)) << "expected: " << expected << "\nstderr: " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_EQ(entries(out_dir), std::vector<std::string>{});

    const fs::path in_place_dir = work_ / ("in-place" + std::to_string(++count_));
    fs::create_directories(in_place_dir);
    const fs::path target = in_place_dir / plugin.filename();
    fs::copy_file(plugin, target);
    const std::string bytes = slurp(target);
    r = run_cli({"import", dir.string(), "--in-place", target.string()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(contains(r.err, expected)) << "expected: " << expected << "\nstderr: " << r.err;
    EXPECT_EQ(slurp(target), bytes);
    EXPECT_EQ(entries(in_place_dir), std::vector<std::string>{plugin.filename().string()});

    EXPECT_EQ(hashes(dir), before) << "import changed its folder";
  }

  // A fresh export of plugin with one edit, expected to fail to import.
  void expect_edit_fails(const fs::path& plugin, const std::string& file, const std::string& from, const std::string& to,
                         std::size_t offset, const std::string& what) {
    const fs::path dir = export_text(plugin);
    const std::string where = edit(dir / file, from, to, offset);
    expect_import_fails(dir, plugin, file, where, what);
  }

  test::TempDir samples_;
  test::TempDir work_;
  int count_ = 0;
};

constexpr const char* kCoin = "MISC/TesmodSampleCoin [00000800].txt";
constexpr const char* kTopic = "DIAL/TesmodSampleTopic [00000807].txt";
constexpr const char* kRoom = "CELL/block 0/sub-block 0/TesmodSampleRoom [00000805].txt";
constexpr const char* kQuest = "QUST/TesmodSampleQuest [00000809].txt";
constexpr const char* kScript = "SCPT/TesmodSampleQuestScript [0000080A].obl";

}  // namespace

TEST_F(TextCli, UneditedExportImportsByteIdentical) {
  for (const fs::path& plugin : {skyrim(), oblivion(), samples_ / "TesmodLocalized.esm"}) {
    const fs::path dir = export_text(plugin);
    const fs::path out = work_ / ("same" + std::to_string(++count_)) / plugin.filename();
    fs::create_directories(out.parent_path());
    const auto r = run_cli({"import", dir.string(), "-o", out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_EQ(slurp(out), slurp(plugin)) << plugin;
  }
}

TEST_F(TextCli, MalformedFieldValue) {
  expect_edit_fails(skyrim(), kCoin, "DATA value=25 ", "DATA value=2x5 ", 11,
                    "expected a number that fits 32 bits, not '2x5' (in record MISC 00000800)");
  expect_edit_fails(oblivion(), kCoin, "weight=0.1", "weight=light", 7, "expected a float, not 'light' (in record MISC 00000800)");
  expect_edit_fails(skyrim(), kCoin, "FULL \"Sample Coin\"", "FULL \"Sample Coin", 5, "");
  expect_edit_fails(skyrim(), kRoom, "DATA Interior|UseSkyLighting", "DATA Interior|UseSkyLightning", 14,
                    "expected a flag name");
}

TEST_F(TextCli, BadConditionLine) {
  // Operator, function, value and run-on: the column is that of the part that is wrong.
  expect_edit_fails(skyrim(), kTopic, "GetLevel() >= 5.0 OR", "GetLevel() => 5.0 OR", 11,
                    "expected a comparison operator: ==, !=, >, >=, <, <= (in record INFO 00000808)");
  expect_edit_fails(skyrim(), kTopic, "GetLevel() >= 5.0 OR", "GetLevle() >= 5.0 OR", 0, "unknown condition function 'GetLevle'");
  expect_edit_fails(skyrim(), kTopic, "GetLevel() >= 5.0 OR", "GetLevel() >= five OR", 14,
                    "'five': expected a number or 'global Name' (in record INFO 00000808)");
  expect_edit_fails(skyrim(), kTopic, "GetLevel() >= 5.0 OR", "GetLevel() >= 5.0 OR AND", 21, "");
  expect_edit_fails(oblivion(), kTopic, "GetStage(TesmodSampleQuest)", "GetStage(TesmodSampleQuest", 26,
                    "expected ',' or ')' after the argument (in record INFO 00000808)");
}

TEST_F(TextCli, BrokenVmadBlockLine) {
  expect_edit_fails(skyrim(), kCoin, "int Value = 25", "int Value 25", 10, "expected '=' and the value (in record MISC 00000800)");
  expect_edit_fails(skyrim(), kCoin, "int Value = 25", "integer Value = 25", 0,
                    "unknown keyword 'integer' (expected version, script, a property type (object, string, int, float, "
                    "bool), fragments) (in record MISC 00000800)");
  expect_edit_fails(skyrim(), kCoin, "int Value = 25", "int Value = lots", 12, "expected");
  expect_edit_fails(skyrim(), kCoin, "version 5 object-format 2", "version 5 object-format two", 24, "expected");
}

TEST_F(TextCli, MalformedPackageBlockLine) {
  TESMOD_REQUIRE_CORPUS();
  const fs::path plugin = test::corpus_dir() / "skyrim" / "Voxtric__Skyrim-Mod" / "Dwemer Secrets.esp";
  ASSERT_TRUE(fs::exists(plugin)) << plugin;
  const std::string pack = "PACK/ForceGreet [0003C1C4].txt";
  expect_edit_fails(plugin, pack, "schedule any", "schedule day=Fooday hour=8", 13,
                    "expected a day of the week (AnyDay, Sundas, Morndas, Tirdas, Middas, Turdas, Fredas, Loredas, "
                    "Weekdays, Weekends, MorndasMiddasFredas, TirdasTurdas or a number), found 'Fooday' "
                    "(in record PACK 0003C1C4)");
  expect_edit_fails(plugin, pack, "schedule any", "schedule hour=8 duration=6x", 25,
                    "expected a duration such as 7h, 90min or 7h30min");
  expect_edit_fails(plugin, pack, "preferred-speed Run", "preferred-speed Runn", 16,
                    "expected a speed (Walk, Jog, Run, FastWalk or a number), found 'Runn'");
  expect_edit_fails(plugin, pack, "xnam 82", "frobnicate 82", 0, "unknown keyword 'frobnicate'");
}

TEST_F(TextCli, MissingClosingBrace) {
  {  // a VMAD block: the error points at the line that opens it
    const fs::path dir = export_text(skyrim());
    const std::string where = line_of(dir / kCoin, "  VMAD {");
    edit(dir / kCoin, "\n  }\n", "\n");
    expect_import_fails(dir, skyrim(), kCoin, where, "the block is not closed: expected a line with '}'");
  }
  {  // a group
    const fs::path dir = export_text(skyrim());
    const std::string where = line_of(dir / kTopic, "group topic_children");
    edit(dir / kTopic, "\n}\n", "\n");
    expect_import_fails(dir, skyrim(), kTopic, where, "this group is not closed: expected '}' before the end of the file");
  }
  {  // a group inside a group
    const fs::path dir = export_text(oblivion());
    // The inner group closes at the outer one's brace, so the outer one is left open.
    const std::string where = line_of(dir / kRoom, "group cell_children");
    edit(dir / kRoom, "\n  }\n", "\n");
    expect_import_fails(dir, oblivion(), kRoom, where, "this group is not closed");
  }
}

TEST_F(TextCli, UnknownGroupType) {
  expect_edit_fails(skyrim(), "MISC/_group.txt", "group top MISC", "group topp MISC", 6, "unknown group type 'topp'");
  expect_edit_fails(skyrim(), kTopic, "group topic_children", "group topic_kids", 6, "unknown group type 'topic_kids'");
  expect_edit_fails(oblivion(), kRoom, "group cell_temporary_children", "group cell_tempo_children", 6,
                    "unknown group type 'cell_tempo_children'");
}

TEST_F(TextCli, UnknownEditorIdInAReferenceIsAnError) {
  expect_edit_fails(skyrim(), kCoin, "object Note = TesmodSampleNote", "object Note = TesmodSampleNoet", 14,
                    "unknown form 'TesmodSampleNoet': expected an EditorID, File.esp:00ABCDEF, @00ABCDEF or NONE "
                    "(in record MISC 00000800)");
  expect_edit_fails(oblivion(), kQuest, "SCRI TesmodSampleQuestScript", "SCRI TesmodSampleQuestScrip", 5,
                    "unknown form 'TesmodSampleQuestScrip': expected an EditorID, File.esp:00ABCDEF, @00ABCDEF or NONE "
                    "(in record QUST 00000809)");
  expect_edit_fails(skyrim(), kRoom, "NAME TesmodSampleCoin", "NAME TesmodSampleCion", 5, "unknown form 'TesmodSampleCion'");
  expect_edit_fails(skyrim(), kTopic, "GetItemCount(TesmodSampleCoin)", "GetItemCount(TesmodSampleCion)", 13,
                    "unknown form 'TesmodSampleCion': expected an EditorID, File.esp:00ABCDEF, @00ABCDEF or NONE "
                    "(in record INFO 00000808)");
  expect_edit_fails(oblivion(), kQuest, "SCRI TesmodSampleQuestScript", "SCRI Oblivion.esm:00ABCDEF", 5, "");
}

// A FormID written out reads the same after '@' (how every text of tesmod writes one, and how
// conditions and scripts read one) or '0x', wherever a form is read: field lines, VMAD blocks,
// conditions and group labels.
TEST_F(TextCli, RawFormIdsReadWithAtOrZeroX) {
  for (const char* prefix : {"@", "0x"}) {
    SCOPED_TRACE(prefix);
    const fs::path dir = export_text(skyrim());
    const std::string p = prefix;
    edit(dir / kCoin, "object Note = TesmodSampleNote", "object Note = " + p + "00000801");
    edit(dir / kRoom, "NAME TesmodSampleCoin", "NAME " + p + "00000800");
    edit(dir / kRoom, "group cell_children TesmodSampleRoom {", "group cell_children " + p + "00000805 {");
    edit(dir / kTopic, "GetItemCount(TesmodSampleCoin)", "GetItemCount(" + p + "800)");
    const fs::path out = work_ / ("raw" + std::to_string(++count_)) / skyrim().filename();
    fs::create_directories(out.parent_path());
    const auto r = run_cli({"import", dir.string(), "-o", out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(slurp(out), slurp(skyrim()));
  }
  // The message for a name no form has shows the form written out as it is read.
  expect_edit_fails(skyrim(), kRoom, "NAME TesmodSampleCoin", "NAME @0000080G", 5,
                    "unknown form '@0000080G': expected an EditorID, File.esp:00ABCDEF, @00ABCDEF or NONE");
}

TEST_F(TextCli, ScriptThatDoesNotCompileNamesItsSourceLine) {
  expect_edit_fails(oblivion(), kScript, "\t\tset counter to counter + 1", "\t\tsett counter to counter + 1", 2,
                    "unknown command or statement 'sett'");
  expect_edit_fails(oblivion(), kScript, "\tif timer > 5", "\tif timer > ", 12, "expression ends where a value was expected");
  expect_edit_fails(oblivion(), kScript, "\t\tset timer to 0", "\t\tset timr to 0", 6, "unknown variable 'timr' (no local variable, global or ref.variable)");
}

TEST_F(TextCli, ImportNeverModifiesTheFolder) {
  const fs::path dir = export_text(oblivion());
  edit(dir / kScript, "\tif timer > 5", "\tif timer > 7");
  edit(dir / kCoin, "value=25", "value=30");
  fs::remove(dir / "MISC/TesmodSampleDeleted [00000804].txt");
  spit(dir / "MISC/Extra.txt", "record MISC 00000900\n  EDID \"TesmodExtra\"\n");
  const auto before = hashes(dir);
  const fs::path out = work_ / "a" / "TesmodSampleOblivion.esp";
  fs::create_directories(out.parent_path());
  auto r = run_cli({"import", dir.string(), "-o", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "compiled 1 changed script\n")) << r.out;
  EXPECT_EQ(hashes(dir), before);
  EXPECT_EQ(entries(out.parent_path()), std::vector<std::string>{"TesmodSampleOblivion.esp"});
  // In place, twice: the same bytes, the folder still untouched.
  const fs::path target = work_ / "b" / "TesmodSampleOblivion.esp";
  fs::create_directories(target.parent_path());
  fs::copy_file(oblivion(), target);
  for (int i = 0; i < 2; ++i) {
    r = run_cli({"import", dir.string(), "--in-place", target.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(slurp(target), slurp(out));
  }
  EXPECT_EQ(entries(target.parent_path()), std::vector<std::string>{"TesmodSampleOblivion.esp"});
  EXPECT_EQ(hashes(dir), before);
  const auto decompiled = run_cli({"script", "decompile", out.string(), "TesmodSampleQuestScript"});
  EXPECT_TRUE(contains(decompiled.out, "If timer > 7")) << decompiled.out;
}

TEST_F(TextCli, ExportRefusesANonEmptyFolderThatIsNoExport) {
  const fs::path dir = work_ / "notes";
  fs::create_directories(dir);
  spit(dir / "notes.txt", "mine\n");
  auto r = run_cli({"export", skyrim().string(), dir.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "tesmod: error: " + dir.string() + ": is not empty and holds no earlier export")) << r.err;
  r = run_cli({"export", skyrim().string(), dir.string(), "--replace"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "is not empty and holds no earlier export")) << r.err;
  EXPECT_EQ(entries(dir), std::vector<std::string>{"notes.txt"});
  EXPECT_EQ(slurp(dir / "notes.txt"), "mine\n");
  // An earlier export is replaced only with --replace.
  const fs::path text = export_text(skyrim());
  const auto before = hashes(text);
  r = run_cli({"export", oblivion().string(), text.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "holds an earlier export: pass --replace to replace it")) << r.err;
  EXPECT_EQ(hashes(text), before);
  // Nothing left beside the targets.
  std::vector<std::string> names = entries(work_.path());
  EXPECT_EQ(std::count_if(names.begin(), names.end(), [](const std::string& n) { return n.front() == '.'; }), 0)
      << ::testing::PrintToString(names);
}

TEST_F(TextCli, ExportReplaceKeepsDotFiles) {
  const fs::path dir = export_text(oblivion());
  fs::create_directories(dir / ".git" / "objects");
  spit(dir / ".git" / "HEAD", "ref: refs/heads/main\n");
  spit(dir / ".git" / "objects" / "ab", "blob");
  spit(dir / ".gitattributes", "*.txt diff\n");
  spit(dir / "MISC" / "Stale [00000999].txt", "record MISC 00000999\n");
  edit(dir / kCoin, "value=25", "value=99");
  const auto r = run_cli({"export", skyrim().string(), dir.string(), "--replace"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(dir / ".git" / "HEAD"), "ref: refs/heads/main\n");
  EXPECT_EQ(slurp(dir / ".git" / "objects" / "ab"), "blob");
  EXPECT_EQ(slurp(dir / ".gitattributes"), "*.txt diff\n");
  // Everything else is the new export, as a fresh one writes it.
  auto after = hashes(dir);
  for (auto it = after.begin(); it != after.end();) it = it->first.front() == '.' ? after.erase(it) : std::next(it);
  EXPECT_EQ(after, hashes(export_text(skyrim())));
  EXPECT_FALSE(fs::exists(dir / "SCPT"));
  EXPECT_FALSE(fs::exists(dir / "MISC" / "Stale [00000999].txt"));
  std::vector<std::string> names = entries(work_.path());
  EXPECT_EQ(std::count_if(names.begin(), names.end(), [](const std::string& n) { return n.front() == '.'; }), 0)
      << ::testing::PrintToString(names);
}

TEST_F(TextCli, MissingAndUnlistedFilesAreNoted) {
  const fs::path dir = export_text(skyrim());
  fs::remove(dir / "MISC/TesmodSampleDeleted [00000804].txt");
  spit(dir / "MISC/Extra [00000900].txt", "record MISC 00000900\n  EDID \"TesmodExtra\"\n  DATA value=1 weight=0.5\n");
  const fs::path out = work_ / "out" / "TesmodSample.esp";
  fs::create_directories(out.parent_path());
  const auto r = run_cli({"import", dir.string(), "-o", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "tesmod: note: listed but missing, so left out (1): MISC/TesmodSampleDeleted [00000804].txt\n"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "tesmod: note: not listed, so added at the end of their group (1): MISC/Extra [00000900].txt\n"))
      << r.err;
  const auto dump = run_cli({"dump", out.string(), "--type", "MISC"});
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  EXPECT_TRUE(contains(dump.out, "[00000900]")) << dump.out;
  EXPECT_FALSE(contains(dump.out, "[00000804]")) << dump.out;
  EXPECT_LT(dump.out.find("[00000800]"), dump.out.find("[00000900]"));  // added at the end of the group
  EXPECT_EQ(run_cli({"verify", out.string()}).exit_code, 0);
}

TEST_F(TextCli, BadSettingsAndListings) {
  expect_edit_fails(skyrim(), "plugin.txt", "game skyrimse", "game skyrim6", 5,
                    "unknown game 'skyrim6' (expected oblivion, skyrim or skyrimse)");
  expect_edit_fails(skyrim(), "plugin.txt", "  HEDR version=1.7", "  HEDR version=one", 15, "");
  {  // a record file that starts with something else than a record
    const fs::path dir = export_text(skyrim());
    edit(dir / kCoin, "record MISC", "recrd MISC");
    expect_import_fails(dir, skyrim(), kCoin, "1:1", "expected 'record', 'group' or '}', not 'recrd'");
  }
  {  // a group folder without its listing
    const fs::path dir = export_text(skyrim());
    fs::remove(dir / "BOOK" / "_group.txt");
    expect_import_fails(dir, skyrim(), "BOOK/_group.txt", "", "is missing: every group folder has one");
  }
}
