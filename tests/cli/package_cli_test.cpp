// `tesmod pack`: output lines, record selection, JSON keys and exit codes, on a Skyrim plugin built
// here with a template package and a package that uses it (fields laid out by hand from the spec).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tesmod/plugin/plugin.hpp"

using namespace tesmod;
using test::run_cli;

namespace {

std::vector<std::uint8_t> le32(std::uint32_t v) {
  return {std::uint8_t(v), std::uint8_t(v >> 8), std::uint8_t(v >> 16), std::uint8_t(v >> 24)};
}
std::vector<std::uint8_t> cat(std::initializer_list<std::vector<std::uint8_t>> parts) {
  std::vector<std::uint8_t> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
Field F(Signature type, std::vector<std::uint8_t> data = {}) { return Field{type, std::move(data)}; }
Field Z(Signature type, std::string_view text) { return Field::zstring(type, text); }

// PKDT: flags, type (0x12 package, 0x13 template), interrupt override, speed, unused, u16 interrupt flags, u16.
Field pkdt(std::uint32_t flags, std::uint8_t type) { return F("PKDT", cat({le32(flags), {type, 0, 1, 0, 0x01, 0x00, 0, 0}})); }
// PSDT: any month, Fredas, any date, 06:00, 3 unused bytes, 120 minutes.
Field psdt() { return F("PSDT", cat({{0xFF, 5, 0, 6, 0, 0, 0, 0}, le32(120)})); }
std::vector<Field> events() {
  std::vector<Field> out;
  for (Signature marker : {Signature("POBA"), Signature("POEA"), Signature("POCA")}) {
    out.push_back(F(marker));
    out.push_back(F("INAM", le32(0)));
    out.push_back(F("PDTO", cat({le32(0), le32(0)})));
  }
  return out;
}

class PackCli : public ::testing::Test {
 protected:
  void SetUp() override {
    Plugin p = Plugin::create(Game::SkyrimSE, "TesmodPacks.esp");
    template_id = p.allocate_form_id();
    std::vector<Field> t = {Z("EDID", "TesmodTravelTemplate"), pkdt(0, 0x13), psdt(),
                            F("PKCU", cat({le32(1), le32(0), le32(0)})), Z("ANAM", "Location"),
                            F("PLDT", cat({le32(12), le32(0), le32(0)})), F("UNAM", {0}), F("XNAM", {1}),
                            Z("ANAM", "Procedure"), F("CITC", le32(0)), Z("PNAM", "Travel"), F("FNAM", le32(1)),
                            F("PKC2", {0}), F("UNAM", {0}), Z("BNAM", "Place to Travel"), F("PNAM", le32(1))};
    for (Field& f : events()) t.push_back(std::move(f));
    p.add(Record("PACK", template_id, std::move(t)));

    package_id = p.allocate_form_id();
    std::vector<Field> k = {Z("EDID", "TesmodGoHome"), pkdt(0x00020004, 0x12), psdt(),
                            F("PKCU", cat({le32(1), le32(template_id), le32(0)})), Z("ANAM", "Location"),
                            F("PLDT", cat({le32(0), le32(0x00012345), le32(300)})), F("UNAM", {0}), F("XNAM", {1})};
    for (Field& f : events()) k.push_back(std::move(f));
    p.add(Record("PACK", package_id, std::move(k)));
    p.save(plugin());
  }
  std::string plugin() const { return (dir / "TesmodPacks.esp").string(); }

  test::TempDir dir;
  std::uint32_t template_id = 0, package_id = 0;
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_F(PackCli, TextOfEveryPackage) {
  const auto r = run_cli({"pack", plugin()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, fmt::format("PACK {:08X} TesmodTravelTemplate\n", template_id))) << r.out;
  EXPECT_TRUE(contains(r.out, fmt::format("PACK {:08X} TesmodGoHome\n", package_id))) << r.out;
  EXPECT_TRUE(contains(r.out, "    type: package template\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "    flags: must complete, always sneak (0x00020004)\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "    schedule: Fredas, from 06:00, for 2 h (PSDT unused bytes 00 00 00)\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "    preferred speed: jog (not used")) << r.out;
  EXPECT_TRUE(contains(r.out, "    interrupt flags: hellos to player (0x0001)\n")) << r.out;
  // The template is named by its EditorID (the plugin defines it); Skyrim.esm is not beside it.
  EXPECT_TRUE(contains(r.out, "    PKCU: 1 data input, template TesmodTravelTemplate, version 0\n")) << r.out;
  // The input is named after the template's data input 0; 00012345 is not defined anywhere: how
  // it is spelled is the plugin-aware namer's business.
  EXPECT_TRUE(contains(r.out, "    [0 \"Place to Travel\"] Location: near reference ")) << r.out;
  EXPECT_TRUE(contains(r.out, "12345, radius 300\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  procedure tree\n    Procedure Travel, flags: success completes package (0x00000001), inputs 0\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "    [0] \"Place to Travel\" (flags 1)\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  on change: idle none, topic none\n")) << r.out;
}

// A package whose template is in a master beside it (found without regard to case): the template
// and its input names come from the master; without the master, the input has its id only.
TEST_F(PackCli, TemplateInAMasterBesideThePlugin) {
  Plugin master = Plugin::open(plugin());
  master.remove(package_id);
  master.save(dir / "tesmodmaster.esm");
  Plugin p = Plugin::create(Game::SkyrimSE, "Dependent.esp");
  p.set_masters({MasterFile{"TesmodMaster.esm", 0}}, std::vector<std::uint32_t>{1});
  std::vector<Field> k = {Z("EDID", "DependentPackage"), pkdt(0, 0x12), psdt(),
                          F("PKCU", cat({le32(1), le32(template_id), le32(0)})), Z("ANAM", "Location"),
                          F("PLDT", cat({le32(12), le32(0), le32(64)})), F("UNAM", {0}), F("XNAM", {1})};
  for (Field& f : events()) k.push_back(std::move(f));
  p.add(Record("PACK", p.allocate_form_id(), std::move(k)));
  const std::string path = (dir / "Dependent.esp").string();
  p.save(path);

  auto r = run_cli({"pack", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "template TesmodTravelTemplate,")) << r.out;
  EXPECT_TRUE(contains(r.out, "    [0 \"Place to Travel\"] Location: near self, radius 64\n")) << r.out;
  r = run_cli({"pack", path, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["packages"][0]["public_data"]["inputs"][0]["name"], "Place to Travel");

  std::filesystem::remove(dir / "tesmodmaster.esm");
  r = run_cli({"pack", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "    [0] Location: near self, radius 64\n")) << r.out;
}

TEST_F(PackCli, RecordByEditorIdOrFormId) {
  auto r = run_cli({"pack", plugin(), "--record", "tesmodgohome"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "TesmodGoHome\n"));
  EXPECT_FALSE(contains(r.out, "TesmodTravelTemplate\n"));
  r = run_cli({"pack", plugin(), "--record", fmt::format("{:08X}", template_id)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, fmt::format("PACK {:08X} TesmodTravelTemplate\n", template_id)));
  EXPECT_FALSE(contains(r.out, "PACK " + fmt::format("{:08X}", package_id)));
  r = run_cli({"pack", plugin(), "--record", fmt::format("TesmodPacks.esp:{:06X}", package_id & 0xFFFFFF)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "TesmodGoHome\n"));
}

TEST_F(PackCli, Json) {
  const auto r = run_cli({"pack", plugin(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["game"], "skyrimse");
  ASSERT_EQ(j["packages"].size(), 2u);
  const auto& t = j["packages"][0];
  EXPECT_EQ(t["form_id"], fmt::format("{:08X}", template_id));
  EXPECT_EQ(t["editor_id"], "TesmodTravelTemplate");
  EXPECT_EQ(t["header"]["template"], true);
  EXPECT_EQ(t["procedure_tree"][0]["procedure"], "Travel");
  EXPECT_EQ(t["input_names"][0]["name"], "Place to Travel");
  const auto& k = j["packages"][1];
  EXPECT_EQ(k["header"]["flags"]["value"], 0x20004);
  EXPECT_EQ(k["header"]["schedule"]["hour"], 6);
  EXPECT_EQ(k["header"]["counter"]["template_package"], "TesmodTravelTemplate");
  EXPECT_EQ(k["public_data"]["inputs"][0]["value"]["radius"], 300);
  EXPECT_EQ(k["events"]["on_begin"]["topic"]["type"], 0);
}

TEST_F(PackCli, UnknownRecordIsAnError) {
  const auto r = run_cli({"pack", plugin(), "--record", "NoSuchPackage"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "no PACK record with EditorID or FormID 'NoSuchPackage'")) << r.err;
}

// Oblivion plugins have their own PACK layout (EDID PKDT PLDT PSDT PTDT CTDA).
TEST_F(PackCli, OblivionPackages) {
  Plugin p = Plugin::create(Game::Oblivion, "Old.esp");
  const std::uint32_t id = p.allocate_form_id();
  p.add(Record("PACK", id,
               {Z("EDID", "OldSleep"), F("PKDT", cat({le32(0x400), {4, 0, 0, 0}})),
                F("PLDT", cat({le32(2), le32(0), le32(256)})), F("PSDT", cat({{0xFF, 0xFF, 0, 22}, le32(8)}))}));
  const std::string path = (dir / "Old.esp").string();
  p.save(path);
  auto r = run_cli({"pack", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, fmt::format("PACK {:08X} OldSleep\n"
                               "  EditorID: OldSleep\n"
                               "  type: sleep\n"
                               "  flags: once per day (0x00000400)\n"
                               "  PKDT unused bytes: 00 00 00\n"
                               "  location: near current location, radius 256\n"
                               "  schedule: from 22:00, for 8 h\n",
                               id));
  r = run_cli({"pack", path, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["game"], "oblivion");
  EXPECT_EQ(j["packages"][0]["type_name"], "sleep");
  EXPECT_EQ(j["packages"][0]["schedule"]["hour"], 22);
}

TEST_F(PackCli, MissingArgumentIsAUsageError) {
  EXPECT_EQ(run_cli({"pack"}).exit_code, 2);
  EXPECT_EQ(run_cli({"pack", plugin(), "--bogus"}).exit_code, 2);
}

TEST_F(PackCli, BrokenPackNamesFileOffsetAndRecord) {
  Plugin p = Plugin::open(plugin());
  Record* r = p.find(package_id);
  ASSERT_TRUE(r);
  for (Field& f : r->edit_fields())
    if (f.type == Signature("PLDT")) f.data.resize(8);
  const std::string broken = (dir / "Broken.esp").string();
  p.save(broken);
  // Alone: the error. Among others: the others still print, and the exit code is 1.
  auto one = run_cli({"pack", broken, "--record", "TesmodGoHome"});
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_TRUE(contains(one.err, "Broken.esp: offset 0x")) << one.err;
  EXPECT_TRUE(contains(one.err, fmt::format("record PACK [{:08X}] 'TesmodGoHome'", package_id))) << one.err;
  EXPECT_TRUE(contains(one.err, "PLDT field of 8 bytes; expected 12")) << one.err;
  auto all = run_cli({"pack", broken});
  EXPECT_EQ(all.exit_code, 1);
  EXPECT_TRUE(contains(all.out, "TesmodTravelTemplate\n"));
  EXPECT_TRUE(contains(all.err, "PLDT field of 8 bytes")) << all.err;
}

TEST(PackCliCorpus, CorpusTemplateTree) {
  TESMOD_REQUIRE_CORPUS();
  const auto path = test::corpus_dir() / "skyrim" / "Voxtric__Skyrim-Mod" / "Dwemer Secrets.esp";
  const auto r = run_cli({"pack", path.string(), "--record", "ForceGreet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Stacked (4 branches) > Sequence (2) > Travel, ForceGreet; Sequence (2) > ...; Sandbox; Travel:
  // PRCB counts from the record's bytes.
  EXPECT_TRUE(contains(r.out, "    Stacked, 4 branches, flags 0x0\n      Sequence, 2 branches, flags 0x0\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "\n        Procedure Travel, flags: none (0x00000000), inputs 75 26 65\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "\n      Procedure Sandbox, flags: none (0x00000000), inputs 8 29 30 31 32 33 34 36 67 69 none\n"))
      << r.out;
}
