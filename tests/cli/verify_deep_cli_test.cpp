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
