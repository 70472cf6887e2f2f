// `tesmod conditions`: records and their condition lines, --record by EditorID and FormID, JSON,
// exit codes; on plugins built here (Skyrim with a master beside it, Oblivion) and on the corpus.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <nlohmann/json.hpp>

#include "tesmod/fields/condition.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "test_support.hpp"

using namespace tesmod;
using namespace tesmod::fields;
using test::run_cli;

namespace {

Field ctda(const Condition& c) { return encode_condition(c)[0]; }

class ConditionsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    Plugin master = Plugin::create(Game::SkyrimSE, "Base.esm");
    master.add(Record("GLOB", master.allocate_form_id(), {Field::zstring("EDID", "BaseGlobal")}));  // 00000800
    master.save(dir / "Base.esm");

    Plugin p = Plugin::create(Game::SkyrimSE, "Conditions.esp");
    p.set_masters({{"Base.esm", 0}}, std::vector<std::uint32_t>{1});
    const std::uint32_t quest = p.allocate_form_id();  // 01000800
    p.add(Record("QUST", quest, {Field::zstring("EDID", "TestQuest")}));
    Condition stage;  // GetStage(TestQuest) >= global BaseGlobal OR
    stage.op = CompareOp::GreaterOrEqual;
    stage.flags = condition_flag::kOr | condition_flag::kUseGlobal;
    stage.value = 0x00000800;
    stage.function = 58;
    stage.param1 = quest;
    Condition distance;  // Target.GetDistance(TestQuest) < 100.0, padding kept
    distance.op = CompareOp::Less;
    distance.set_value_float(100.0f);
    distance.function = 1;
    distance.param1 = quest;
    distance.run_on = RunOn::Target;
    distance.padding = 0x54;
    Condition var;  // GetVMQuestVariable(TestQuest, "::done_var") == 1.0
    var.set_value_float(1.0f);
    var.function = 629;
    var.param1 = quest;
    var.cis2 = std::string("::done_var\0", 11);
    std::vector<Field> package{Field::zstring("EDID", "TestPackage"), ctda(stage), ctda(distance)};
    for (Field& f : encode_condition(var)) package.push_back(std::move(f));
    p.add(Record("PACK", p.allocate_form_id(), std::move(package)));  // 01000801
    p.add(Record("MISC", p.allocate_form_id(), {Field::zstring("EDID", "NoConditions")}));
    p.save(dir / "Conditions.esp");
  }
  std::string plugin() const { return (dir / "Conditions.esp").string(); }
  test::TempDir dir;
};

constexpr const char* kInfoText =
    "PACK 01000801 TestPackage\n"
    "  GetStage(TestQuest) >= global BaseGlobal OR\n"
    "  Target.GetDistance(TestQuest) < 100.0 [pad=0054]\n"
    "  GetVMQuestVariable(TestQuest, \"::done_var\") == 1.0\n";

}  // namespace

TEST_F(ConditionsCli, ListsEveryRecordWithConditions) {
  const auto r = run_cli({"conditions", plugin()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kInfoText);
}

TEST_F(ConditionsCli, OneRecordByEditorIdOrFormId) {
  for (const char* which : {"testpackage", "01000801", "Conditions.esp:000801"}) {
    const auto r = run_cli({"conditions", plugin(), "--record", which});
    EXPECT_EQ(r.exit_code, 0) << which << r.err;
    EXPECT_EQ(r.out, kInfoText) << which;
  }
  // A record without conditions is listed, empty.
  const auto none = run_cli({"conditions", plugin(), "--record", "NoConditions"});
  EXPECT_EQ(none.exit_code, 0);
  EXPECT_EQ(none.out, "MISC 01000802 NoConditions\n");
  const auto missing = run_cli({"conditions", plugin(), "--record", "Nothing"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("Nothing"), std::string::npos) << missing.err;
}

TEST_F(ConditionsCli, Json) {
  const auto r = run_cli({"conditions", plugin(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["game"], "skyrimse");
  EXPECT_EQ(j["conditions"], 3);
  ASSERT_EQ(j["records"].size(), 1u);
  const auto& rec = j["records"][0];
  EXPECT_EQ(rec["type"], "PACK");
  EXPECT_EQ(rec["form_id"], "01000801");
  EXPECT_EQ(rec["editor_id"], "TestPackage");
  ASSERT_EQ(rec["conditions"].size(), 3u);
  EXPECT_EQ(rec["conditions"][0]["text"], "GetStage(TestQuest) >= global BaseGlobal OR");
  EXPECT_EQ(rec["conditions"][0]["global"], "BaseGlobal");
  EXPECT_EQ(rec["conditions"][0]["or"], true);
  EXPECT_EQ(rec["conditions"][1]["run_on"], "Target");
  EXPECT_EQ(rec["conditions"][2]["params"][1]["string"], "::done_var");
}

TEST_F(ConditionsCli, WithoutTheMasterFormsAreNamedByFile) {
  std::filesystem::remove(dir / "Base.esm");
  const auto r = run_cli({"conditions", plugin(), "--record", "TestPackage"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("GetStage(TestQuest) >= global Base.esm:00000800 OR\n"), std::string::npos) << r.out;
}

TEST(ConditionsCliOblivion, RunOnTargetAndErrors) {
  test::TempDir dir;
  Plugin p = Plugin::create(Game::Oblivion, "Old.esp");
  Condition sex;  // Target.GetIsSex(Female) == 1.0, as a 20-byte CTDT
  sex.layout = ConditionLayout::OblivionCtdt;
  sex.flags = condition_flag::kRunOnTarget;
  sex.set_value_float(1.0f);
  sex.function = 70;
  sex.param1 = 1;
  p.add(Record("QUST", p.allocate_form_id(), {ctda(sex)}));
  p.save(dir / "Old.esp");
  const auto r = run_cli({"conditions", (dir / "Old.esp").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "QUST 00000800\n  Target.GetIsSex(Female) == 1.0 [CTDT]\n");

  const auto missing = run_cli({"conditions", (dir / "None.esp").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("None.esp"), std::string::npos);
  EXPECT_EQ(run_cli({"conditions"}).exit_code, 2);
}

TEST(ConditionsCliCorpus, PackageConditions) {
  TESMOD_REQUIRE_CORPUS();
  const auto r = run_cli({"conditions", (test::corpus_dir() / "skyrim/Voxtric__Skyrim-Mod/Dwemer Secrets.esp").string(),
                          "--record", "ForceGreet"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("PACK 0003C1C4 ForceGreet\n  GetDetected(PackData(17)) == 1.0 [UsePackData]\n"
                        "  PackData(17).GetWithinPackageLocation(PackData(62)) == 1.0\n",
                        0),
            0u)
      << r.out;
}

TEST(ConditionsCliDamaged, ABrokenConditionIsAnErrorWithItsOffset) {
  test::TempDir dir;
  Plugin p = Plugin::create(Game::SkyrimLE, "Broken.esp");
  p.add(Record("PACK", p.allocate_form_id(),
               {Field::zstring("EDID", "BrokenPackage"), Field::bytes(kCTDA, std::vector<std::uint8_t>(31))}));
  p.save(dir / "Broken.esp");
  const auto r = run_cli({"conditions", (dir / "Broken.esp").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  // The CTDA's header: after the record's 24-byte header and its EDID (6 + 14 bytes).
  const PluginFile file = PluginFile::open(dir / "Broken.esp");
  const std::uint64_t at = file.entry(*file.find_form_id(0x800)).offset + 24 + 6 + 14;
  EXPECT_NE(r.err.find(fmt::format("Broken.esp: offset 0x{:X} ({})", at, at)), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("BrokenPackage"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("condition field CTDA of 31 bytes: expected a 32-byte Skyrim CTDA"), std::string::npos) << r.err;
}
