// The load-order commands' contract: JSON shapes, exit codes, usage errors, and bad input (a bad
// plugins.txt line, a damaged plugin in the middle of the order) reported by name while the
// other plugins are still read.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>

#include "plugin_maker.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "test_support.hpp"

namespace tesmod {
namespace {

using test::run_cli;
using test::TestPlugin;

TestPlugin make(std::vector<std::string> masters, std::vector<test::TestRecord> records, std::uint32_t flags = 0) {
  TestPlugin p;
  p.masters = std::move(masters);
  p.records = std::move(records);
  p.header_flags = flags;
  return p;
}

test::TestRecord misc(std::uint32_t id, std::string_view edid, std::uint32_t value) {
  // DATA: the value, then the weight (0.0), as the game stores a misc item's.
  std::vector<std::uint8_t> data(8, 0);
  for (int k = 0; k < 4; ++k) data[std::size_t(k)] = std::uint8_t(value >> (8 * k));
  return {Signature("MISC"), id, {Field::zstring("EDID", edid), Field::bytes(Signature("DATA"), data)}};
}

// Master.esm, A.esp (changes the coin), Broken.esp (its records do not read), B.esp (changes it
// again), and a plugins.txt with a bad line.
struct Folder {
  test::TempDir dir;
  Folder() {
    test::write_plugin(dir / "Master.esm", make({}, {misc(0x800, "Coin", 1), misc(0x801, "Gem", 1)},
                                                record_flags::kMaster), 1);
    test::write_plugin(dir / "A.esp", make({"Master.esm"}, {misc(0x800, "Coin", 2), misc(0x801, "Gem", 1)}), 2);
    std::vector<std::uint8_t> broken = test::make_plugin(make({"Master.esm"}, {misc(0x800, "Coin", 9)}));
    broken[broken.size() - 46 + 4] = 200;  // the record's size runs past its group
    test::write_file(dir / "Broken.esp", broken);
    test::set_mtime(dir / "Broken.esp", 3);
    test::write_plugin(dir / "B.esp", make({"Master.esm"}, {misc(0x800, "Coin", 3)}), 4);
    test::write_text(dir / "plugins.txt", "*Master.esm\n*A.esp\n*Bad\x81.esp\n*Broken.esp\n*B.esp\n");
  }
  std::string data() const { return dir.path().string(); }
};

TEST(LoadOrderCli, LoadOrderJson) {
  Folder f;
  const auto r = run_cli({"load-order", "--data", f.data(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["game"], "skyrimse");
  std::vector<std::string> names, indices;
  for (const auto& p : j["plugins"]) {
    names.push_back(p["name"]);
    indices.push_back(p["index"].is_null() ? "-" : std::string(p["index"]));
    EXPECT_TRUE(p.contains("active") && p.contains("master") && p.contains("light") && p.contains("masters"));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"Master.esm", "A.esp", "Broken.esp", "B.esp"}));
  EXPECT_EQ(indices, (std::vector<std::string>{"00", "01", "02", "03"}));  // Broken.esp's header reads
  std::string problems;
  for (const auto& p : j["problems"]) problems += std::string(p["file"]) + ": " + std::string(p["message"]) + "\n";
  EXPECT_NE(problems.find("plugins.txt: line 3 (offset 19): line left out: byte 0x81 at offset 23"), std::string::npos)
      << problems;
}

TEST(LoadOrderCli, ConflictsReportTheDamagedPluginAndCompareTheOthers) {
  Folder f;
  const auto r = run_cli({"conflicts", "--data", f.data(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["load_order"], (nlohmann::json{"Master.esm", "A.esp", "Broken.esp", "B.esp"}));
  ASSERT_EQ(j["records"].size(), 2u);
  const auto& coin = j["records"][0];
  EXPECT_EQ(coin["form_id"], "00000800");
  EXPECT_EQ(coin["editor_id"], "Coin");
  EXPECT_EQ(coin["versions"], (nlohmann::json{"Master.esm", "A.esp", "B.esp"}));
  EXPECT_EQ(coin["states"], (nlohmann::json{"master", "loses", "wins"}));
  EXPECT_EQ(coin["category"], "conflict");
  ASSERT_EQ(coin["fields"].size(), 1u);
  EXPECT_EQ(coin["fields"][0]["field"], "DATA");
  EXPECT_EQ(j["records"][1]["category"], "no_conflict");
  bool named = false;
  for (const auto& p : j["problems"])
    named = named || (p["file"] == "Broken.esp" && std::string(p["message"]).find("offset") != std::string::npos);
  EXPECT_TRUE(named) << r.out;
  // Text: the record, its versions, a table of the differing field.
  const auto t = run_cli({"conflicts", "--data", f.data(), "--only", "conflict"});
  ASSERT_EQ(t.exit_code, 0);
  EXPECT_NE(t.out.find("MISC 00000800 Coin [Master.esm]: conflict"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("versions: Master.esm (master) A.esp (loses) B.esp (wins)"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("1 records: 1 conflict, 0 override, 0 no_conflict"), std::string::npos) << t.out;
  EXPECT_NE(t.err.find("Broken.esp"), std::string::npos);
}

TEST(LoadOrderCli, ConflictTextFallsBackToAListWhereColumnsDoNotFit) {
  Folder f;
  ::setenv("COLUMNS", "200", 1);
  const auto wide = run_cli({"conflicts", "--data", f.data(), "--only", "conflict"});
  ::setenv("COLUMNS", "30", 1);
  const auto narrow = run_cli({"conflicts", "--data", f.data(), "--only", "conflict"});
  ::unsetenv("COLUMNS");
  EXPECT_NE(wide.out.find("  field  Master.esm"), std::string::npos) << wide.out;
  EXPECT_EQ(narrow.out.find("  field  Master.esm"), std::string::npos) << narrow.out;
  EXPECT_NE(narrow.out.find("  DATA\n    Master.esm: "), std::string::npos) << narrow.out;
  EXPECT_NE(narrow.out.find("    B.esp: "), std::string::npos) << narrow.out;
}

TEST(LoadOrderCli, CheckExitsOneAndNamesEachProblem) {
  Folder f;
  const auto r = run_cli({"check", "--data", f.data()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("Broken.esp: "), std::string::npos) << r.out;
  const auto ok = run_cli({"check", "--data", f.data(), "A.esp", "B.esp"});
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
  EXPECT_NE(ok.out.find("0 problems in 2 plugins"), std::string::npos) << ok.out;
  const auto j = nlohmann::json::parse(run_cli({"check", "--data", f.data(), "--json"}).out);
  EXPECT_EQ(j["checked"], (nlohmann::json{"Master.esm", "A.esp", "Broken.esp", "B.esp"}));
  ASSERT_FALSE(j["problems"].empty());
  EXPECT_EQ(j["problems"][0]["check"], "unreadable");
}

TEST(LoadOrderCli, UsageErrors) {
  Folder f;
  EXPECT_EQ(run_cli({"load-order", "--data", f.data(), "--game", "morrowind"}).exit_code, 2);
  EXPECT_EQ(run_cli({"conflicts", "--data", f.data(), "--only", "maybe"}).exit_code, 2);
  EXPECT_EQ(run_cli({"conflicts", "--data", f.data(), "--type", "TOOLONG"}).exit_code, 2);
  EXPECT_EQ(run_cli({"conflicts", "--data", f.data(), "--plugin", "Nope.esp"}).exit_code, 2);
  EXPECT_EQ(run_cli({"check", "--data", f.data(), "Nope.esp"}).exit_code, 2);
  const auto missing = run_cli({"load-order", "--data", (f.dir / "nothing").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("nothing: not a folder"), std::string::npos) << missing.err;
}

TEST(LoadOrderCli, PluginFilesNamedInOrder) {
  Folder f;
  const auto r = run_cli({"load-order", "--json", (f.dir / "B.esp").string(), (f.dir / "A.esp").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (const auto& p : j["plugins"]) names.push_back(p["name"]);
  // Master.esm, not named, is read from beside them and loads first.
  EXPECT_EQ(names, (std::vector<std::string>{"Master.esm", "B.esp", "A.esp"}));
}

}  // namespace
}  // namespace tesmod
