// Oblivion Remastered's load order: Oblivion's plugins, ordered by Plugins.txt alone (no file
// times, no ESM flag, no hoisting), nothing active unless listed; found from --game
// oblivionremastered or a Data folder ending in ObvData/Data; and its GVAS saves named as what they
// are. The library on folders made for it, then the CLI (load-order, conflicts, check, clean,
// patch, save info).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "load_order_queries.hpp"
#include "order_rules.hpp"
#include "plugin_maker.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/plugin/file_kind.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "test_support.hpp"

namespace tesmod::loadorder {
namespace {

namespace fs = std::filesystem;
using test::run_cli;
using test::active_names;
using test::has_problem;
using test::names;
using test::TestPlugin;
using test::TestRecord;
using test::write_plugin;
using test::write_text;

constexpr std::uint32_t kEsm = record_flags::kMaster;

TestPlugin oblivion(std::uint32_t flags = 0, std::vector<std::string> masters = {}, std::vector<TestRecord> records = {}) {
  TestPlugin p;
  p.game = Game::Oblivion;
  p.header_flags = flags;
  p.masters = std::move(masters);
  p.records = std::move(records);
  return p;
}

// A misc item: EDID and DATA (value, weight), as Oblivion stores one.
TestRecord misc(std::uint32_t id, std::string_view edid, std::uint32_t value) {
  std::vector<std::uint8_t> data(8, 0);
  for (int k = 0; k < 4; ++k) data[std::size_t(k)] = std::uint8_t(value >> (8 * k));
  return {Signature("MISC"), id, {Field::zstring("EDID", edid), Field::bytes(Signature("DATA"), data)}};
}

std::string all_problems(const LoadOrder& o) {
  std::string out;
  for (const Problem& p : o.problems()) out += p.file + ": " + p.message + "\n";
  return out;
}

// The game's Data folder, as it is installed: <game>/OblivionRemastered/Content/Dev/ObvData/Data.
fs::path data_folder(const test::TempDir& d) {
  const fs::path data = d.path() / "Oblivion Remastered" / "OblivionRemastered" / "Content" / "Dev" / "ObvData" / "Data";
  fs::create_directories(data);
  return data;
}

LoadOrder open_dir(const fs::path& dir, std::optional<OrderRules> rules = {}, std::optional<Game> game = {}) {
  LoadOrderSource s;
  s.data = dir;
  s.rules = rules;
  s.game = game;
  s.threads = 2;
  return LoadOrder::open(s);
}

// Oblivion.esm, Late.esm (ESM-flagged, the oldest file) listed after the plugins, Mod.esp (needs
// Oblivion.esm), DLCShiveringIsles.esp: the file times and the ESM flags say another order than
// the list.
void write_standard(const fs::path& data) {
  write_plugin(data / "Oblivion.esm", oblivion(kEsm), 5000);
  write_plugin(data / "Late.esm", oblivion(kEsm), 100);
  write_plugin(data / "Mod.esp", oblivion(0, {"Oblivion.esm"}), 3000);
  write_plugin(data / "DLCShiveringIsles.esp", oblivion(0, {"Oblivion.esm"}), 200);
  write_text(data / "Plugins.txt", "Oblivion.esm\r\nMod.esp\r\n# a comment\r\n\r\nDLCShiveringIsles.esp\r\nLate.esm\r\n");
}

TEST(LoadOrderOblivionRemastered, OrderIsThePluginsTxtOrderNotTimesNorMasterFlags) {
  test::TempDir d;
  const fs::path data = data_folder(d);
  write_standard(data);
  const LoadOrder o = open_dir(data);
  EXPECT_EQ(o.rules(), OrderRules::OblivionRemastered);
  EXPECT_EQ(o.game(), Game::Oblivion);  // the plugins' format
  EXPECT_EQ(o.game_id(), "oblivionremastered");
  EXPECT_EQ(o.game_title(), "Oblivion Remastered");
  EXPECT_EQ(names(o), (std::vector<std::string>{"Oblivion.esm", "Mod.esp", "DLCShiveringIsles.esp", "Late.esm"}));
  EXPECT_EQ(active_names(o), names(o));
  std::vector<std::string> indices;
  for (const LoadOrderPlugin& p : o.plugins()) {
    indices.push_back(p.index ? p.index->text() : "-");
    EXPECT_FALSE(p.master) << p.name;  // no plugin loads as a master in this game
    EXPECT_FALSE(p.light) << p.name;
  }
  EXPECT_EQ(indices, (std::vector<std::string>{"00", "01", "02", "03"}));
  EXPECT_TRUE(o.problems().empty()) << all_problems(o);

  // The same folder read as Oblivion's: file times, masters first.
  const LoadOrder classic = open_dir(data, {}, Game::Oblivion);
  EXPECT_EQ(classic.rules(), OrderRules::Format);
  EXPECT_EQ(names(classic), (std::vector<std::string>{"Late.esm", "Oblivion.esm", "DLCShiveringIsles.esp", "Mod.esp"}));
}

TEST(LoadOrderOblivionRemastered, OblivionEsmMissingFromTheListOrTheFolderIsAProblem) {
  {
    test::TempDir d;
    write_plugin(d / "Oblivion.esm", oblivion(kEsm), 1000);
    write_plugin(d / "Mod.esp", oblivion(0, {"Oblivion.esm"}), 2000);
    write_text(d / "Plugins.txt", "Mod.esp\n");
    const LoadOrder o = open_dir(d.path(), OrderRules::OblivionRemastered);
    EXPECT_EQ(active_names(o), (std::vector<std::string>{"Mod.esp"}));  // Oblivion.esm is not implicitly active
    EXPECT_EQ(names(o), (std::vector<std::string>{"Mod.esp", "Oblivion.esm"}));
    EXPECT_TRUE(has_problem(o, "Plugins.txt", "does not list Oblivion.esm")) << all_problems(o);
    EXPECT_TRUE(has_problem(o, "Mod.esp", "needs the master 'Oblivion.esm', which is not active")) << all_problems(o);
  }
  {
    test::TempDir d;  // neither in the folder nor listed
    write_plugin(d / "Mod.esp", oblivion(), 2000);
    write_text(d / "Plugins.txt", "Mod.esp\n");
    const LoadOrder o = open_dir(d.path(), OrderRules::OblivionRemastered);
    EXPECT_TRUE(has_problem(o, "Oblivion.esm", "is not in the data folder, nor listed in Plugins.txt")) << all_problems(o);
  }
  {
    test::TempDir d;  // listed, not in the folder: the line says so
    write_plugin(d / "Mod.esp", oblivion(), 2000);
    write_text(d / "Plugins.txt", "Oblivion.esm\nMod.esp\n");
    const LoadOrder o = open_dir(d.path(), OrderRules::OblivionRemastered);
    EXPECT_TRUE(has_problem(o, "Plugins.txt", "line 1: active plugin 'Oblivion.esm' is not in the data folder"))
        << all_problems(o);
  }
  {
    test::TempDir d;  // no Plugins.txt at all: nothing is active
    write_plugin(d / "Oblivion.esm", oblivion(kEsm), 1000);
    const LoadOrder o = open_dir(d.path(), OrderRules::OblivionRemastered);
    EXPECT_TRUE(o.active().empty());
    EXPECT_TRUE(has_problem(o, "Plugins.txt", "no plugin is active")) << all_problems(o);
    EXPECT_TRUE(has_problem(o, "Oblivion.esm", "there is no Plugins.txt to list it")) << all_problems(o);
  }
}

TEST(LoadOrderOblivionRemastered, UnlistedPluginsAreInactiveAfterTheListedByTimeTiesZToA) {
  test::TempDir d;
  write_plugin(d / "Oblivion.esm", oblivion(kEsm), 9000);
  write_plugin(d / "Listed.esp", oblivion(0, {"Oblivion.esm"}), 8000);
  write_plugin(d / "Old.esm", oblivion(kEsm), 100);  // ESM-flagged: still inactive, still after the listed
  write_plugin(d / "b.esp", oblivion(), 500);
  write_plugin(d / "A.esp", oblivion(), 500);  // same time as b.esp: by name, Z to A, as libloadorder
  write_plugin(d / "New.esp", oblivion(), 700);
  write_text(d / "Plugins.txt", "Oblivion.esm\nListed.esp\n");
  const LoadOrder o = open_dir(d.path(), OrderRules::OblivionRemastered);
  EXPECT_EQ(names(o), (std::vector<std::string>{"Oblivion.esm", "Listed.esp", "Old.esm", "b.esp", "A.esp", "New.esp"}));
  EXPECT_EQ(active_names(o), (std::vector<std::string>{"Oblivion.esm", "Listed.esp"}));
  for (const LoadOrderPlugin& p : o.plugins())
    if (p.name != "Oblivion.esm" && p.name != "Listed.esp") {
      EXPECT_FALSE(p.active) << p.name;
      EXPECT_FALSE(p.index) << p.name;
    }
}

TEST(LoadOrderOblivionRemastered, AsteriskLinesNameNoPluginAndGhostsCount) {
  test::TempDir d;
  write_plugin(d / "Oblivion.esm", oblivion(kEsm), 1000);
  write_plugin(d / "Starred.esp", oblivion(), 2000);
  write_plugin(d / "Ghosted.esp.ghost", oblivion(), 3000);
  write_text(d / "plugins.txt", "oblivion.esm\n*Starred.esp\nghosted.esp\n");  // names in any case
  const LoadOrder o = open_dir(d.path(), OrderRules::OblivionRemastered);
  EXPECT_EQ(active_names(o), (std::vector<std::string>{"Oblivion.esm", "Ghosted.esp"}));
  EXPECT_TRUE(has_problem(o, "plugins.txt", "line 2: '*Starred.esp': Oblivion Remastered's Plugins.txt has no '*'"))
      << all_problems(o);
  const auto ghost = o.find("Ghosted.esp");
  ASSERT_TRUE(ghost);
  EXPECT_TRUE(o.plugin(*ghost).ghosted);
}

TEST(LoadOrderOblivionRemastered, MastersAfterTheirDependentsAreReportedNotMoved) {
  test::TempDir d;
  write_plugin(d / "Oblivion.esm", oblivion(kEsm), 1000);
  write_plugin(d / "Patch.esp", oblivion(0, {"Oblivion.esm", "Base.esp"}), 2000);
  write_plugin(d / "Base.esp", oblivion(0, {"Oblivion.esm"}), 3000);
  write_text(d / "Plugins.txt", "Oblivion.esm\nPatch.esp\nBase.esp\n");
  const LoadOrder o = open_dir(d.path(), OrderRules::OblivionRemastered);
  EXPECT_EQ(names(o), (std::vector<std::string>{"Oblivion.esm", "Patch.esp", "Base.esp"}));
  EXPECT_TRUE(has_problem(o, "Base.esp", "is a master of 'Patch.esp' but loads after it: left there")) << all_problems(o);
}

TEST(LoadOrderOblivionRemastered, LoadOrderTxtBesidePluginsTxtGivesTheOrderAsInLibloadorder) {
  test::TempDir d;
  write_plugin(d / "Oblivion.esm", oblivion(kEsm), 1000);
  write_plugin(d / "A.esp", oblivion(), 2000);
  write_plugin(d / "B.esp", oblivion(), 3000);
  write_plugin(d / "Off.esp", oblivion(), 4000);
  write_text(d / "Plugins.txt", "Oblivion.esm\nA.esp\nB.esp\n");
  write_text(d / "loadorder.txt", "Oblivion.esm\nOff.esp\nA.esp\nB.esp\n");
  const LoadOrder o = open_dir(d.path(), OrderRules::OblivionRemastered);
  EXPECT_EQ(names(o), (std::vector<std::string>{"Oblivion.esm", "Off.esp", "A.esp", "B.esp"}));
  EXPECT_EQ(active_names(o), (std::vector<std::string>{"Oblivion.esm", "A.esp", "B.esp"}));
  EXPECT_TRUE(o.problems().empty()) << all_problems(o);
}

TEST(LoadOrderOblivionRemastered, DetectedFromTheDataFolderPath) {
  EXPECT_TRUE(detail::is_oblivion_remastered_data("/games/OR/OblivionRemastered/Content/Dev/ObvData/Data"));
  EXPECT_TRUE(detail::is_oblivion_remastered_data("/games/OR/OblivionRemastered/Content/Dev/obvdata/DATA/"));
  EXPECT_FALSE(detail::is_oblivion_remastered_data("/games/Oblivion/Data"));
  EXPECT_FALSE(detail::is_oblivion_remastered_data("/games/ObvData/Data/Sub"));

  test::TempDir d;
  const fs::path data = data_folder(d);
  write_standard(data);
  EXPECT_EQ(open_dir(data).rules(), OrderRules::OblivionRemastered);
  // A relative path that ends there too.
  const fs::path cwd = fs::current_path();
  fs::current_path(data.parent_path());
  const LoadOrder relative = open_dir("Data");
  fs::current_path(data);
  const LoadOrder dot = open_dir(".");
  fs::current_path(cwd);
  EXPECT_EQ(relative.rules(), OrderRules::OblivionRemastered);
  EXPECT_EQ(dot.rules(), OrderRules::OblivionRemastered);
  // A game given says otherwise; another folder is Oblivion's.
  EXPECT_EQ(open_dir(data, {}, Game::Oblivion).rules(), OrderRules::Format);
  test::TempDir other;
  write_standard(other.path());
  EXPECT_EQ(open_dir(other.path()).rules(), OrderRules::Format);
  EXPECT_EQ(open_dir(other.path()).game_id(), "oblivion");
  // Plugin files named from that folder: their order, no ESM flag moves them.
  LoadOrderSource files;
  files.files = {data / "Mod.esp", data / "Late.esm", data / "Oblivion.esm"};
  const LoadOrder named = LoadOrder::open(files);
  EXPECT_EQ(named.rules(), OrderRules::OblivionRemastered);
  EXPECT_EQ(names(named), (std::vector<std::string>{"Mod.esp", "Late.esm", "Oblivion.esm"}));
  EXPECT_TRUE(has_problem(named, "Oblivion.esm", "is a master of 'Mod.esp' but loads after it")) << all_problems(named);
}

TEST(LoadOrderOblivionRemastered, SelectGameAndAGameThatDoesNotFit) {
  LoadOrderSource s;
  EXPECT_TRUE(select_game(s, "oblivionremastered"));
  EXPECT_EQ(s.game, Game::Oblivion);
  EXPECT_EQ(s.rules, OrderRules::OblivionRemastered);
  EXPECT_TRUE(select_game(s, "skyrimse"));
  EXPECT_EQ(s.game, Game::SkyrimSE);
  EXPECT_EQ(s.rules, OrderRules::Format);
  EXPECT_FALSE(select_game(s, "oblivion-remastered"));
  EXPECT_NE(kGameIds.find("oblivionremastered"), std::string_view::npos);

  test::TempDir d;
  write_standard(d.path());
  LoadOrderSource bad;
  bad.data = d.path();
  bad.game = Game::SkyrimSE;
  bad.rules = OrderRules::OblivionRemastered;
  EXPECT_NE(test::error_message([&] { LoadOrder::open(bad); }).find("Oblivion Remastered reads Oblivion's plugins"),
            std::string::npos);
}

TEST(LoadOrderOblivionRemastered, GvasSavesAreNamed) {
  const std::vector<std::uint8_t> gvas = {'G', 'V', 'A', 'S', 3, 0, 0, 0};
  EXPECT_EQ(file_kind(gvas), FileKind::UnrealSave);
  EXPECT_EQ(file_kind_text(FileKind::UnrealSave), "an Oblivion Remastered (Unreal GVAS) save");
  test::TempDir d;
  test::write_file(d / "Slot1.sav", gvas);
  // Opened as a plugin, it is named too.
  EXPECT_NE(test::error_message([&] { PluginFile::open(d / "Slot1.sav", OpenOptions{}); })
                .find("this is an Oblivion Remastered (Unreal GVAS) save, not a plugin"),
            std::string::npos);
}

// ---- the CLI ------------------------------------------------------------------------------

// Oblivion.esm defines a coin; A.esp changes it; Late.esm (ESM-flagged) changes it again and is
// listed last: in Oblivion Remastered it wins (in Oblivion it would load before A.esp and lose).
struct CliFolder {
  test::TempDir dir;
  fs::path data;
  CliFolder() {
    data = dir.path() / "Data";
    fs::create_directories(data);
    write_plugin(data / "Oblivion.esm", oblivion(kEsm, {}, {misc(0x800, "Coin", 1), misc(0x801, "Gem", 1)}), 3000);
    write_plugin(data / "A.esp", oblivion(0, {"Oblivion.esm"}, {misc(0x800, "Coin", 2)}), 2000);
    write_plugin(data / "Late.esm", oblivion(kEsm, {"Oblivion.esm"}, {misc(0x800, "Coin", 3), misc(0x801, "Gem", 1)}),
                 1000);
    write_plugin(data / "Unlisted.esp", oblivion(0, {"Oblivion.esm"}, {misc(0x800, "Coin", 4)}), 4000);
    write_text(data / "Plugins.txt", "Oblivion.esm\nA.esp\nLate.esm\n");
  }
  std::string str() const { return data.string(); }
};

TEST(LoadOrderCliOblivionRemastered, LoadOrderJsonAndText) {
  CliFolder f;
  const auto r = run_cli({"load-order", "--data", f.str(), "--game", "oblivionremastered", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["game"], "oblivionremastered");
  std::vector<std::string> plugins, indices;
  for (const auto& p : j["plugins"]) {
    plugins.push_back(p["name"]);
    indices.push_back(p["index"].is_null() ? "-" : std::string(p["index"]));
    EXPECT_EQ(p["master"], false);
  }
  EXPECT_EQ(plugins, (std::vector<std::string>{"Oblivion.esm", "A.esp", "Late.esm", "Unlisted.esp"}));
  EXPECT_EQ(indices, (std::vector<std::string>{"00", "01", "02", "-"}));
  EXPECT_TRUE(j["problems"].empty()) << r.out;

  const auto t = run_cli({"load-order", "--data", f.str(), "--game", "oblivionremastered"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("Oblivion Remastered load order: 4 plugins, 3 active"), std::string::npos) << t.out;
  // Without --game this folder (not named ObvData/Data) is Oblivion's.
  const auto classic = nlohmann::json::parse(run_cli({"load-order", "--data", f.str(), "--json"}).out);
  EXPECT_EQ(classic["game"], "oblivion");
}

TEST(LoadOrderCliOblivionRemastered, ConflictsJsonFollowTheListedOrder) {
  CliFolder f;
  const auto r = run_cli({"conflicts", "--data", f.str(), "--game", "oblivionremastered", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["load_order"], (nlohmann::json{"Oblivion.esm", "A.esp", "Late.esm"}));
  ASSERT_FALSE(j["records"].empty()) << r.out;
  const auto& coin = j["records"][0];
  EXPECT_EQ(coin["form_id"], "00000800");
  EXPECT_EQ(coin["versions"], (nlohmann::json{"Oblivion.esm", "A.esp", "Late.esm"}));
  EXPECT_EQ(coin["winner"], "Late.esm");
  EXPECT_EQ(coin["states"], (nlohmann::json{"master", "loses", "wins"}));
}

TEST(LoadOrderCliOblivionRemastered, CheckCleanAndPatchReadTheSameOrder) {
  CliFolder f;
  // Detected from the path: the same plugins in a folder ending in ObvData/Data.
  test::TempDir d;
  const fs::path data = data_folder(d);
  for (const char* name : {"Oblivion.esm", "A.esp", "Late.esm", "Unlisted.esp", "Plugins.txt"})
    fs::copy_file(f.data / name, data / name);
  const auto check = run_cli({"check", "--data", data.string(), "--json"});
  ASSERT_NE(check.exit_code, 2) << check.err;
  const auto c = nlohmann::json::parse(check.out);
  EXPECT_EQ(c["checked"], (nlohmann::json{"Oblivion.esm", "A.esp", "Late.esm"}));

  const auto clean = run_cli({"clean", "--all", "--dry-run", "--data", data.string(), "--json"});
  ASSERT_NE(clean.exit_code, 2) << clean.err;
  std::vector<std::string> cleaned;
  for (const auto& p : nlohmann::json::parse(clean.out)) cleaned.push_back(p["plugin"]);
  EXPECT_EQ(cleaned, (std::vector<std::string>{"Oblivion.esm", "A.esp", "Late.esm"}));
  // Late.esm's Gem equals Oblivion.esm's: an ITM against its master.
  const auto one = run_cli({"clean", (data / "Late.esm").string(), "--dry-run", "--json"});
  EXPECT_EQ(one.exit_code, 1) << one.err;
  EXPECT_EQ(nlohmann::json::parse(one.out)["itm"], (nlohmann::json{"00000801"})) << one.out;

  const auto patch = run_cli({"patch", "--data", data.string(), "--dry-run", "--json"});
  ASSERT_EQ(patch.exit_code, 0) << patch.err;
  const auto p = nlohmann::json::parse(patch.out);
  EXPECT_EQ(p["game"], "oblivionremastered");
  EXPECT_EQ(p["sources"], (nlohmann::json{"Oblivion.esm", "A.esp", "Late.esm"}));
}

TEST(LoadOrderCliOblivionRemastered, BadGameNamesTheNewId) {
  CliFolder f;
  const auto r = run_cli({"load-order", "--data", f.str(), "--game", "oblivionre"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("expected oblivion, skyrim, skyrimse or oblivionremastered, not 'oblivionre'"), std::string::npos)
      << r.err;
  const auto help = run_cli({"load-order", "--help"});
  EXPECT_NE(help.out.find("oblivionremastered"), std::string::npos);
}

TEST(LoadOrderCliOblivionRemastered, SaveInfoOnAGvasSaveSaysWhatItIs) {
  test::TempDir d;
  const fs::path save = d / "Slot1.sav";
  test::write_file(save, {'G', 'V', 'A', 'S', 3, 0, 0, 0, 0x0D, 0x02, 0, 0});
  const auto r = run_cli({"save", "info", save.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(save.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Oblivion Remastered (Unreal GVAS) save"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tesmod does not read"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tesmod::loadorder
