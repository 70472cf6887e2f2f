// `tesmod esl compact`'s contract: the three outputs (-o, --in-place, --dry-run and its exit code),
// the --map JSON exactly, the loose files following the records, usage errors, and nothing
// written on an error.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "plugin_maker.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "test_support.hpp"

namespace tesmod {
namespace {

namespace fs = std::filesystem;
using test::run_cli;
using test::TestPlugin;
using test::TestRecord;

Field lvlo(std::uint32_t item) {
  std::vector<std::uint8_t> d(12, 0);
  le::store(d.data() + 4, item);
  return Field::bytes(Signature("LVLO"), d);
}

// Mod.esp (masters: Base.esm) with an NPC at 0x012345 (outside the range) and one at 0x900, a
// dependant naming the moved NPC, FaceGen files for both NPCs.
struct Folder {
  test::TempDir dir;
  Folder() {
    TestPlugin base;
    base.header_flags = record_flags::kMaster;
    test::write_plugin(dir / "Base.esm", base, 1000);
    TestPlugin mod;
    mod.masters = {"Base.esm"};
    mod.records.push_back(TestRecord(Signature("NPC_"), 0x01012345, {Field::zstring("EDID", "Moved")}));
    mod.records.push_back(TestRecord(Signature("NPC_"), 0x01000900, {Field::zstring("EDID", "Kept")}));
    test::write_plugin(dir / "Mod.esp", mod, 2000);
    TestPlugin dep;
    dep.masters = {"Base.esm", "Mod.esp"};
    dep.records.push_back(TestRecord(Signature("LVLN"), 0x02000800, {Field::zstring("EDID", "List"), lvlo(0x01012345)}));
    test::write_plugin(dir / "Dep.esp", dep, 3000);
    const fs::path geom = dir.path() / "meshes/actors/character/facegendata/facegeom/Mod.esp";
    fs::create_directories(geom);
    const std::string nif = std::string("Gamebryo File Format\0....", 25) +
                            "textures\\actors\\character\\facegendata\\facetint\\Mod.esp\\00012345.dds" + std::string(8, '\0');
    test::write_file(geom / "00012345.nif", std::vector<std::uint8_t>(nif.begin(), nif.end()));
    test::write_file(geom / "00000900.nif", std::vector<std::uint8_t>{1, 2, 3});
  }
  std::string data() const { return dir.path().string(); }
  std::vector<std::uint8_t> bytes(const std::string& name) const { return test::read_file(dir / name); }
};

TEST(EslCompactCli, DryRunReportsAndExitsOneWritingNothing) {
  Folder f;
  const auto mod_before = f.bytes("Mod.esp");
  const auto r = run_cli({"esl", "compact", "Mod.esp", "--data", f.data(), "--dry-run", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["map"], nlohmann::json({{"01012345", "01000800"}}));
  EXPECT_EQ(j["would_write"].size(), 2u);
  EXPECT_EQ(j["dependants"], nlohmann::json({"Dep.esp"}));
  EXPECT_EQ(j["loose_files"]["changes"].size(), 1u);
  EXPECT_EQ(f.bytes("Mod.esp"), mod_before);
  EXPECT_TRUE(fs::exists(f.dir / "meshes/actors/character/facegendata/facegeom/Mod.esp/00012345.nif"));
}

TEST(EslCompactCli, OutputFolderGetsThePluginsTheLooseFilesAndTheMap) {
  Folder f;
  test::TempDir out;
  const fs::path map = out / "map.json";
  const auto r = run_cli({"esl", "compact", "Mod.esp", "--data", f.data(), "-o", (out / "o").string(), "--map",
                          map.string(), "--flag"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("NPC_ 01012345 -> 01000800 Moved"), std::string::npos) << r.out;
  const auto text = test::read_file(map);
  EXPECT_EQ(std::string(text.begin(), text.end()),
            "{\n  \"plugin\": \"Mod.esp\",\n  \"hedr\": null,\n  \"map\": {\n    \"01012345\": \"01000800\"\n  }\n}\n");
  EXPECT_TRUE(fs::exists(out / "o/Mod.esp"));
  EXPECT_TRUE(fs::exists(out / "o/Dep.esp"));
  EXPECT_FALSE(fs::exists(out / "o/Base.esm"));  // unchanged: not written
  const PluginFile mod = PluginFile::open(out / "o/Mod.esp");
  EXPECT_TRUE(mod.header().flags & record_flags::kLight);
  EXPECT_TRUE(mod.find_form_id(0x01000800).has_value());
  const fs::path nif = out / "o/meshes/actors/character/facegendata/facegeom/Mod.esp/00000800.nif";
  ASSERT_TRUE(fs::exists(nif));
  const auto nif_bytes = test::read_file(nif);
  const std::string nif_text(nif_bytes.begin(), nif_bytes.end());
  EXPECT_NE(nif_text.find("facetint\\Mod.esp\\00000800.dds"), std::string::npos);
  // The data folder is as it was.
  EXPECT_TRUE(fs::exists(f.dir / "meshes/actors/character/facegendata/facegeom/Mod.esp/00012345.nif"));
}

TEST(EslCompactCli, InPlaceRewritesTheDataFolderAndASecondRunChangesNothing) {
  Folder f;
  const auto base_before = f.bytes("Base.esm");
  auto r = run_cli({"esl", "compact", "Mod.esp", "--data", f.data(), "--in-place"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(f.bytes("Base.esm"), base_before);
  EXPECT_TRUE(PluginFile::open(f.dir / "Mod.esp").find_form_id(0x01000800).has_value());
  const fs::path geom = f.dir / "meshes/actors/character/facegendata/facegeom/Mod.esp";
  EXPECT_TRUE(fs::exists(geom / "00000800.nif"));
  EXPECT_FALSE(fs::exists(geom / "00012345.nif"));
  const auto mod = f.bytes("Mod.esp"), dep = f.bytes("Dep.esp");
  r = run_cli({"esl", "compact", "Mod.esp", "--data", f.data(), "--in-place"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("nothing to compact"), std::string::npos) << r.out;
  EXPECT_EQ(f.bytes("Mod.esp"), mod);
  EXPECT_EQ(f.bytes("Dep.esp"), dep);
  r = run_cli({"esl", "compact", "Mod.esp", "--data", f.data(), "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

TEST(EslCompactCli, UsageErrorsAndNothingWrittenOnAnError) {
  Folder f;
  EXPECT_EQ(run_cli({"esl", "compact", "Mod.esp", "--data", f.data()}).exit_code, 2);
  EXPECT_EQ(run_cli({"esl", "compact", "Mod.esp", "--data", f.data(), "--dry-run", "--in-place"}).exit_code, 2);
  auto r = run_cli({"esl", "compact", "Mod.esp", "--data", f.data(), "--dry-run", "--hedr", "1.7"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--hedr takes 1.71"), std::string::npos) << r.err;
  r = run_cli({"esl", "compact", "Nope.esp", "--data", f.data(), "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'Nope.esp' is not in the data folder"), std::string::npos) << r.err;
  // A FaceGen file already at the new name: the loose files cannot follow, nothing is written.
  const fs::path geom = f.dir / "meshes/actors/character/facegendata/facegeom/Mod.esp";
  test::write_file(geom / "00000800.nif", std::vector<std::uint8_t>{9});
  const auto mod = f.bytes("Mod.esp"), dep = f.bytes("Dep.esp");
  r = run_cli({"esl", "compact", "Mod.esp", "--data", f.data(), "--in-place"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nothing was written"), std::string::npos) << r.err;
  EXPECT_EQ(f.bytes("Mod.esp"), mod);
  EXPECT_EQ(f.bytes("Dep.esp"), dep);
  EXPECT_TRUE(fs::exists(geom / "00012345.nif"));
}

}  // namespace
}  // namespace tesmod
