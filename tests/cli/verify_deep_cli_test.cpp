// `tesmod verify --deep` over real files of each kind: the typed-field checks are reported per
// file and in the totals, and a damaged field makes the check fail and the exit code 1.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace tesmod::test;
namespace fs = std::filesystem;

namespace {

fs::path first_in(const std::string& folder, const std::string& extension) {
  std::vector<fs::path> found;
  for (const auto& e : fs::recursive_directory_iterator(corpus_dir() / folder))
    if (e.is_regular_file() && e.path().extension() == extension) found.push_back(e.path());
  std::sort(found.begin(), found.end());
  return found.empty() ? fs::path() : found.front();
}

// verify --deep --json on one file, which must pass.
nlohmann::json deep_json(const fs::path& file) {
  const CommandResult r = run_cli({"verify", "--deep", "--json", file.string()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST(VerifyDeepCli, SkyrimPluginReportsEveryFieldCheck) {
  TESMOD_REQUIRE_CORPUS();
  const fs::path plugin = corpus_dir() / "skyrim/AndersonPaschoalon__Skyrim-DSilHand/DawnOfTheSilverHand.esp";
  ASSERT_TRUE(fs::exists(plugin));
  const nlohmann::json j = deep_json(plugin);
  EXPECT_EQ(j["ok"], true);
  const auto& checks = j["files"][0]["checks"];
  for (const char* name : {"vmad", "pack", "ctda", "ctda_text"}) {
    ASSERT_TRUE(checks.contains(name)) << name;
    EXPECT_GT(checks[name]["total"].get<int>(), 0) << name;
    EXPECT_EQ(checks[name]["identical"], checks[name]["total"]) << name;
    EXPECT_EQ(j["check_totals"][name], checks[name]) << name;
  }
  EXPECT_TRUE(j["files"][0]["field_failures"].empty());
}

TEST(VerifyDeepCli, SaveReportsItsChangeRecords) {
  TESMOD_REQUIRE_CORPUS();
  const fs::path save = first_in("saves-oblivion", ".ess");
  ASSERT_FALSE(save.empty());
  const nlohmann::json j = deep_json(save);
  const auto& c = j["files"][0]["checks"]["save_change_records"];
  EXPECT_GT(c["total"].get<int>(), 1000);
  EXPECT_EQ(c["identical"], c["total"]);
  EXPECT_EQ(j["files"][0]["identical"], true);
}

TEST(VerifyDeepCli, DamagedConditionFailsTheCheck) {
  TESMOD_REQUIRE_CORPUS();
  const fs::path plugin = corpus_dir() / "oblivion/Laulajatar__my-oblivion-mods/CTAddPose_Custom.esp";
  ASSERT_TRUE(fs::exists(plugin));
  std::vector<std::uint8_t> bytes = read_file(plugin);
  // The first CTDA field: make its size 23, one byte short of Oblivion's 24.
  const std::string tag = "CTDA\x18";
  auto at = std::search(bytes.begin(), bytes.end(), tag.begin(), tag.end());
  ASSERT_NE(at, bytes.end());
  TempDir dir;
  const fs::path damaged = dir / "damaged.esp";
  at[4] = 0x17;
  // The record no longer tiles (or the condition no longer decodes): the deep check must say so.
  write_file(damaged, bytes);
  const CommandResult r = run_cli({"verify", "--deep", "--json", damaged.string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ok"], false);
}

// The first line of each file says what the exit code says, naming the failing checks, and the
// closing line counts the files that passed and failed.
TEST(VerifyDeepCli, FailingChecksMakeTheFirstLineDiffers) {
  TESMOD_REQUIRE_CORPUS();
  // Two of its scripts call commands of an OblivionOnline build nobody published (README).
  const fs::path failing = corpus_dir() / "oblivion/klusark__OblivionOnline/OblivionOnline.esp";
  const fs::path passing = corpus_dir() / "oblivion/Laulajatar__my-oblivion-mods/MOO Craftable Enchanted Arrows.esp";
  ASSERT_TRUE(fs::exists(failing));
  ASSERT_TRUE(fs::exists(passing));
  const CommandResult r = run_cli({"verify", "--deep", passing.string(), failing.string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(r.out.starts_with("OK " + passing.string() + "\n")) << r.out;
  const std::string differs = "\nDIFFERS " + failing.string() + ": script_recompile ";
  EXPECT_NE(r.out.find(differs), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\nOK " + failing.string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\ntotal: 2 files; 1 passed, 1 failed\n"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;

  const CommandResult j = run_cli({"verify", "--deep", "--json", passing.string(), failing.string()});
  EXPECT_EQ(j.exit_code, 1);
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["ok"], false);
  EXPECT_EQ(doc["passed"], 1);
  EXPECT_EQ(doc["failed"], 1);
  EXPECT_EQ(doc["files"][0]["verdict"], "ok");
  EXPECT_TRUE(doc["files"][0]["failing_checks"].empty());
  const auto& bad = doc["files"][1];
  EXPECT_EQ(bad["verdict"], "differs");
  EXPECT_EQ(bad["identical"], true);  // written back byte for byte: only the script checks fail
  const auto& names = bad["failing_checks"];
  EXPECT_NE(std::find(names.begin(), names.end(), "script_recompile"), names.end()) << names.dump();
  // Each failing check named has failures in its figures, and each check with failures is named.
  // typed_fields and unnamed_flags are figures of coverage, not checks that pass or fail.
  for (const auto& [name, c] : bad["checks"].items()) {
    if (!c.is_object() || !c.contains("identical")) continue;
    const bool failed = c["identical"] != c["total"];
    EXPECT_EQ(failed, std::find(names.begin(), names.end(), name) != names.end()) << name;
  }
}

TEST(VerifyDeepCli, ErrorsGoToStderrAndCountAsFailed) {
  TESMOD_REQUIRE_CORPUS();
  const fs::path good = corpus_dir() / "oblivion/Laulajatar__my-oblivion-mods/MOO Craftable Enchanted Arrows.esp";
  TempDir dir;
  std::vector<std::uint8_t> bytes = read_file(good);
  bytes.resize(bytes.size() / 2);
  const fs::path broken = dir / "broken.esp";
  write_file(broken, bytes);
  const CommandResult r = run_cli({"verify", broken.string(), good.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.err.starts_with("tesmod: error: " + broken.string() + ": offset 0x")) << r.err;
  EXPECT_EQ(r.out, "ERROR " + broken.string() + "\nOK " + good.string() + "\ntotal: 2 files; 1 passed, 1 failed\n");
}

// A check with nothing to check is not printed (no `pack: 0/0` for a plugin without packages);
// the JSON keeps it.
TEST(VerifyDeepCli, EmptyChecksAreNotPrinted) {
  TESMOD_REQUIRE_CORPUS();
  const fs::path plugin = corpus_dir() / "oblivion/Laulajatar__my-oblivion-mods/MOO Craftable Enchanted Arrows.esp";
  ASSERT_TRUE(fs::exists(plugin));
  const nlohmann::json j = deep_json(plugin);
  ASSERT_EQ(j["files"][0]["checks"]["pack"]["total"], 0);
  const CommandResult r = run_cli({"verify", "--deep", plugin.string()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("0/0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  text_round_trip: "), std::string::npos) << r.out;
}
