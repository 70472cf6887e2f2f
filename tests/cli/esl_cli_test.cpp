// `tesmod esl check`'s contract: the text blocks and summary, the JSON keys, the exit codes (1 for
// a light plugin that is not valid, 2 for a load order of another game), plugins named within a
// data folder and plugin files named without one.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "plugin_maker.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "test_support.hpp"

namespace tesmod {
namespace {

using test::run_cli;
using test::TestPlugin;
using test::TestRecord;

TestRecord misc(std::uint32_t id) { return {Signature("MISC"), id, {Field::zstring("EDID", "Item")}}; }

// Skyrim.esm; Ok.esp (light_ok); Low.esp (light_ok_hedr171) with its dependant Dep.esp;
// Past.esp (needs_compaction: 01001000 and 01002000); Light.esp (light, valid) unless told.
struct Folder {
  test::TempDir dir;
  explicit Folder(bool invalid_light = false) {
    test::write_plugin(dir / "Skyrim.esm", test::skyrim_se_plugin({}, {misc(0x800)}, 1.7f, record_flags::kMaster), 1);
    test::write_plugin(dir / "Ok.esp", test::skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000800), misc(0x01000801)}), 2);
    test::write_plugin(dir / "Low.esp", test::skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000010), misc(0x01000800)}), 3);
    test::write_plugin(dir / "Dep.esp", test::skyrim_se_plugin({"Skyrim.esm", "Low.esp"}, {misc(0x00000800)}), 4);
    test::write_plugin(dir / "Past.esp", test::skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000800), misc(0x01001000), misc(0x01002000)}),
                       5);
    test::write_plugin(
        dir / "Light.esp",
        test::skyrim_se_plugin({"Skyrim.esm"}, {misc(invalid_light ? 0x01001234 : 0x01000900)}, 1.7f, record_flags::kLight), 6);
    test::write_text(dir / "plugins.txt", "*Skyrim.esm\n*Ok.esp\n*Low.esp\n*Dep.esp\n*Past.esp\n*Light.esp\n");
  }
  std::string data() const { return dir.path().string(); }
};

TEST(EslCli, TextBlocksAndSummary) {
  Folder f;
  const auto r = run_cli({"esl", "check", "--data", f.data()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Ok.esp: light_ok (2 new records in 800-FFF)\n  HEDR 1.70, first master Skyrim.esm\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Low.esp: light_ok_hedr171 (2 new records in 000-FFF, 1 below 800)\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  dependants: Dep.esp (HEDR 1.70, needs 1.71)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  other xEdit: \"Can be turned into ESL by adding ESL flag in TES4 header\""),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Past.esp: needs_compaction (3 new records, 2 outside 800-FFF)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  out of range: 01001000 01002000\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Light.esp: light_ok (1 new record in 800-FFF; light already)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("summary: 6 plugins: 4 light_ok, 1 light_ok_hedr171, 1 needs_compaction, 0 too_many_records; "
                       "1 light already, 0 invalid\n"),
            std::string::npos)
      << r.out;
}

TEST(EslCli, Json) {
  Folder f;
  const auto r = run_cli({"esl", "check", "--data", f.data(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["game"], "skyrimse");
  ASSERT_EQ(j["plugins"].size(), 6u);
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& p : j["plugins"]) {
    for (const char* key : {"name", "verdict", "new_records", "out_of_range", "hedr", "dependants", "warnings"})
      EXPECT_TRUE(p.contains(key)) << key;
    by_name[p["name"]] = p;
  }
  EXPECT_EQ(j["plugins"][0]["name"], "Skyrim.esm");
  const auto& past = by_name["Past.esp"];
  EXPECT_EQ(past["verdict"], "needs_compaction");
  EXPECT_EQ(past["new_records"], 3);
  EXPECT_EQ(past["out_of_range"], nlohmann::json::parse(R"(["01001000", "01002000"])"));
  EXPECT_EQ(past["hedr"], "1.70");
  EXPECT_EQ(past["range"], "800-FFF");
  const auto& low = by_name["Low.esp"];
  EXPECT_EQ(low["verdict"], "light_ok_hedr171");
  EXPECT_EQ(low["game_master_first"], true);
  ASSERT_EQ(low["dependants"].size(), 1u);
  EXPECT_EQ(low["dependants"][0], nlohmann::json::parse(R"({"name": "Dep.esp", "hedr": "1.70", "needs_171": true,
                                                            "first_master": false})"));
  std::vector<std::string> tools;
  for (const auto& o : low["others"]) tools.push_back(o["tool"]);
  EXPECT_EQ(tools, (std::vector<std::string>{"Wrye Bash", "xEdit"}));
  EXPECT_EQ(by_name["Light.esp"]["light"], true);
  EXPECT_EQ(by_name["Light.esp"]["valid_light"], true);
  EXPECT_EQ(by_name["Ok.esp"]["valid_light"], nullptr);
  EXPECT_EQ(j["summary"]["light_ok"], 4);
  EXPECT_EQ(j["summary"]["invalid_light"], 0);
  // The same input, the same bytes.
  EXPECT_EQ(run_cli({"esl", "check", "--data", f.data(), "--json"}).out, r.out);
}

TEST(EslCli, AnInvalidLightPluginExitsOne) {
  Folder f(true);
  const auto r = run_cli({"esl", "check", "--data", f.data()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("Light.esp: needs_compaction (1 new record, 1 outside 800-FFF; light already, NOT VALID)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  warning already_light_invalid: This plugin contains records that have FormIDs outside the "
                       "valid range for an ESL plugin. Using this plugin will cause irreversible damage to your game "
                       "saves."),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1 light already, 1 invalid\n"), std::string::npos) << r.out;
  const auto j = run_cli({"esl", "check", "--data", f.data(), "--json"});
  EXPECT_EQ(j.exit_code, 1);
  EXPECT_EQ(nlohmann::json::parse(j.out)["summary"]["invalid_light"], 1);
}

TEST(EslCli, NamedPluginsWithinTheDataFolderAndPluginFilesWithoutOne) {
  Folder f;
  auto r = run_cli({"esl", "check", "--data", f.data(), "Past.esp", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["plugins"].size(), 1u);
  EXPECT_EQ(j["plugins"][0]["name"], "Past.esp");

  r = run_cli({"esl", "check", "--data", f.data(), "Nowhere.esp"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'Nowhere.esp' is not in the load order"), std::string::npos) << r.err;

  // Without --data, the files are the order; their master is read from beside them, not checked.
  r = run_cli({"esl", "check", (f.dir / "Low.esp").string(), (f.dir / "Dep.esp").string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["plugins"].size(), 2u);
  EXPECT_EQ(j["plugins"][0]["name"], "Low.esp");
  EXPECT_EQ(j["plugins"][0]["verdict"], "light_ok_hedr171");
  EXPECT_EQ(j["plugins"][1]["name"], "Dep.esp");
}

TEST(EslCli, ALoadOrderOfAnotherGameIsAUsageError) {
  test::TempDir dir;
  TestPlugin master = test::skyrim_se_plugin({}, {misc(0x800)}, 1.0f, record_flags::kMaster);
  master.game = Game::Oblivion;
  test::write_plugin(dir / "Oblivion.esm", master, 1);
  test::write_text(dir / "plugins.txt", "Oblivion.esm\n");
  auto r = run_cli({"esl", "check", "--data", dir.path().string()});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("esl check: only Skyrim SE load orders have light (ESL) plugins; this one is Oblivion"),
            std::string::npos)
      << r.err;
  Folder f;
  r = run_cli({"esl", "check", "--data", f.data(), "--game", "skyrim"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("this one is Skyrim LE"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tesmod
