// The load-order rules of each game, each on a data folder made for it: timestamps and ties,
// ghosts, asterisks, implicit masters, Skyrim.ccc, hoisting, light plugins, Skyrim LE's two
// files disagreeing, limits, FormIDs both ways, and bad input.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "load_order_queries.hpp"
#include "order_rules.hpp"
#include "plugin_maker.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "test_support.hpp"

namespace tesmod::loadorder {
namespace {

using test::active_names;
using test::has_problem;
using test::names;
using test::TestPlugin;
using test::TestRecord;
using test::write_plugin;
using test::write_text;

constexpr std::uint32_t kEsm = record_flags::kMaster;
constexpr std::uint32_t kEsl = record_flags::kLight;

TestPlugin plugin(Game game, std::uint32_t flags = 0, std::vector<std::string> masters = {}) {
  TestPlugin p;
  p.game = game;
  p.header_flags = flags;
  p.masters = std::move(masters);
  return p;
}

std::string all_problems(const LoadOrder& o) {
  std::string out;
  for (const Problem& p : o.problems()) out += p.file + ": " + p.message + "\n";
  return out;
}

LoadOrder open_dir(const std::filesystem::path& dir, std::optional<Game> game = {}) {
  LoadOrderSource s;
  s.data = dir;
  s.game = game;
  s.threads = 2;
  return LoadOrder::open(s);
}

// ---- Oblivion ----------------------------------------------------------------------------

TEST(LoadOrderOblivion, ModificationTimesMastersFirstTiesByName) {
  test::TempDir d;
  write_plugin(d / "Late.esm", plugin(Game::Oblivion, kEsm), 5000);
  write_plugin(d / "Oblivion.esm", plugin(Game::Oblivion, kEsm), 1000);
  write_plugin(d / "b.esp", plugin(Game::Oblivion, 0, {"Oblivion.esm"}), 3000);
  write_plugin(d / "A.esp", plugin(Game::Oblivion, 0, {"Oblivion.esm"}), 3000);  // same time: by name
  write_plugin(d / "First.esp", plugin(Game::Oblivion), 2000);
  write_plugin(d / "Inactive.esp", plugin(Game::Oblivion), 2500);
  // An ESM-flagged .esp is a master; an unflagged .esm is not (Oblivion reads the flag).
  write_plugin(d / "FlaggedMaster.esp", plugin(Game::Oblivion, kEsm), 4000);
  write_plugin(d / "Unflagged.esm", plugin(Game::Oblivion), 100);
  write_text(d / "plugins.txt",
             "# active plugins\r\nOblivion.esm\r\nLate.esm\r\nA.esp\r\nb.esp\r\nFirst.esp\r\nFlaggedMaster.esp\r\n"
             "Unflagged.esm\r\n");
  const LoadOrder o = open_dir(d.path());
  EXPECT_EQ(o.game(), Game::Oblivion);
  EXPECT_EQ(names(o), (std::vector<std::string>{"Oblivion.esm", "FlaggedMaster.esp", "Late.esm", "Unflagged.esm",
                                                "First.esp", "Inactive.esp", "A.esp", "b.esp"}))
      << all_problems(o);
  EXPECT_EQ(active_names(o), (std::vector<std::string>{"Oblivion.esm", "FlaggedMaster.esp", "Late.esm", "Unflagged.esm",
                                                       "First.esp", "A.esp", "b.esp"}));
  EXPECT_FALSE(o.plugin(*o.find("Inactive.esp")).index);
  EXPECT_EQ(o.plugin(*o.find("b.esp")).index->text(), "06");
  EXPECT_TRUE(o.problems().empty()) << all_problems(o);
}

TEST(LoadOrderOblivion, GhostFilesCountAsThePlugin) {
  test::TempDir d;
  write_plugin(d / "Oblivion.esm", plugin(Game::Oblivion, kEsm), 1000);
  write_plugin(d / "Ghosted.esp.ghost", plugin(Game::Oblivion, 0, {"Oblivion.esm"}), 2000);
  write_plugin(d / "Both.esp", plugin(Game::Oblivion), 3000);
  write_plugin(d / "Both.esp.ghost", plugin(Game::Oblivion, kEsm), 500);  // the plugin itself wins
  write_text(d / "plugins.txt", "Oblivion.esm\nGhosted.esp\nBoth.esp\n");
  const LoadOrder o = open_dir(d.path());
  EXPECT_EQ(active_names(o), (std::vector<std::string>{"Oblivion.esm", "Ghosted.esp", "Both.esp"})) << all_problems(o);
  const LoadOrderPlugin& g = o.plugin(*o.find("Ghosted.esp"));
  EXPECT_TRUE(g.ghosted);
  EXPECT_EQ(g.path.filename(), "Ghosted.esp.ghost");
  EXPECT_FALSE(o.plugin(*o.find("Both.esp")).ghosted);
  EXPECT_TRUE(has_problem(o, "Both.esp.ghost", "already there"));
}

TEST(LoadOrderOblivion, ListedPluginsThatAreNotThereAndMissingMasters) {
  test::TempDir d;
  write_plugin(d / "Oblivion.esm", plugin(Game::Oblivion, kEsm), 1000);
  write_plugin(d / "Mod.esp", plugin(Game::Oblivion, 0, {"Oblivion.esm", "Gone.esm"}), 2000);
  write_plugin(d / "Needs.esp", plugin(Game::Oblivion, 0, {"Idle.esm"}), 3000);
  write_plugin(d / "Idle.esm", plugin(Game::Oblivion, kEsm), 1500);
  write_text(d / "plugins.txt", "Oblivion.esm\nMod.esp\nNowhere.esp\nNeeds.esp\n");
  const LoadOrder o = open_dir(d.path());
  EXPECT_TRUE(has_problem(o, "plugins.txt", "line 3: active plugin 'Nowhere.esp' is not in the data folder"))
      << all_problems(o);
  EXPECT_TRUE(has_problem(o, "Mod.esp", "needs the master 'Gone.esm', which is not in the data folder"));
  EXPECT_TRUE(has_problem(o, "Needs.esp", "needs the master 'Idle.esm', which is not active"));
  // The others are still there and indexed.
  EXPECT_EQ(active_names(o), (std::vector<std::string>{"Oblivion.esm", "Mod.esp", "Needs.esp"}));
}

// ---- Skyrim LE ---------------------------------------------------------------------------

TEST(LoadOrderSkyrimLE, LoadOrderTxtGivesTheOrderPluginsTxtTheActivePlugins) {
  test::TempDir d;
  write_plugin(d / "Skyrim.esm", plugin(Game::SkyrimLE, kEsm), 9000);
  write_plugin(d / "Update.esm", plugin(Game::SkyrimLE, kEsm, {"Skyrim.esm"}), 9000);
  write_plugin(d / "B.esp", plugin(Game::SkyrimLE), 100);
  write_plugin(d / "A.esp", plugin(Game::SkyrimLE), 200);
  write_plugin(d / "C.esp", plugin(Game::SkyrimLE), 300);
  write_plugin(d / "Unlisted.esp", plugin(Game::SkyrimLE), 50);
  // loadorder.txt lists Skyrim.esm late: it loads first anyway.
  write_text(d / "loadorder.txt", "Update.esm\nSkyrim.esm\nA.esp\nB.esp\nC.esp\n");
  write_text(d / "plugins.txt", "A.esp\nB.esp\n");
  const LoadOrder o = open_dir(d.path());
  EXPECT_EQ(o.game(), Game::SkyrimLE);
  EXPECT_EQ(names(o), (std::vector<std::string>{"Skyrim.esm", "Update.esm", "A.esp", "B.esp", "C.esp", "Unlisted.esp"}))
      << all_problems(o);
  // Update.esm is always active, Skyrim.esm too.
  EXPECT_EQ(active_names(o), (std::vector<std::string>{"Skyrim.esm", "Update.esm", "A.esp", "B.esp"}));
  EXPECT_TRUE(o.problems().empty()) << all_problems(o);
}

TEST(LoadOrderSkyrimLE, TheTwoFilesDisagreeing) {
  test::TempDir d;
  write_plugin(d / "Skyrim.esm", plugin(Game::SkyrimLE, kEsm), 1);
  write_plugin(d / "A.esp", plugin(Game::SkyrimLE), 2);
  write_plugin(d / "B.esp", plugin(Game::SkyrimLE), 3);
  write_plugin(d / "C.esp", plugin(Game::SkyrimLE), 4);
  write_text(d / "loadorder.txt", "Skyrim.esm\nA.esp\nB.esp\n");
  write_text(d / "plugins.txt", "B.esp\nA.esp\nC.esp\n");
  const LoadOrder o = open_dir(d.path());
  EXPECT_EQ(o.game(), Game::SkyrimLE);  // loadorder.txt is there
  // loadorder.txt wins; C.esp, which it does not list, loads after.
  EXPECT_EQ(active_names(o), (std::vector<std::string>{"Skyrim.esm", "A.esp", "B.esp", "C.esp"}));
  EXPECT_TRUE(has_problem(o, "plugins.txt", "plugins.txt and loadorder.txt disagree: line 1 of plugins.txt has 'B.esp' "
                                            "where loadorder.txt (line 2) has 'A.esp'"))
      << all_problems(o);
  EXPECT_TRUE(has_problem(o, "plugins.txt", "line 3: 'C.esp' is active but loadorder.txt does not list it"));
}

TEST(LoadOrderSkyrimLE, WithoutLoadOrderTxtPluginsTxtGivesTheOrder) {
  test::TempDir d;
  write_plugin(d / "Skyrim.esm", plugin(Game::SkyrimLE, kEsm), 1);
  write_plugin(d / "A.esp", plugin(Game::SkyrimLE), 2);
  write_plugin(d / "B.esp", plugin(Game::SkyrimLE), 3);
  write_text(d / "plugins.txt", "Skyrim.esm\nB.esp\nA.esp\n");
  const LoadOrder o = open_dir(d.path(), Game::SkyrimLE);
  EXPECT_EQ(active_names(o), (std::vector<std::string>{"Skyrim.esm", "B.esp", "A.esp"}));
}

// ---- Skyrim SE ---------------------------------------------------------------------------

TEST(LoadOrderSkyrimSE, AsterisksImplicitMastersAndCreationClub) {
  test::TempDir game;
  const auto d = game / "Data";
  std::filesystem::create_directories(d);
  for (const char* m : {"Skyrim.esm", "Update.esm", "Dawnguard.esm", "HearthFires.esm", "Dragonborn.esm"})
    write_plugin(d / m, plugin(Game::SkyrimSE, kEsm), 100);
  write_plugin(d / "ccBGSSSE001-Fish.esm", plugin(Game::SkyrimSE, kEsm), 200);
  write_plugin(d / "ccQDRSSE001-SurvivalMode.esl", plugin(Game::SkyrimSE, kEsm | kEsl), 200);
  write_plugin(d / "ccNotInstalledButListed.esm", plugin(Game::SkyrimSE, kEsm), 200);
  std::filesystem::remove(d / "ccNotInstalledButListed.esm");
  write_plugin(d / "Mod.esm", plugin(Game::SkyrimSE, kEsm), 50);
  write_plugin(d / "A.esp", plugin(Game::SkyrimSE), 10);
  write_plugin(d / "B.esp", plugin(Game::SkyrimSE), 20);
  write_plugin(d / "Inactive.esp", plugin(Game::SkyrimSE), 5);
  write_plugin(d / "NotListed.esp", plugin(Game::SkyrimSE), 1);
  write_text(game / "Skyrim.ccc", "ccQDRSSE001-SurvivalMode.esl\nccBGSSSE001-Fish.esm\nccNotInstalledButListed.esm\n");
  // plugins.txt lists Dragonborn.esm early and inactive, B before Mod.esm: neither counts.
  write_text(d / "plugins.txt", "*Dragonborn.esm\n*B.esp\n*Mod.esm\nInactive.esp\n*A.esp\n");
  const LoadOrder o = open_dir(d);
  EXPECT_EQ(o.game(), Game::SkyrimSE) << "asterisks say SE";
  EXPECT_EQ(names(o), (std::vector<std::string>{"Skyrim.esm", "Update.esm", "Dawnguard.esm", "HearthFires.esm",
                                                "Dragonborn.esm", "ccQDRSSE001-SurvivalMode.esl",
                                                "ccBGSSSE001-Fish.esm", "Mod.esm", "B.esp", "Inactive.esp", "A.esp",
                                                "NotListed.esp"}))
      << all_problems(o);
  EXPECT_EQ(active_names(o), (std::vector<std::string>{"Skyrim.esm", "Update.esm", "Dawnguard.esm", "HearthFires.esm",
                                                       "Dragonborn.esm", "ccQDRSSE001-SurvivalMode.esl",
                                                       "ccBGSSSE001-Fish.esm", "Mod.esm", "B.esp", "A.esp"}));
  // Light plugins take FE slots; the full indices skip them.
  EXPECT_EQ(o.plugin(*o.find("ccQDRSSE001-SurvivalMode.esl")).index->text(), "FE 000");
  EXPECT_EQ(o.plugin(*o.find("ccBGSSSE001-Fish.esm")).index->text(), "05");
  EXPECT_EQ(o.plugin(*o.find("A.esp")).index->text(), "08");
  EXPECT_TRUE(o.problems().empty()) << all_problems(o);
}

TEST(LoadOrderSkyrimSE, LightPluginsByFlagOrExtension) {
  test::TempDir d;
  write_plugin(d / "Skyrim.esm", plugin(Game::SkyrimSE, kEsm), 1);
  write_plugin(d / "Flagged.esp", plugin(Game::SkyrimSE, kEsl, {"Skyrim.esm"}), 2);  // ESPFE: light, not master
  write_plugin(d / "Ext.esl", plugin(Game::SkyrimSE, 0, {"Skyrim.esm"}), 3);         // .esl: light and master
  write_plugin(d / "Full.esp", plugin(Game::SkyrimSE, 0, {"Skyrim.esm"}), 4);
  write_text(d / "plugins.txt", "*Flagged.esp\n*Ext.esl\n*Full.esp\n");
  const LoadOrder o = open_dir(d.path());
  EXPECT_EQ(names(o), (std::vector<std::string>{"Skyrim.esm", "Ext.esl", "Flagged.esp", "Full.esp"}));
  const LoadOrderPlugin& flagged = o.plugin(*o.find("Flagged.esp"));
  const LoadOrderPlugin& ext = o.plugin(*o.find("Ext.esl"));
  EXPECT_TRUE(flagged.light);
  EXPECT_FALSE(flagged.master);
  EXPECT_TRUE(ext.light);
  EXPECT_TRUE(ext.master);
  EXPECT_EQ(ext.index->text(), "FE 000");
  EXPECT_EQ(flagged.index->text(), "FE 001");
  EXPECT_EQ(o.plugin(*o.find("Full.esp")).index->text(), "01");
}

TEST(LoadOrderSkyrimSE, PluginsTxtWithoutAsterisksActivatesNothing) {
  test::TempDir d;
  write_plugin(d / "Skyrim.esm", plugin(Game::SkyrimSE, kEsm), 1);
  write_plugin(d / "A.esp", plugin(Game::SkyrimSE), 2);
  write_text(d / "plugins.txt", "A.esp\n");
  const LoadOrder o = open_dir(d.path(), Game::SkyrimSE);
  EXPECT_EQ(active_names(o), (std::vector<std::string>{"Skyrim.esm"}));
  EXPECT_TRUE(has_problem(o, "plugins.txt", "no line starts with '*'"));
}

TEST(LoadOrderSkyrimSE, GameFromHeadersAndFormVersions) {
  test::TempDir d;
  TestPlugin le = plugin(Game::SkyrimLE, kEsm);
  le.records.push_back({Signature("MISC"), 0x800, {Field::zstring("EDID", "X")}, 0, 43});
  write_plugin(d / "A.esm", le, 1);
  EXPECT_EQ(open_dir(d.path()).game(), Game::SkyrimLE);
  TestPlugin se = plugin(Game::SkyrimSE, kEsm);
  se.records.push_back({Signature("MISC"), 0x800, {Field::zstring("EDID", "X")}, 0, 44});
  write_plugin(d / "A.esm", se, 1);
  EXPECT_EQ(open_dir(d.path()).game(), Game::SkyrimSE);
  write_plugin(d / "A.esm", plugin(Game::Oblivion, kEsm), 1);
  EXPECT_EQ(open_dir(d.path()).game(), Game::Oblivion);
}

// ---- every game ----------------------------------------------------------------------------

TEST(LoadOrderRules, MastersListedAfterTheirDependentsAreHoisted) {
  test::TempDir d;
  write_plugin(d / "Skyrim.esm", plugin(Game::SkyrimSE, kEsm), 1);
  // An .esp that a master needs loads before that master; a master listed after its dependent too.
  write_plugin(d / "Base.esm", plugin(Game::SkyrimSE, kEsm, {"Skyrim.esm", "Needed.esp"}), 2);
  write_plugin(d / "Needed.esp", plugin(Game::SkyrimSE, 0, {"Skyrim.esm"}), 3);
  write_plugin(d / "Patch.esp", plugin(Game::SkyrimSE, 0, {"Skyrim.esm", "Late.esp"}), 4);
  write_plugin(d / "Late.esp", plugin(Game::SkyrimSE, 0, {"Skyrim.esm"}), 5);
  write_text(d / "plugins.txt", "*Base.esm\n*Patch.esp\n*Needed.esp\n*Late.esp\n");
  const LoadOrder o = open_dir(d.path());
  EXPECT_EQ(names(o), (std::vector<std::string>{"Skyrim.esm", "Needed.esp", "Base.esm", "Late.esp", "Patch.esp"}))
      << all_problems(o);
  EXPECT_TRUE(has_problem(o, "Needed.esp", "is a master of 'Base.esm' but was listed after it: moved before it"));
  EXPECT_TRUE(has_problem(o, "Late.esp", "is a master of 'Patch.esp'"));
  // master_positions follow the final order.
  const LoadOrderPlugin& patch = o.plugin(*o.find("Patch.esp"));
  EXPECT_EQ(patch.master_positions[1], o.find("Late.esp"));
}

TEST(LoadOrderRules, CircularMastersAreReportedNotFollowedForever) {
  test::TempDir d;
  write_plugin(d / "A.esp", plugin(Game::SkyrimSE, 0, {"B.esp"}), 1);
  write_plugin(d / "B.esp", plugin(Game::SkyrimSE, 0, {"A.esp"}), 2);
  write_text(d / "plugins.txt", "*A.esp\n*B.esp\n");
  const LoadOrder o = open_dir(d.path(), Game::SkyrimSE);
  EXPECT_EQ(o.plugins().size(), 2u);
  EXPECT_TRUE(has_problem(o, "A.esp", "circular masters")) << all_problems(o);
}

TEST(LoadOrderRules, DamagedPluginInTheMiddleIsReportedTheOthersRead) {
  test::TempDir d;
  write_plugin(d / "Oblivion.esm", plugin(Game::Oblivion, kEsm), 1);
  write_plugin(d / "Good1.esp", plugin(Game::Oblivion, 0, {"Oblivion.esm"}), 2);
  std::vector<std::uint8_t> broken = test::make_plugin(plugin(Game::Oblivion));
  broken.resize(30);  // the TES4 record cut short
  test::write_file(d / "Broken.esp", broken);
  test::set_mtime(d / "Broken.esp", 3);
  write_plugin(d / "Good2.esp", plugin(Game::Oblivion, 0, {"Oblivion.esm"}), 4);
  write_text(d / "plugins.txt", "Oblivion.esm\nGood1.esp\nBroken.esp\nGood2.esp\n");
  const LoadOrder o = open_dir(d.path());
  EXPECT_EQ(names(o), (std::vector<std::string>{"Oblivion.esm", "Good1.esp", "Broken.esp", "Good2.esp"}));
  EXPECT_EQ(active_names(o), (std::vector<std::string>{"Oblivion.esm", "Good1.esp", "Good2.esp"}));
  const LoadOrderPlugin& b = o.plugin(*o.find("Broken.esp"));
  EXPECT_FALSE(b.readable());
  EXPECT_NE(b.error.find("Broken.esp"), std::string::npos) << b.error;
  EXPECT_NE(b.error.find("offset"), std::string::npos) << b.error;
  EXPECT_TRUE(has_problem(o, "Broken.esp", "offset")) << all_problems(o);
  EXPECT_EQ(o.plugin(*o.find("Good2.esp")).index->text(), "02");
  EXPECT_THROW(o.file(*o.find("Broken.esp")), Error);
  EXPECT_NO_THROW(o.file(*o.find("Good2.esp")));
}

TEST(LoadOrderRules, LimitsOfFullPlugins) {
  test::TempDir d;
  const auto bytes = test::make_plugin(plugin(Game::Oblivion));
  std::string list;
  for (int i = 0; i < 257; ++i) {
    const std::string name = fmt::format("P{:03}.esp", i);
    test::write_file(d / name, bytes);
    test::set_mtime(d / name, 1000 + i);
    list += name + "\n";
  }
  write_text(d / "plugins.txt", list);
  const LoadOrder o = open_dir(d.path());
  EXPECT_EQ(o.active().size(), 255u);
  EXPECT_EQ(o.plugin(*o.find("P254.esp")).index->text(), "FE");
  EXPECT_FALSE(o.plugin(*o.find("P255.esp")).index);
  EXPECT_TRUE(has_problem(o, "P255.esp", "past the 255th active full plugin"));
  EXPECT_TRUE(has_problem(o, "P256.esp", "past the 255th active full plugin"));
}

TEST(LoadOrderRules, LimitsInSkyrimSE) {
  // The rule itself, on plugins that need no files (4,352 files would mostly time the file system).
  std::vector<LoadOrderPlugin> plugins;
  for (int i = 0; i < 255; ++i) {
    LoadOrderPlugin p;
    p.name = fmt::format("F{:03}.esp", i);
    p.active = true;
    plugins.push_back(p);
  }
  for (int i = 0; i < 4097; ++i) {
    LoadOrderPlugin p;
    p.name = fmt::format("L{:04}.esp", i);
    p.active = p.light = true;
    plugins.push_back(p);
  }
  std::vector<Problem> problems;
  detail::assign_indices(Game::SkyrimSE, plugins, problems);
  EXPECT_EQ(plugins[253].index->text(), "FD");
  EXPECT_FALSE(plugins[254].index);
  EXPECT_EQ(plugins[255 + 4095].index->text(), "FE FFF");
  EXPECT_FALSE(plugins[255 + 4096].index);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].file, "F254.esp");
  EXPECT_NE(problems[0].message.find("past the 254th active full plugin"), std::string::npos);
  EXPECT_EQ(problems[1].file, "L4096.esp");
  EXPECT_NE(problems[1].message.find("4,096th active light plugin"), std::string::npos);
  // And through a data folder, the light slots counted apart from the full indices.
  test::TempDir d;
  std::string list;
  for (int i = 0; i < 3; ++i) {
    write_plugin(d / fmt::format("L{}.esp", i), plugin(Game::SkyrimSE, kEsl), 1);
    write_plugin(d / fmt::format("F{}.esp", i), plugin(Game::SkyrimSE), 1);
    list += fmt::format("*L{}.esp\n*F{}.esp\n", i, i);
  }
  write_text(d / "plugins.txt", list);
  const LoadOrder o = open_dir(d.path());
  EXPECT_EQ(o.plugin(*o.find("L2.esp")).index->text(), "FE 002");
  EXPECT_EQ(o.plugin(*o.find("F2.esp")).index->text(), "02");
}

TEST(LoadOrderRules, ExplicitFilesInOrderWithMastersFromTheirFolder) {
  test::TempDir d;
  write_plugin(d / "M.esm", plugin(Game::SkyrimSE, kEsm), 1);
  write_plugin(d / "A.esp", plugin(Game::SkyrimSE, 0, {"M.esm"}), 2);
  write_plugin(d / "B.esp", plugin(Game::SkyrimSE, 0, {"M.esm"}), 3);
  LoadOrderSource s;
  s.files = {d / "B.esp", d / "A.esp", d / "Nope.esp"};
  const LoadOrder o = LoadOrder::open(s);
  EXPECT_EQ(names(o), (std::vector<std::string>{"M.esm", "B.esp", "A.esp"})) << all_problems(o);
  EXPECT_EQ(active_names(o), names(o));
  EXPECT_TRUE(has_problem(o, "M.esm", "not named on the command line"));
  EXPECT_TRUE(has_problem(o, "Nope.esp", "no such plugin file"));
}

TEST(LoadOrderRules, ErrorsForAFolderOrListThatIsNotThere) {
  LoadOrderSource s;
  s.data = "/nonexistent/tesmod/data";
  EXPECT_THROW(LoadOrder::open(s), Error);
  test::TempDir d;
  s.data = d.path();
  s.plugins_file = d / "missing.txt";
  EXPECT_THROW(LoadOrder::open(s), Error);
  s.plugins_file.reset();
  const LoadOrder o = LoadOrder::open(s);  // an empty folder: no plugins, one problem
  EXPECT_TRUE(o.plugins().empty());
  EXPECT_TRUE(has_problem(o, "plugins.txt", "not found"));
}

TEST(LoadOrderRules, ListFileIssuesBecomeProblemsWithLineAndOffset) {
  test::TempDir d;
  write_plugin(d / "Oblivion.esm", plugin(Game::Oblivion, kEsm), 1);
  write_text(d / "Plugins.TXT", "Oblivion.esm\nBad\x81.esp\n");  // any case
  const LoadOrder o = open_dir(d.path());
  EXPECT_EQ(active_names(o), (std::vector<std::string>{"Oblivion.esm"}));
  EXPECT_TRUE(has_problem(o, "Plugins.TXT", "line 2 (offset 13)")) << all_problems(o);
}

// ---- FormIDs across the load order -----------------------------------------------------------

TEST(LoadOrderFormIds, BothWaysForFullAndLightPlugins) {
  test::TempDir d;
  write_plugin(d / "Skyrim.esm", plugin(Game::SkyrimSE, kEsm), 1);
  write_plugin(d / "Other.esm", plugin(Game::SkyrimSE, kEsm), 2);
  write_plugin(d / "Light.esl", plugin(Game::SkyrimSE, kEsm | kEsl, {"Skyrim.esm"}), 3);
  write_plugin(d / "Mod.esp", plugin(Game::SkyrimSE, 0, {"Light.esl", "Skyrim.esm"}), 4);
  write_text(d / "plugins.txt", "*Other.esm\n*Light.esl\n*Mod.esp\n");
  const LoadOrder o = open_dir(d.path());
  ASSERT_EQ(names(o), (std::vector<std::string>{"Skyrim.esm", "Other.esm", "Light.esl", "Mod.esp"})) << all_problems(o);
  const std::uint32_t mod = *o.find("Mod.esp"), light = *o.find("Light.esl"), skyrim = *o.find("Skyrim.esm");
  // Mod.esp stores Light.esl's forms under index 0, Skyrim.esm's under 1, its own under 2.
  const auto k1 = o.key(mod, 0x00000801);
  ASSERT_TRUE(k1);
  EXPECT_EQ(k1->plugin, light);
  EXPECT_EQ(o.load_order_form_id(*k1), 0xFE000801u);
  const auto k2 = o.key(mod, 0x01012EB7);
  EXPECT_EQ(k2->plugin, skyrim);
  EXPECT_EQ(o.load_order_form_id(*k2), 0x00012EB7u);
  const auto k3 = o.key(mod, 0x02000805);
  EXPECT_EQ(k3->plugin, mod);
  EXPECT_EQ(o.load_order_form_id(*k3), 0x02000805u);  // Mod.esp is the third full plugin
  // An index past the master list names the plugin itself (the game's reading).
  EXPECT_EQ(o.key(mod, 0x07000805)->plugin, mod);
  // And back.
  EXPECT_EQ(o.from_load_order_form_id(0xFE000801), k1);
  EXPECT_EQ(o.from_load_order_form_id(0x00012EB7), k2);
  EXPECT_EQ(o.from_load_order_form_id(0x02000805), k3);
  EXPECT_FALSE(o.from_load_order_form_id(0x05000001));  // no plugin at 05
  EXPECT_EQ(o.stored_form_id(mod, *k1), 0x00000801u);
  EXPECT_EQ(o.stored_form_id(mod, *k2), 0x01012EB7u);
  EXPECT_EQ(o.stored_form_id(mod, *k3), 0x02000805u);
  EXPECT_EQ(o.stored_form_id(light, *k2), 0x00012EB7u);
  EXPECT_FALSE(o.stored_form_id(light, FormKey{*o.find("Other.esm"), 0x801}));  // not among its masters
  EXPECT_EQ(o.stored_form_id(light, *k1), 0x01000801u);
}

// ---- records, read on demand -------------------------------------------------------------------

TEST(LoadOrderRecords, VersionsWinnerAndWinningReadOnlyWhatTheyNeed) {
  test::TempDir d;
  TestPlugin master = plugin(Game::SkyrimSE, kEsm);
  master.records = {{Signature("WEAP"), 0x800, {Field::zstring("EDID", "Sword")}},
                    {Signature("MISC"), 0x801, {Field::zstring("EDID", "Coin")}}};
  TestPlugin a = plugin(Game::SkyrimSE, 0, {"M.esm"});
  a.records = {{Signature("WEAP"), 0x800, {Field::zstring("EDID", "SwordA")}},
               {Signature("WEAP"), 0x01000800, {Field::zstring("EDID", "NewA")}}};
  TestPlugin b = plugin(Game::SkyrimSE, 0, {"M.esm"});
  b.records = {{Signature("WEAP"), 0x800, {Field::zstring("EDID", "SwordB")}}};
  TestPlugin other = plugin(Game::SkyrimSE);
  other.records = {{Signature("WEAP"), 0x800, {Field::zstring("EDID", "Unrelated")}}};
  write_plugin(d / "M.esm", master, 1);
  write_plugin(d / "A.esp", a, 2);
  write_plugin(d / "B.esp", b, 3);
  write_plugin(d / "Other.esp", other, 4);
  write_text(d / "plugins.txt", "*M.esm\n*A.esp\n*B.esp\n*Other.esp\n");
  const LoadOrder o = open_dir(d.path());
  const std::uint32_t m = *o.find("M.esm");
  const auto v = o.versions(FormKey{m, 0x800});
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].plugin, m);
  EXPECT_EQ(v[1].plugin, *o.find("A.esp"));
  EXPECT_EQ(v[2].plugin, *o.find("B.esp"));
  EXPECT_EQ(o.winner(FormKey{m, 0x800})->plugin, *o.find("B.esp"));
  // Other.esp names no master: it cannot hold M.esm's forms, so it was never read.
  EXPECT_FALSE(o.is_read(*o.find("Other.esp")));
  const auto weapons = o.winning(Signature("WEAP"));
  ASSERT_EQ(weapons.size(), 3u);  // M's sword (B wins), A's new weapon, Other's own
  Inflater inflater;
  EXPECT_EQ(o.bytes(weapons[0].plugin).editor_id(weapons[0].entry), "SwordB");
  EXPECT_EQ(o.bytes(weapons[1].plugin).editor_id(weapons[1].entry), "NewA");
  EXPECT_EQ(o.bytes(weapons[2].plugin).editor_id(weapons[2].entry), "Unrelated");
  EXPECT_TRUE(o.winning(Signature("NPC_")).empty());
}

TEST(LoadOrderRecords, RecordTypesAndDuplicateFormIdsDenseAndSparse) {
  test::TempDir d;
  TestPlugin master = plugin(Game::SkyrimSE, kEsm);
  // Dense own ids (0x800-0x803, one used twice), one far away (looked up in the sparse list),
  // and a record whose file index is past the (empty) master list.
  master.records = {{Signature("WEAP"), 0x800, {Field::zstring("EDID", "Sword")}},
                    {Signature("MISC"), 0x801, {Field::zstring("EDID", "Coin")}},
                    {Signature("NPC_"), 0x803, {Field::zstring("EDID", "Guard")}},
                    {Signature("ARMO"), 0x801, {Field::zstring("EDID", "Again")}},
                    {Signature("KYWD"), 0xF00000, {Field::zstring("EDID", "Far")}},
                    {Signature("KYWD"), 0xF00000, {Field::zstring("EDID", "FarAgain")}}};
  TestPlugin a = plugin(Game::SkyrimSE, 0, {"M.esm"});
  a.records = {{Signature("WEAP"), 0x800, {Field::zstring("EDID", "SwordA")}},
               {Signature("LVLI"), 0x01000900, {Field::zstring("EDID", "NewA")}}};
  write_plugin(d / "M.esm", master, 1);
  write_plugin(d / "A.esp", a, 2);
  write_text(d / "plugins.txt", "*M.esm\n*A.esp\n");
  const LoadOrder o = open_dir(d.path());
  const std::uint32_t m = *o.find("M.esm"), pa = *o.find("A.esp");
  EXPECT_EQ(o.record_type(m, 0x800), Signature("WEAP"));
  EXPECT_EQ(o.record_type(m, 0x801), Signature("MISC"));  // the first of the two
  EXPECT_FALSE(o.record_type(m, 0x802).has_value());
  EXPECT_EQ(o.record_type(m, 0x803), Signature("NPC_"));
  EXPECT_EQ(o.record_type(m, 0xF00000), Signature("KYWD"));
  EXPECT_FALSE(o.record_type(m, 0xF00001).has_value());
  EXPECT_FALSE(o.record_type(m, 0x01000800).has_value());
  EXPECT_EQ(o.record_type(pa, 0x800), Signature("WEAP"));  // an override: in the sparse list
  EXPECT_EQ(o.record_type(pa, 0x01000900), Signature("LVLI"));
  EXPECT_FALSE(o.record_type(pa, 0x01000800).has_value());
  // The duplicates, each against the first record with its FormID (entry indices of the index).
  const auto entries = o.file(m).entries();
  const auto dups = o.duplicate_form_ids(m);
  ASSERT_EQ(dups.size(), 2u);
  EXPECT_EQ(entries[dups[0].first].type, Signature("ARMO"));
  EXPECT_EQ(entries[dups[0].second].type, Signature("MISC"));
  EXPECT_EQ(o.bytes(m).editor_id(entries[dups[1].first]), "FarAgain");
  EXPECT_EQ(o.bytes(m).editor_id(entries[dups[1].second]), "Far");
  EXPECT_TRUE(o.duplicate_form_ids(pa).empty());
}

TEST(LoadOrderRecords, FindRecordsWalksWithoutTheFullIndexAndReportsDamageAsItWould) {
  test::TempDir d;
  TestPlugin master = plugin(Game::SkyrimSE, kEsm);
  for (std::uint32_t i = 0; i < 40; ++i)
    master.records.push_back({Signature(i % 2 ? "MISC" : "WEAP"), 0x800 + i, {Field::zstring("EDID", "R" + std::to_string(i))}});
  write_plugin(d / "M.esm", master, 1);
  write_text(d / "plugins.txt", "*M.esm\n");
  const LoadOrder o = open_dir(d.path());
  const std::uint32_t m = *o.find("M.esm");
  std::uint32_t walked_entries = 0;
  const auto odd = o.find_records(m, [](const IndexEntry& e) { return e.id % 3 == 0; }, &walked_entries);
  EXPECT_FALSE(o.is_read(m));  // walked, not indexed
  std::vector<std::uint64_t> want;
  for (const IndexEntry& e : o.file(m).entries().subspan(1))
    if (!e.is_group() && e.id % 3 == 0) want.push_back(e.offset);
  std::vector<std::uint64_t> got;
  for (const IndexEntry& e : odd) got.push_back(e.offset);
  EXPECT_EQ(got, want);  // every one, in file order
  ASSERT_FALSE(odd.empty());
  // Numbered as the full index numbers them.
  EXPECT_EQ(walked_entries, o.file(m).entries().size());
  for (const IndexEntry& e : odd) EXPECT_EQ(o.file(m).entry(e.end - 1).offset, e.offset);
  EXPECT_EQ(o.find_records(m, [](const IndexEntry& e) { return e.id % 3 == 0; }).size(), odd.size());  // from the index

  // A group larger than a share of the file is walked in runs of its children on both threads:
  // the same records, numbered as the full index numbers them.
  {
    test::TempDir b;
    TestPlugin big = plugin(Game::SkyrimSE, kEsm);
    for (std::uint32_t i = 0; i < 3000; ++i)
      big.records.push_back({Signature("MISC"), 0x800 + i,
                             {Field::zstring("EDID", "M" + std::to_string(i)), Field::bytes(Signature("DATA"), std::vector<std::uint8_t>(800, 1))}});
    big.records.push_back({Signature("WEAP"), 0x10000, {Field::zstring("EDID", "W")}});
    write_plugin(b / "Big.esm", big, 1);
    write_text(b / "plugins.txt", "*Big.esm\n");
    const LoadOrder ob = open_dir(b.path());
    const std::uint32_t bp = *ob.find("Big.esm");
    std::uint32_t count = 0;
    const auto some = ob.find_records(bp, [](const IndexEntry& e) { return e.id % 7 == 0 || e.id == 0x10000; }, &count);
    EXPECT_FALSE(ob.is_read(bp));
    const auto entries = ob.file(bp).entries();
    EXPECT_EQ(count, entries.size());
    std::vector<std::uint64_t> expected, walked;
    for (const IndexEntry& e : entries.subspan(1))
      if (!e.is_group() && (e.id % 7 == 0 || e.id == 0x10000)) expected.push_back(e.offset);
    for (const IndexEntry& e : some) {
      walked.push_back(e.offset);
      EXPECT_EQ(entries[e.end - 1].offset, e.offset);
    }
    EXPECT_EQ(walked, expected);
    // Damage in two runs of the split group: the first in file order is reported, as by file().
    std::vector<std::uint8_t> bytes = test::make_plugin(big);
    std::copy_n("a!b?", 4, bytes.begin() + std::ptrdiff_t(entries[2500].offset));
    std::copy_n("c!d?", 4, bytes.begin() + std::ptrdiff_t(entries[1200].offset));
    test::write_file(b / "Big.esm", bytes);
    const LoadOrder damaged = open_dir(b.path());
    const std::uint32_t dp = *damaged.find("Big.esm");
    const std::string walk_error = test::error_message([&] { damaged.find_records(dp, [](const IndexEntry&) { return true; }); });
    const std::string index_error = test::error_message([&] { damaged.file(dp); });
    ASSERT_FALSE(walk_error.empty());
    EXPECT_NE(walk_error.find("c!d?"), std::string::npos) << walk_error;
    EXPECT_EQ(walk_error, index_error);
  }

  // A record header damaged inside a group: the walk fails as the full index does.
  std::vector<std::uint8_t> bytes = test::make_plugin(master);
  const PluginFile f = PluginFile::parse(FileBytes::hold(bytes, "M.esm"));
  const std::uint64_t at = f.entries()[f.entries().size() - 3].offset;
  std::copy_n("a!b?", 4, bytes.begin() + std::ptrdiff_t(at));
  test::write_file(d / "M.esm", bytes);
  const LoadOrder damaged = open_dir(d.path());
  const std::uint32_t dm = *damaged.find("M.esm");
  const std::string walked =
      test::error_message([&] { damaged.find_records(dm, [](const IndexEntry&) { return false; }); });
  ASSERT_FALSE(walked.empty());
  EXPECT_EQ(walked, test::error_message([&] { damaged.file(dm); }));
}

}  // namespace
}  // namespace tesmod::loadorder
