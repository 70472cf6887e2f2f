// `tesmod vmad`: output lines, JSON keys, record selection and exit codes, on Skyrim plugins built
// here (a quest with fragments and an alias script, a weapon with a script; one broken VMAD).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tesmod/fields/vmad.hpp"
#include "tesmod/fields/vmad_edit.hpp"
#include "tesmod/plugin/plugin.hpp"

using namespace tesmod;
using namespace tesmod::fields;
using test::run_cli;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class VmadCli : public ::testing::Test {
 protected:
  void SetUp() override {
    Plugin p = Plugin::create(Game::SkyrimSE, "VmadCli.esp");
    sword = p.allocate_form_id();
    quest = p.allocate_form_id();

    Vmad weapon;
    Script& s = add_script(weapon.scripts, "TesmodSwordScript");
    set_property(s, "Owner", VmadObject::quest_alias(quest, 1));
    set_property(s, "Damage", 12);
    set_property(s, "Names", std::vector<std::string>{"Edge", "Bite"});
    p.add(Record("WEAP", sword, {Field::zstring("EDID", "TesmodSword"), Field::bytes("VMAD", encode_vmad(weapon))}));

    Vmad q;
    set_property(add_script(q.scripts, "QF_TesmodQuest"), "Alias_Hero", VmadObject::quest_alias(quest, 1));
    auto& frags = fragments_of<QuestFragments>(q);
    frags.file_name = "QF_TesmodQuest";
    set_quest_fragment(frags, 10, 0, Fragment{1, "QF_TesmodQuest", "Fragment_0"});
    set_property(add_script(add_alias(q, frags, quest, 1).scripts, "HeroAlias"), "Weapon", VmadObject::form(sword));
    p.add(Record("QUST", quest, {Field::zstring("EDID", "TesmodQuest"), Field::bytes("VMAD", encode_vmad(q))}));
    p.save(plugin());
  }

  std::string plugin() const { return (dir / "VmadCli.esp").string(); }

  test::TempDir dir;
  std::uint32_t sword = 0;
  std::uint32_t quest = 0;
};

}  // namespace

TEST_F(VmadCli, PrintsEveryRecordsScripts) {
  const auto r = run_cli({"vmad", plugin()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, fmt::format("WEAP {:08X} TesmodSword\n"
                               "  version 5, object format 2\n"
                               "  script TesmodSwordScript\n"
                               "    object Owner = alias 1 of TesmodQuest\n"
                               "    int Damage = 12\n"
                               "    string[] Names = [\"Edge\", \"Bite\"]\n"
                               "QUST {:08X} TesmodQuest\n"
                               "  version 5, object format 2\n"
                               "  script QF_TesmodQuest\n"
                               "    object Alias_Hero = alias 1 of TesmodQuest\n"
                               "  QUST fragments in QF_TesmodQuest\n"
                               "    stage 10, log entry 0: QF_TesmodQuest.Fragment_0\n"
                               "  alias 1 of TesmodQuest\n"
                               "    script HeroAlias\n"
                               "      object Weapon = TesmodSword\n",
                               sword, quest));
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(VmadCli, Json) {
  const auto r = run_cli({"vmad", plugin(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["file"], plugin());
  ASSERT_EQ(j["records"].size(), 2u);
  const auto& w = j["records"][0];
  EXPECT_EQ(w["type"], "WEAP");
  EXPECT_EQ(w["form_id"], fmt::format("{:08X}", sword));
  EXPECT_EQ(w["editor_id"], "TesmodSword");
  EXPECT_EQ(w["vmad"]["scripts"][0]["properties"][1]["value"], 12);
  EXPECT_EQ(w["vmad"]["scripts"][0]["properties"][2]["type"], "string[]");
  EXPECT_FALSE(w["vmad"].contains("fragments"));
  const auto& q = j["records"][1]["vmad"];
  EXPECT_EQ(q["fragments"]["record_type"], "QUST");
  EXPECT_EQ(q["fragments"]["fragments"][0]["stage"], 10);
  EXPECT_EQ(q["fragments"]["aliases"][0]["object"]["form"], "TesmodQuest");
  EXPECT_EQ(q["fragments"]["aliases"][0]["object"]["alias"], 1);
  EXPECT_EQ(q["fragments"]["aliases"][0]["scripts"][0]["properties"][0]["value"]["form"], "TesmodSword");
}

TEST_F(VmadCli, SelectsOneRecordByEditorIdOrFormId) {
  for (const std::string& which : {std::string("tesmodquest"), fmt::format("{:08X}", quest), fmt::format("VmadCli.esp:{:06X}", quest & 0xFFFFFF)}) {
    const auto r = run_cli({"vmad", plugin(), "--record", which});
    ASSERT_EQ(r.exit_code, 0) << which << ": " << r.err;
    EXPECT_TRUE(r.out.starts_with(fmt::format("QUST {:08X} TesmodQuest\n", quest))) << r.out;
    EXPECT_FALSE(contains(r.out, "WEAP")) << r.out;
  }
  const auto missing = run_cli({"vmad", plugin(), "--record", "NoSuchRecord"});
  EXPECT_EQ(missing.exit_code, 1);  // not an EditorID, and not a FormID either
  EXPECT_TRUE(contains(missing.err, "no record 'NoSuchRecord'")) << missing.err;
  const auto absent = run_cli({"vmad", plugin(), "--record", "00ABCDEF"});
  EXPECT_EQ(absent.exit_code, 1);
  EXPECT_TRUE(contains(absent.err, "no record '00ABCDEF'")) << absent.err;
}

TEST_F(VmadCli, NoVmadPrintsNothing) {
  Plugin p = Plugin::create(Game::SkyrimLE, "Plain.esp");
  p.add(Record("MISC", p.allocate_form_id(), {Field::zstring("EDID", "Coin")}));
  p.save(dir / "Plain.esp");
  const auto r = run_cli({"vmad", (dir / "Plain.esp").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  const auto j = run_cli({"vmad", (dir / "Plain.esp").string(), "--json"});
  EXPECT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(nlohmann::json::parse(j.out)["records"].size(), 0u);
}

TEST_F(VmadCli, OblivionPluginIsAUsageError) {
  Plugin p = Plugin::create(Game::Oblivion, "Old.esp");
  p.add(Record("MISC", p.allocate_form_id(), {Field::zstring("EDID", "Coin")}));
  p.save(dir / "Old.esp");
  const auto r = run_cli({"vmad", (dir / "Old.esp").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "Oblivion plugin")) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(VmadCli, BrokenVmadIsReportedAndTheOthersStillPrinted) {
  Plugin p = Plugin::open(plugin());
  const std::uint32_t bad = p.allocate_form_id();
  // A WEAP's VMAD with a byte after its scripts: WEAP has no fragment section.
  p.add(Record("WEAP", bad, {Field::zstring("EDID", "BadSword"), Field::bytes("VMAD", std::vector<std::uint8_t>{5, 0, 2, 0, 0, 0, 7})}));
  p.save(dir / "Broken.esp");
  const auto r = run_cli({"vmad", (dir / "Broken.esp").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "BadSword")) << r.err;
  EXPECT_TRUE(contains(r.err, "offset 0x")) << r.err;
  EXPECT_TRUE(contains(r.err, "a VMAD of a WEAP record has no fragment section")) << r.err;
  EXPECT_TRUE(contains(r.out, "QUST ")) << r.out;
  EXPECT_TRUE(contains(r.out, "script TesmodSwordScript")) << r.out;
}

TEST(VmadCliCorpus, SkyUiQuests) {
  TESMOD_REQUIRE_CORPUS();
  const auto path = test::corpus_dir() / "skyrim" / "schlangster__skyui" / "SkyUI.esp";
  const auto r = run_cli({"vmad", path.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  // MANIFEST.tsv (inspect_plugin.py): 7 VMAD, all QUST, all with fragment sections, 7 alias blocks.
  ASSERT_EQ(j["records"].size(), 7u);
  std::size_t aliases = 0;
  for (const auto& rec : j["records"]) {
    EXPECT_EQ(rec["type"], "QUST");
    ASSERT_TRUE(rec["vmad"].contains("fragments"));
    aliases += rec["vmad"]["fragments"]["aliases"].size();
  }
  EXPECT_EQ(aliases, 7u);
}
