// `tesmod diff` on corpus plugins edited the way a user would (exported, one line of text changed,
// imported; a reference moved between cells through the Plugin tree), text and JSON, exit codes;
// and `git diff` on a plugin through `tesmod export --stdout` as its textconv.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sample_builder.hpp"
#include "test_support.hpp"
#include "tesmod/plugin/plugin.hpp"

using namespace tesmod;
using test::run_cli;

namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

fs::path skyrim_plugin() {
  return test::corpus_dir() / "skyrim/AndersonPaschoalon__Skyrim-DSilHand/DawnOfTheSilverHand.esp";
}
fs::path oblivion_plugin() {
  return test::corpus_dir() / "oblivion/Laulajatar__my-oblivion-mods/lFogOfWar.esp";
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// Replaces the one occurrence of from in the file.
void edit_line(const fs::path& path, const std::string& from, const std::string& to) {
  std::string text = read_text(path);
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from << " not in " << path;
  ASSERT_EQ(text.find(from, at + 1), std::string::npos) << from << " twice in " << path;
  text.replace(at, from.size(), to);
  write_text(path, text);
}

void export_to(const fs::path& plugin, const fs::path& dir) {
  const auto r = run_cli({"export", plugin.string(), dir.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

void import_to(const fs::path& dir, const fs::path& plugin) {
  const auto r = run_cli({"import", dir.string(), "-o", plugin.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

constexpr const char* kSword = "WEAP/DSilHand_TemperedSilverSword [0203ECAB].txt";

class DiffCli : public ::testing::Test {
 protected:
  void SetUp() override {
    TESMOD_REQUIRE_CORPUS();
    ASSERT_TRUE(fs::exists(skyrim_plugin())) << skyrim_plugin();
    ASSERT_TRUE(fs::exists(oblivion_plugin())) << oblivion_plugin();
  }

  // The Skyrim plugin exported into a folder to edit; edited() imports it.
  fs::path exported() {
    const fs::path dir = tmp / "text";
    if (!fs::exists(dir)) export_to(skyrim_plugin(), dir);
    return dir;
  }
  std::string edited() {
    const fs::path out = tmp / "Edited.esp";
    import_to(exported(), out);
    return out.string();
  }

  test::TempDir tmp;
};

}  // namespace

TEST_F(DiffCli, IdenticalPluginsExitZero) {
  fs::copy_file(skyrim_plugin(), tmp / "Copy.esp");
  const auto r = run_cli({"diff", skyrim_plugin().string(), (tmp / "Copy.esp").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, fmt::format("--- {}\n+++ {}\nsummary: 0 added, 0 removed, 0 changed, 0 moved\n",
                               skyrim_plugin().string(), (tmp / "Copy.esp").string()));
  // Exported and imported unedited: the same bytes, so the same records.
  EXPECT_EQ(run_cli({"diff", skyrim_plugin().string(), edited()}).exit_code, 0);
}

TEST_F(DiffCli, ChangedNumberStringAndScriptProperty) {
  const fs::path sword = exported() / kSword;
  edit_line(sword, "DATA value=700 weight=7.0", "DATA value=750 weight=7.0");
  edit_line(sword, "FULL \"Tempered Silver Sword\"", "FULL \"Tempered Silver Blade\"");
  edit_line(sword, "object SilverPerk = Skyrim.esm:0010D685", "object SilverPerk = Skyrim.esm:0010D686");
  const auto r = run_cli({"diff", skyrim_plugin().string(), edited(), "--no-masters"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // Only the changed lines, each VMAD change after the block lines that enclose it.
  EXPECT_TRUE(contains(r.out, "changed WEAP 0203ECAB DSilHand_TemperedSilverSword\n"
                              "    VMAD {\n"
                              "      script SilverSwordScript\n"
                              "  -     object SilverPerk = Skyrim.esm:0010D685\n"
                              "  +     object SilverPerk = Skyrim.esm:0010D686\n"
                              "  - FULL \"Tempered Silver Sword\"\n"
                              "  + FULL \"Tempered Silver Blade\"\n"
                              "  - DATA value=700 weight=7.0 damage=13\n"
                              "  + DATA value=750 weight=7.0 damage=13\n"
                              "summary: 0 added, 0 removed, 1 changed, 0 moved\n"))
      << r.out;
}

TEST_F(DiffCli, AddedAndRemovedRecords) {
  const fs::path dir = exported();
  // A new weapon (a copy of one under another FormID and EditorID) and a recipe nothing uses gone.
  std::string copy = read_text(dir / kSword);
  copy.replace(copy.find("0203ECAB"), 8, "0203FFFF");
  copy.replace(copy.find("DSilHand_TemperedSilverSword"), 28, "DSilHand_NewSword");
  write_text(dir / "WEAP/DSilHand_NewSword [0203FFFF].txt", copy);
  fs::remove(dir / "COBJ/DSilHand_RecipeSilverSword [0203ECB3].txt");
  const auto r = run_cli({"diff", skyrim_plugin().string(), edited()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "\nadded WEAP 0203FFFF DSilHand_NewSword\n"
                              "removed COBJ 0203ECB3 DSilHand_RecipeSilverSword\n"
                              "summary: 1 added, 1 removed, 0 changed, 0 moved\n"))
      << r.out;
}

TEST_F(DiffCli, RecordCountAloneIsNoChange) {
  // One record fewer changes HEDR's count in TES4: the removal says it all.
  fs::remove(exported() / "COBJ/DSilHand_RecipeSilverSword [0203ECB3].txt");
  const auto r = run_cli({"diff", skyrim_plugin().string(), edited()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "summary: 0 added, 1 removed, 0 changed, 0 moved\n")) << r.out;
}

TEST_F(DiffCli, MovedReference) {
  // The first temporary reference of one interior cell moved into the next cell that has some.
  Plugin p = Plugin::open(skyrim_plugin());
  struct Cell {
    std::uint32_t form_id;
    std::string editor_id;
    Group* temporary;
  };
  std::vector<Cell> cells;
  for (Node& top : p.top()) {
    if (!top.is_group() || top.group().label() != Signature("CELL").value()) continue;
    for (Node& block : top.group().children)
      for (Node& sub : block.group().children) {
        const Record* cell = nullptr;
        for (Node& n : sub.group().children) {
          if (n.is_record()) cell = &n.record();
          if (!n.is_group() || !cell) continue;
          for (Node& g : n.group().children)
            if (g.is_group() && g.group().type() == 9 && !g.group().children.empty())
              cells.push_back({cell->form_id(), cell->editor_id().value_or(""), &g.group()});
        }
      }
  }
  ASSERT_GE(cells.size(), 2u);
  auto& from = cells[0].temporary->children;
  const auto ref = std::find_if(from.begin(), from.end(),
                                [](const Node& n) { return n.is_record() && n.record().type() == Signature("REFR"); });
  ASSERT_NE(ref, from.end());
  const std::uint32_t moved = ref->record().form_id();
  cells[1].temporary->children.push_back(std::move(*ref));
  from.erase(ref);
  const fs::path out = tmp / "Moved.esp";
  p.save(out);

  const auto r = run_cli({"diff", skyrim_plugin().string(), out.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, fmt::format("\nmoved REFR {:08X} from CELL {:08X} {} temporary "
                                          "to CELL {:08X} {} temporary\n"
                                          "summary: 0 added, 0 removed, 0 changed, 1 moved\n",
                                          moved, cells[0].form_id, cells[0].editor_id, cells[1].form_id,
                                          cells[1].editor_id)))
      << r.out;
}

TEST_F(DiffCli, EditedOblivionScriptAsUnifiedDiff) {
  const fs::path dir = tmp / "oblivion";
  export_to(oblivion_plugin(), dir);
  edit_line(dir / "SCPT/LaulaFogQuestScript [00000800].obl", "set i to lFogDistance - 2000",
            "set i to lFogDistance - 2500");
  const fs::path out = tmp / "Fog.esp";
  import_to(dir, out);  // compiles the changed source
  const auto r = run_cli({"diff", oblivion_plugin().string(), out.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // The source change with three lines of context; the compiled code's hex is left out.
  EXPECT_TRUE(contains(r.out, "changed SCPT 00000800 LaulaFogQuestScript\n"
                              "  script source:\n"
                              "  @@ -12,7 +12,7 @@\n"
                              "   set fQuestDelayTime to 3\n"
                              "   \n"
                              "   \tset currWeather to GetCurrentWeatherID \n"
                              "  -    set i to lFogDistance - 2000\n"
                              "  +    set i to lFogDistance - 2500\n"
                              "   \n"
                              "   \tif IsFormValid currWeather == 0\n"
                              "   \t\treturn\n"
                              "  (compiled code (SCDA) changed with it)\n"
                              "summary: 0 added, 0 removed, 1 changed, 0 moved\n"))
      << r.out;
  EXPECT_FALSE(contains(r.out, "SCDA 1D")) << r.out;

  const auto j = nlohmann::json::parse(run_cli({"diff", oblivion_plugin().string(), out.string(), "--json"}).out);
  ASSERT_EQ(j["changed"].size(), 1u);
  const auto& script = j["changed"][0]["scripts"][0];
  EXPECT_EQ(script["index"], 0);
  EXPECT_EQ(script["lines"][0], "@@ -12,7 +12,7 @@");
  EXPECT_EQ(script["lines"][4], "-    set i to lFogDistance - 2000");
  EXPECT_EQ(script["lines"][5], "+    set i to lFogDistance - 2500");
}

TEST_F(DiffCli, Json) {
  const fs::path dir = exported();
  edit_line(dir / kSword, "DATA value=700 weight=7.0", "DATA value=750 weight=7.0");
  fs::remove(dir / "COBJ/DSilHand_RecipeSilverSword [0203ECB3].txt");
  const auto r = run_cli({"diff", skyrim_plugin().string(), edited(), "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["identical"], false);
  EXPECT_EQ(j["old"], skyrim_plugin().string());
  EXPECT_TRUE(j["added"].empty());
  ASSERT_EQ(j["removed"].size(), 1u);
  EXPECT_EQ(j["removed"][0]["type"], "COBJ");
  EXPECT_EQ(j["removed"][0]["form_id"], "0203ECB3");
  EXPECT_EQ(j["removed"][0]["editor_id"], "DSilHand_RecipeSilverSword");
  ASSERT_EQ(j["changed"].size(), 1u);
  EXPECT_EQ(j["changed"][0]["editor_id"], "DSilHand_TemperedSilverSword");
  EXPECT_EQ(j["changed"][0]["lines"], nlohmann::json::parse(R"(["-DATA value=700 weight=7.0 damage=13",
                                                                  "+DATA value=750 weight=7.0 damage=13"])"));
  EXPECT_TRUE(j["changed"][0]["scripts"].empty());
  EXPECT_TRUE(j["moved"].empty());
  EXPECT_EQ(j["summary"], nlohmann::json::parse(R"({"added": 0, "removed": 1, "changed": 1, "moved": 0})"));
}

// A quest objective with one condition under each of six target aliases: the changed one is
// placed (which of the six, and the target line before it), in text and JSON.
TEST_F(DiffCli, RepeatedLinesSayWhichOne) {
  const fs::path quest = exported() / "QUST/DSilHand_M60Retaliation [020092FE].txt";
  edit_line(quest, "QSTA target-alias=12 flags=0 unused=000000\n  CTDA GetDead() != 1.0 [pad=012B]",
            "QSTA target-alias=12 flags=0 unused=000000\n  CTDA GetDead() != 0.0 [pad=012B]");
  const std::string out = edited();
  const auto r = run_cli({"diff", skyrim_plugin().string(), out});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "changed QUST 020092FE DSilHand_M60Retaliation\n"
                              "  @ the 3rd of 6 lines alike, after QSTA target-alias=12 flags=0 unused=000000\n"
                              "  - CTDA GetDead() != 1.0 [pad=012B]\n"
                              "  + CTDA GetDead() != 0.0 [pad=012B]\n"
                              "summary: 0 added, 0 removed, 1 changed, 0 moved\n"))
      << r.out;
  const auto j = nlohmann::json::parse(run_cli({"diff", skyrim_plugin().string(), out, "--json"}).out);
  ASSERT_EQ(j["changed"].size(), 1u);
  EXPECT_EQ(j["changed"][0]["lines"],
            nlohmann::json::parse(R"(["@the 3rd of 6 lines alike, after QSTA target-alias=12 flags=0 unused=000000",
                                      "-CTDA GetDead() != 1.0 [pad=012B]", "+CTDA GetDead() != 0.0 [pad=012B]"])"));
  // A line the record holds once needs no place.
  const fs::path sword = exported() / kSword;
  edit_line(sword, "DATA value=700 weight=7.0", "DATA value=750 weight=7.0");
  const auto both = run_cli({"diff", skyrim_plugin().string(), edited()});
  EXPECT_TRUE(contains(both.out, "changed WEAP 0203ECAB DSilHand_TemperedSilverSword\n"
                                 "  - DATA value=700 weight=7.0 damage=13\n"))
      << both.out;
}

// README's walkthrough, run as written on the samples: the diff it shows is what the tool prints.
TEST(DiffReadme, WalkthroughDiffIsWhatTheToolPrints) {
  const std::string readme = read_text(fs::path(TESMOD_SOURCE_DIR) / "README.md");
  const std::string start = "```\n--- samples/TesmodSampleOblivion.esp\n";
  const std::size_t at = readme.find(start);
  ASSERT_NE(at, std::string::npos);
  const std::size_t end = readme.find("```\n", at + start.size());
  ASSERT_NE(end, std::string::npos);
  const std::string shown = readme.substr(at + 4, end - at - 4);

  test::TempDir dir;
  samples::write_all(dir / "samples");
  const fs::path plugin = dir / "samples/TesmodSampleOblivion.esp";
  export_to(plugin, dir / "quest");
  edit_line(dir / "quest/DIAL/TesmodSampleTopic [00000807].txt", "GetStage(TesmodSampleQuest) >= 10.0",
            "GetStage(TesmodSampleQuest) >= 20.0");
  edit_line(dir / "quest/SCPT/TesmodSampleQuestScript [0000080A].obl", "if timer > 5", "if timer > 10");
  import_to(dir / "quest", dir / "Edited.esp");
  const auto r = run_cli({"diff", plugin.string(), (dir / "Edited.esp").string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, fmt::format("--- {}\n+++ {}\n", plugin.string(), (dir / "Edited.esp").string()) +
                       shown.substr(shown.find("changed ")));
}

TEST_F(DiffCli, Errors) {
  const auto missing = run_cli({"diff", skyrim_plugin().string(), (tmp / "Missing.esp").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_TRUE(contains(missing.err, "Missing.esp")) << missing.err;
  const auto games = run_cli({"diff", skyrim_plugin().string(), oblivion_plugin().string()});
  EXPECT_EQ(games.exit_code, 1);
  EXPECT_TRUE(contains(games.err, oblivion_plugin().string() + ": is for Oblivion")) << games.err;
  EXPECT_TRUE(games.out.empty());
  EXPECT_EQ(run_cli({"diff", skyrim_plugin().string()}).exit_code, 2);
}

// ---- git diff through textconv -------------------------------------------------------------------

namespace {

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs git in repo, isolated from the user's and system's settings; stdout and stderr together.
std::string git(const fs::path& repo, const std::string& args, int* status = nullptr) {
  const std::string command = fmt::format(
      "cd {} && GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME={} git -c user.name=t -c user.email=t@t {} 2>&1",
      quoted(repo.string()), quoted(repo.string()), args);
  std::FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int rc = ::pclose(pipe);
  if (status) *status = rc;
  else EXPECT_EQ(rc, 0) << "git " << args << ":\n" << out;
  return out;
}

}  // namespace

TEST_F(DiffCli, GitDiffShowsPluginsAsText) {
  int status = 0;
  git(tmp.path(), "--version", &status);
  if (status != 0) GTEST_SKIP() << "git is not installed";
  const fs::path repo = tmp / "repo";
  fs::create_directories(repo);
  git(repo, "init -q");
  // The setup the README gives. Without masters: git hands textconv the old version in a
  // temporary folder, where the masters that name forms beside the new one are not.
  write_text(repo / ".gitattributes", "*.esp diff=tesmod\n*.esm diff=tesmod\n*.esl diff=tesmod\n");
  git(repo, "config diff.tesmod.textconv " + quoted(quoted(TESMOD_CLI_PATH) + " export --stdout --no-masters"));
  git(repo, "config diff.tesmod.cachetextconv true");
  fs::copy_file(skyrim_plugin(), repo / "Mod.esp");
  git(repo, "add .gitattributes Mod.esp");
  git(repo, "commit -q -m base");

  // One field line changed in the text, imported over the committed plugin.
  edit_line(exported() / kSword, "DATA value=700 weight=7.0", "DATA value=750 weight=7.0");
  import_to(exported(), repo / "Mod.esp");
  const std::string diff = git(repo, "diff");
  EXPECT_TRUE(contains(diff, "\n-    DATA value=700 weight=7.0 damage=13\n+    DATA value=750 weight=7.0 damage=13\n"))
      << diff;
  EXPECT_FALSE(contains(diff, "Binary files")) << diff;

  // Without the attribute, git sees only bytes.
  write_text(repo / ".gitattributes", "");
  EXPECT_TRUE(contains(git(repo, "diff -- Mod.esp"), "Binary files a/Mod.esp and b/Mod.esp differ"));
}

// An Oblivion plugin in git: a one-line edit of a script shows as one changed source line
// (the compiled fields that change with it, SCDA and SCHR, aside).
TEST_F(DiffCli, GitDiffShowsAScriptEditAsOneLine) {
  int status = 0;
  git(tmp.path(), "--version", &status);
  if (status != 0) GTEST_SKIP() << "git is not installed";
  const fs::path repo = tmp / "repo";
  fs::create_directories(repo);
  git(repo, "init -q");
  write_text(repo / ".gitattributes", "*.esp diff=tesmod\n");
  git(repo, "config diff.tesmod.textconv " + quoted(quoted(TESMOD_CLI_PATH) + " export --stdout --no-masters"));
  fs::copy_file(oblivion_plugin(), repo / "Mod.esp");
  git(repo, "add .gitattributes Mod.esp");
  git(repo, "commit -q -m base");

  const fs::path dir = tmp / "text";
  export_to(repo / "Mod.esp", dir);
  edit_line(dir / "SCPT/LaulaFogQuestScript [00000800].obl", "set i to lFogDistance - 2000",
            "set i to lFogDistance - 25000");
  const auto r = run_cli({"import", dir.string(), "--in-place", (repo / "Mod.esp").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(contains(r.out, "compiled 1 changed script")) << r.out;

  const std::string diff = git(repo, "diff -U0");
  std::vector<std::string> source, other;
  std::istringstream lines(diff);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("---") || line.starts_with("+++") || (line[0] != '-' && line[0] != '+')) continue;
    const std::size_t text = line.find_first_not_of(' ', 1);
    (text != std::string::npos && (line[text] == '|' || line[text] == ':') ? source : other).push_back(line);
  }
  EXPECT_EQ(source, (std::vector<std::string>{"-      |    set i to lFogDistance - 2000",
                                              "+      |    set i to lFogDistance - 25000"}))
      << diff;
  for (const std::string& line : other) {
    const std::string field = line.substr(line.find_first_not_of(' ', 1), 4);
    EXPECT_TRUE(field == "SCDA" || field == "SCHR") << line << "\n" << diff;
  }
  EXPECT_FALSE(other.empty()) << diff;  // the compiled code changed with the source
}
