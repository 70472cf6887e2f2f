// Loose files named by FormID (light/loose_files.hpp) and the BSA name reader (io/bsa_names.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "byte_builder.hpp"
#include "test_support.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/bsa_names.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/light/loose_files.hpp"
#include "tesmod/plugin/plugin.hpp"

using namespace tesmod;
using namespace tesmod::light;
namespace fs = std::filesystem;

namespace {

const std::map<std::uint32_t, std::uint32_t> kMap = {
    {0x012345, 0x000801},  // an NPC_ with FaceGen
    {0x012AB0, 0x000802},  // an INFO with voice files
    {0x01AAAA, 0x000803},  // a start-game-enabled quest
};

constexpr const char* kGeom = "Meshes/Actors/Character/FaceGenData/FaceGeom/MyMod.esp";
constexpr const char* kTint = "textures/actors/character/facegendata/facetint/mymod.esp";
constexpr const char* kVoice = "Sound/Voice/MyMod.esp";

std::vector<std::uint8_t> bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

void put(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  fs::create_directories(path.parent_path());
  test::write_file(path, bytes);
}

// A stand-in for a FaceGen head: a NIF header line, binary bytes, and the texture set's strings
// as NIF 20.2.0.7 stores them (u32 length, then the characters).
std::vector<std::uint8_t> fake_head(std::string_view tint_path) {
  test::ByteBuilder b;
  b.chars("Gamebryo File Format, Version 20.2.0.7\n").u32(0x14020007).u8(1).u32(12).u32(83);
  for (std::string_view s : {std::string_view("textures\\actors\\character\\male\\MaleHead.dds"), tint_path,
                             std::string_view("facetint\\Other.esp\\00012345.dds")})
    b.u32(std::uint32_t(s.size())).chars(s);
  b.u32(0xDEADBEEF).chars("00012345").f32(1.5f);
  return b.b;
}

constexpr std::string_view kHeadTint = "textures\\actors\\character\\FaceGenData\\FaceTint\\MyMod.esp\\00012345.dds";
constexpr std::string_view kOtherTint = "textures\\actors\\character\\FaceGenData\\FaceTint\\MyMod.esp\\00054321.dds";

std::vector<std::uint8_t> seq_bytes(std::initializer_list<std::uint32_t> ids) {
  test::ByteBuilder b;
  for (std::uint32_t id : ids) b.u32(id);
  return b.b;
}

// A Data folder with one plugin's loose files, folder names in mixed case.
void make_data(const fs::path& data) {
  put(data / kGeom / "00012345.nif", fake_head(kHeadTint));
  put(data / kGeom / "00054321.nif", fake_head(kOtherTint));  // not renumbered: untouched
  put(data / kTint / "00012345.dds", bytes_of("DDS tint 12345"));
  put(data / kTint / "00054321.dds", bytes_of("DDS tint 54321"));
  put(data / kVoice / "MaleNord/MyQuest_MyTopic_00012AB0_1.fuz", bytes_of("fuz 1"));
  put(data / kVoice / "MaleNord/MyQuest_MyTopic_00012AB0_1.lip", bytes_of("lip 1"));
  put(data / kVoice / "FemaleYoungEager/My_Quest_Long_Topi_00012ab0_2.xwm", bytes_of("xwm 2"));
  put(data / kVoice / "FemaleYoungEager/MyQuest_Other_00054321_1.fuz", bytes_of("not renumbered"));
  put(data / kVoice / "FemaleYoungEager/Notes_1.fuz", bytes_of("no id"));
  put(data / "SEQ/MyMod.seq", seq_bytes({0x0101AAAA, 0x000ABCDE, 0x01054321}));
}

LooseFileOptions own_index(std::uint32_t index) {
  LooseFileOptions o;
  o.own_index = index;
  return o;
}

// Every regular file under root, relative, with its bytes.
std::map<std::string, std::vector<std::uint8_t>> snapshot(const fs::path& root) {
  std::map<std::string, std::vector<std::uint8_t>> out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) out[fs::relative(e.path(), root).generic_string()] = test::read_file(e.path());
  return out;
}

std::string text(const std::vector<std::uint8_t>& b) { return {b.begin(), b.end()}; }

// The path a change list shows: "from -> to" or "from" for content only.
std::vector<std::string> change_list(const LooseFilePlan& plan) {
  std::vector<std::string> out;
  for (const auto& c : plan.changes)
    out.push_back(c.renamed() ? c.from.generic_string() + " -> " + c.to.filename().string() : c.from.generic_string());
  return out;
}

std::vector<std::string> messages(const LooseFilePlan& plan) {
  std::vector<std::string> out;
  for (const auto& p : plan.problems) out.push_back((p.error ? "error: " : "warning: ") + p.message);
  return out;
}

// A BSA archive written by hand: header, folder records, folder names with file records, file
// names. No file data (every file record says 0 bytes at the end of the archive).
struct BsaFolder {
  std::string name;
  std::vector<std::string> files;
};
std::vector<std::uint8_t> make_bsa(std::uint32_t version, const std::vector<BsaFolder>& folders) {
  std::uint32_t files = 0, folder_names = 0, file_names = 0;
  for (const auto& f : folders) {
    files += std::uint32_t(f.files.size());
    folder_names += std::uint32_t(f.name.size() + 1);
    for (const auto& n : f.files) file_names += std::uint32_t(n.size() + 1);
  }
  const std::uint32_t record = version == 105 ? 24 : 16;
  test::ByteBuilder b;
  b.chars(std::string_view("BSA\0", 4)).u32(version).u32(36).u32(0x3).u32(std::uint32_t(folders.size())).u32(files);
  b.u32(folder_names).u32(file_names).u16(0).u16(0);
  // A folder's offset: where its name is, plus the total file-name length (as the format has it).
  std::uint32_t at = 36 + record * std::uint32_t(folders.size());
  for (const auto& f : folders) {
    b.u32(0x12345678).u32(0x9ABCDEF0).u32(std::uint32_t(f.files.size()));
    if (version == 105) b.u32(0).u32(at + file_names).u32(0);
    else b.u32(at + file_names);
    at += std::uint32_t(f.name.size() + 2 + 16 * f.files.size());
  }
  const std::uint32_t end = at + file_names;
  for (const auto& f : folders) {
    b.u8(std::uint8_t(f.name.size() + 1)).z(f.name);
    for (std::size_t i = 0; i < f.files.size(); ++i) b.u32(0x11111111).u32(0x22222222).u32(0).u32(end);
  }
  for (const auto& f : folders)
    for (const auto& n : f.files) b.z(n);
  return b.b;
}

const std::vector<BsaFolder> kArchiveFolders = {
    {"meshes\\actors\\character\\facegendata\\facegeom\\mymod.esp", {"00012345.nif", "00054321.nif"}},
    {"sound\\voice\\mymod.esp\\malenord", {"myquest_mytopic_00012ab0_1.fuz"}},
    {"seq", {"mymod.seq"}},
    {"meshes\\clutter", {"bowl01.nif"}},
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// BSA names

TEST(BsaNames, ReadsSkyrimSEAndLEArchives) {
  for (std::uint32_t version : {105u, 104u}) {
    const auto bytes = make_bsa(version, kArchiveFolders);
    const BsaNames names = read_bsa_names(bytes, "MyMod.bsa");
    EXPECT_EQ(names.version, version);
    EXPECT_EQ(names.paths, (std::vector<std::string>{
                               "meshes\\actors\\character\\facegendata\\facegeom\\mymod.esp\\00012345.nif",
                               "meshes\\actors\\character\\facegendata\\facegeom\\mymod.esp\\00054321.nif",
                               "sound\\voice\\mymod.esp\\malenord\\myquest_mytopic_00012ab0_1.fuz",
                               "seq\\mymod.seq",
                               "meshes\\clutter\\bowl01.nif",
                           }));
  }
}

TEST(BsaNames, EveryTruncationIsAnErrorWithAnOffset) {
  const auto bytes = make_bsa(105, kArchiveFolders);
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    const std::vector<std::uint8_t> part(bytes.begin(), bytes.begin() + std::ptrdiff_t(cut));
    try {
      read_bsa_names(part, "MyMod.bsa");
      ADD_FAILURE() << "a cut at " << cut << " read";
    } catch (const Error& e) {
      EXPECT_EQ(e.file(), "MyMod.bsa");
      EXPECT_NE(e.offset(), Error::kNoOffset) << cut;
      EXPECT_LE(e.offset(), cut);
    }
  }
  // Cut inside the file-name block: the block is named.
  const std::vector<std::uint8_t> part(bytes.begin(), bytes.begin() + std::ptrdiff_t(bytes.size() - 3));
  const std::string message = test::error_message([&] { read_bsa_names(part, "MyMod.bsa"); });
  EXPECT_NE(message.find("MyMod.bsa: offset 0x"), std::string::npos) << message;
  EXPECT_NE(message.find("file-name block"), std::string::npos) << message;
}

TEST(BsaNames, DamagedHeadersAreErrors) {
  auto bytes = make_bsa(105, kArchiveFolders);
  auto with = [&](std::size_t at, std::uint32_t value) {
    auto b = bytes;
    le::store(b.data() + at, value);
    return b;
  };
  auto offset_of = [](const std::vector<std::uint8_t>& b) {
    try {
      read_bsa_names(b, "x.bsa");
    } catch (const Error& e) {
      return e.offset();
    }
    return Error::kNoOffset;
  };
  EXPECT_EQ(offset_of(with(0, 0x41534200)), 0u);          // magic
  EXPECT_EQ(offset_of(with(4, 103)), 4u);                  // Oblivion's version: not read
  EXPECT_EQ(offset_of(with(8, 0xFFFFFFF0)), 8u);           // folder records past the end
  EXPECT_EQ(offset_of(with(12, 0x1)), 12u);                // no file names stored
  EXPECT_EQ(offset_of(with(16, 0x7FFFFFFF)), 16u);         // more folders than bytes
  EXPECT_EQ(offset_of(with(20, 0x7FFFFFFF)), 20u);         // more files than bytes
  EXPECT_EQ(offset_of(with(20, 4)), 36u + 3 * 24 + 8);     // the fourth folder passes the header's count
  std::size_t names_length = 0;
  for (const auto& f : kArchiveFolders)
    for (const auto& n : f.files) names_length += n.size() + 1;
  EXPECT_EQ(offset_of(with(28, 0xFFFF)), bytes.size() - names_length);  // file-name block past the end
}

// ---------------------------------------------------------------------------------------------
// Planning

TEST(LooseFiles, PlanFindsTheFilesNamedByRenumberedFormIDs) {
  test::TempDir dir;
  const fs::path data = dir / "Data";
  make_data(data);
  const LooseFilePlan plan = plan_loose_files(data, "MyMod.esp", kMap, own_index(1));
  EXPECT_TRUE(plan.problems.empty()) << ::testing::PrintToString(messages(plan));
  EXPECT_EQ(change_list(plan), (std::vector<std::string>{
                                   std::string(kGeom) + "/00012345.nif -> 00000801.nif",
                                   "SEQ/MyMod.seq",
                                   std::string(kVoice) + "/FemaleYoungEager/My_Quest_Long_Topi_00012ab0_2.xwm -> "
                                                         "My_Quest_Long_Topi_00000802_2.xwm",
                                   std::string(kVoice) + "/MaleNord/MyQuest_MyTopic_00012AB0_1.fuz -> "
                                                         "MyQuest_MyTopic_00000802_1.fuz",
                                   std::string(kVoice) + "/MaleNord/MyQuest_MyTopic_00012AB0_1.lip -> "
                                                         "MyQuest_MyTopic_00000802_1.lip",
                                   std::string(kTint) + "/00012345.dds -> 00000801.dds",
                               }));
  // The head: only the digits of its own tint path (not another plugin's, not loose hex digits).
  const auto& head = plan.changes[0];
  EXPECT_EQ(head.kind, LooseFileKind::FaceGeom);
  ASSERT_EQ(head.patches.size(), 1u);
  const auto nif = fake_head(kHeadTint);
  const std::string nif_text = text(nif);
  EXPECT_EQ(head.patches[0].offset, nif_text.find(std::string(kHeadTint)) + kHeadTint.size() - 12);
  EXPECT_EQ(text(head.patches[0].before), "00012345");
  EXPECT_EQ(text(head.patches[0].after), "00000801");
  // The SEQ file: the plugin's own quest (top byte = its one master) only.
  const auto& seq = plan.changes[1];
  EXPECT_EQ(seq.kind, LooseFileKind::Seq);
  ASSERT_EQ(seq.patches.size(), 1u);
  EXPECT_EQ(seq.patches[0].offset, 0u);
  EXPECT_EQ(seq.patches[0].after, seq_bytes({0x01000803}));

  const auto lines = loose_file_lines(plan);
  EXPECT_EQ(lines[0], std::string(kGeom) + "/00012345.nif -> " + kGeom + "/00000801.nif (1 FormID rewritten)");
  EXPECT_EQ(lines[1], "SEQ/MyMod.seq: 1 FormID rewritten");
  const auto json = loose_files_json(plan);
  EXPECT_EQ(json["changes"].size(), 6u);
  EXPECT_EQ(json["changes"][1]["kind"], "seq");
  EXPECT_EQ(json["changes"][1]["patches"][0]["before"], "AAAA0101");
  EXPECT_EQ(json["changes"][1]["patches"][0]["after"], "03080001");
}

TEST(LooseFiles, NothingToDoWithoutRenumberedIds) {
  test::TempDir dir;
  make_data(dir / "Data");
  EXPECT_TRUE(plan_loose_files(dir / "Data", "MyMod.esp", {}, own_index(1)).empty());
  EXPECT_TRUE(plan_loose_files(dir / "Data", "MyMod.esp", {{0x012345, 0x012345}}, own_index(1)).empty());
  EXPECT_TRUE(plan_loose_files(dir / "Data", "Other.esp", kMap, own_index(1)).empty());
  EXPECT_THROW(plan_loose_files(dir / "Data", "MyMod.esp", {{0x1012345, 0x801}}), Error);
  EXPECT_THROW(plan_loose_files(dir / "Missing", "MyMod.esp", kMap), Error);
}

TEST(LooseFiles, HeadNotRenumberedIsPatchedWhenItNamesARenumberedTint) {
  test::TempDir dir;
  const fs::path data = dir / "Data";
  put(data / kGeom / "00054321.nif", fake_head(kHeadTint));
  const LooseFilePlan plan = plan_loose_files(data, "MyMod.esp", kMap);
  ASSERT_EQ(plan.changes.size(), 1u);
  EXPECT_FALSE(plan.changes[0].renamed());
  EXPECT_EQ(plan.changes[0].patches.size(), 1u);
}

TEST(LooseFiles, SeqOwnIndexComesFromThePluginHeader) {
  test::TempDir dir;
  const fs::path data = dir / "Data";
  put(data / "seq/mymod.SEQ", seq_bytes({0x0001AAAA, 0x0101AAAA, 0x0201AAAA}));
  // No plugin in Data: its own records cannot be told.
  LooseFilePlan plan = plan_loose_files(data, "MyMod.esp", kMap);
  ASSERT_EQ(plan.problems.size(), 1u);
  EXPECT_TRUE(plan.problems[0].error);
  EXPECT_NE(plan.problems[0].message.find("seq/mymod.SEQ: cannot tell the plugin's own quests"), std::string::npos);

  Plugin p = Plugin::create(Game::SkyrimSE, "MyMod.esp");
  p.set_masters({{"Skyrim.esm", 0}}, std::vector<std::uint32_t>{1});
  test::write_file(data / "mymod.ESP", p.serialize());
  plan = plan_loose_files(data, "MyMod.esp", kMap);
  ASSERT_TRUE(plan.problems.empty()) << ::testing::PrintToString(messages(plan));
  ASSERT_EQ(plan.changes.size(), 1u);
  ASSERT_EQ(plan.changes[0].patches.size(), 1u);
  EXPECT_EQ(plan.changes[0].patches[0].offset, 4u);  // 01xxxxxx: the plugin's own (one master)

  put(data / "seq/mymod.SEQ", {1, 2, 3, 4, 5});
  plan = plan_loose_files(data, "MyMod.esp", kMap);
  EXPECT_EQ(messages(plan), (std::vector<std::string>{
                                "error: seq/mymod.SEQ: 5 bytes is not a whole number of FormIDs (4 bytes each)"}));
}

// ---------------------------------------------------------------------------------------------
// Applying

TEST(LooseFiles, ApplyToAnOutputFolderLeavesDataAlone) {
  test::TempDir dir;
  const fs::path data = dir / "Data";
  const fs::path out = dir / "Out";
  make_data(data);
  const auto before = snapshot(data);
  const LooseFilePlan plan = plan_loose_files(data, "MyMod.esp", kMap, own_index(1));
  apply_loose_files(plan, data, out);
  EXPECT_EQ(snapshot(data), before);

  const auto written = snapshot(out);
  std::vector<std::string> names;
  for (const auto& [name, bytes] : written) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       std::string(kGeom) + "/00000801.nif",
                       "SEQ/MyMod.seq",
                       std::string(kVoice) + "/FemaleYoungEager/My_Quest_Long_Topi_00000802_2.xwm",
                       std::string(kVoice) + "/MaleNord/MyQuest_MyTopic_00000802_1.fuz",
                       std::string(kVoice) + "/MaleNord/MyQuest_MyTopic_00000802_1.lip",
                       std::string(kTint) + "/00000801.dds",
                   }));
  // The head: the tint path's 8 digits changed, nothing else.
  const auto& old_head = before.at(std::string(kGeom) + "/00012345.nif");
  const auto& new_head = written.at(std::string(kGeom) + "/00000801.nif");
  ASSERT_EQ(old_head.size(), new_head.size());
  std::string expected = text(old_head);
  const std::size_t tint = expected.find(std::string(kHeadTint));
  expected.replace(tint + kHeadTint.size() - 12, 8, "00000801");
  EXPECT_EQ(text(new_head), expected);
  EXPECT_EQ(text(written.at(std::string(kTint) + "/00000801.dds")), "DDS tint 12345");
  EXPECT_EQ(written.at("SEQ/MyMod.seq"), seq_bytes({0x01000803, 0x000ABCDE, 0x01054321}));

  // The output folder, read as a Data folder, needs nothing more.
  EXPECT_TRUE(plan_loose_files(out, "MyMod.esp", kMap, own_index(1)).empty());
}

TEST(LooseFiles, ApplyInPlaceRenamesAndPatches) {
  test::TempDir dir;
  const fs::path data = dir / "Data";
  make_data(data);
  const auto before = snapshot(data);
  apply_loose_files(plan_loose_files(data, "MyMod.esp", kMap, own_index(1)), data, std::nullopt);
  const auto after = snapshot(data);

  for (const char* gone : {"/00012345.nif"}) EXPECT_EQ(after.count(std::string(kGeom) + gone), 0u);
  EXPECT_EQ(after.count(std::string(kTint) + "/00012345.dds"), 0u);
  EXPECT_EQ(after.count(std::string(kVoice) + "/MaleNord/MyQuest_MyTopic_00012AB0_1.fuz"), 0u);
  EXPECT_EQ(text(after.at(std::string(kVoice) + "/MaleNord/MyQuest_MyTopic_00000802_1.fuz")), "fuz 1");
  EXPECT_EQ(text(after.at(std::string(kVoice) + "/MaleNord/MyQuest_MyTopic_00000802_1.lip")), "lip 1");
  EXPECT_EQ(text(after.at(std::string(kVoice) + "/FemaleYoungEager/My_Quest_Long_Topi_00000802_2.xwm")), "xwm 2");
  EXPECT_EQ(text(after.at(std::string(kTint) + "/00000801.dds")), "DDS tint 12345");
  EXPECT_EQ(after.at("SEQ/MyMod.seq"), seq_bytes({0x01000803, 0x000ABCDE, 0x01054321}));
  const std::string head = text(after.at(std::string(kGeom) + "/00000801.nif"));
  EXPECT_NE(head.find("FaceTint\\MyMod.esp\\00000801.dds"), std::string::npos);
  EXPECT_NE(head.find("facetint\\Other.esp\\00012345.dds"), std::string::npos);  // another plugin's: kept
  // Untouched: the files of ids not renumbered.
  for (const std::string& name : {std::string(kGeom) + "/00054321.nif", std::string(kTint) + "/00054321.dds",
                                 std::string(kVoice) + "/FemaleYoungEager/MyQuest_Other_00054321_1.fuz",
                                 std::string(kVoice) + "/FemaleYoungEager/Notes_1.fuz"})
    EXPECT_EQ(after.at(name), before.at(name)) << name;
  EXPECT_EQ(after.size(), before.size());

  // Planning again finds nothing to do.
  EXPECT_TRUE(plan_loose_files(data, "MyMod.esp", kMap, own_index(1)).empty());
}

TEST(LooseFiles, ACollisionIsAnErrorAndNothingIsWritten) {
  test::TempDir dir;
  const fs::path data = dir / "Data";
  make_data(data);
  put(data / kTint / "00000801.DDS", bytes_of("a record already in the light range"));
  const auto before = snapshot(data);
  const LooseFilePlan plan = plan_loose_files(data, "MyMod.esp", kMap, own_index(1));
  EXPECT_EQ(messages(plan), (std::vector<std::string>{
                                "error: " + std::string(kTint) + "/00000801.DDS: cannot rename " + kTint +
                                "/00012345.dds to it: the file exists already"}));
  EXPECT_TRUE(plan.has_errors());
  const std::string message = test::error_message([&] { apply_loose_files(plan, data, std::nullopt); });
  EXPECT_NE(message.find("the loose files are not changed: the plan has 1 error"), std::string::npos) << message;
  EXPECT_THROW(apply_loose_files(plan, data, dir / "Out"), Error);
  EXPECT_EQ(snapshot(data), before);
  EXPECT_FALSE(fs::exists(dir / "Out"));
}

TEST(LooseFiles, TwoFilesRenamedToOneNameIsAnError) {
  test::TempDir dir;
  const fs::path data = dir / "Data";
  put(data / kTint / "00012345.dds", bytes_of("a"));
  put(data / kTint / "00012345.DDS", bytes_of("b"));  // a case-sensitive file system holds both
  const LooseFilePlan plan = plan_loose_files(data, "MyMod.esp", kMap);
  EXPECT_EQ(messages(plan), (std::vector<std::string>{"error: " + std::string(kTint) + "/00012345.DDS and " + kTint +
                                                      "/00012345.dds would both be renamed to " + kTint +
                                                      "/00000801.dds"}));
}

TEST(LooseFiles, RenamesThatSwapNamesAreOrdered) {
  test::TempDir dir;
  const fs::path data = dir / "Data";
  put(data / kTint / "00000801.dds", bytes_of("was 801"));
  put(data / kTint / "00000802.dds", bytes_of("was 802"));
  put(data / kTint / "00000803.dds", bytes_of("was 803"));
  const std::map<std::uint32_t, std::uint32_t> swap = {{0x801, 0x802}, {0x802, 0x801}, {0x803, 0x804}};
  const LooseFilePlan plan = plan_loose_files(data, "MyMod.esp", swap);
  ASSERT_FALSE(plan.has_errors()) << ::testing::PrintToString(messages(plan));
  apply_loose_files(plan, data, std::nullopt);
  EXPECT_EQ(snapshot(data), (std::map<std::string, std::vector<std::uint8_t>>{
                                {std::string(kTint) + "/00000801.dds", bytes_of("was 802")},
                                {std::string(kTint) + "/00000802.dds", bytes_of("was 801")},
                                {std::string(kTint) + "/00000804.dds", bytes_of("was 803")},
                            }));
}

TEST(LooseFiles, ApplyRefusesAFileChangedSincePlanning) {
  test::TempDir dir;
  const fs::path data = dir / "Data";
  make_data(data);
  const LooseFilePlan plan = plan_loose_files(data, "MyMod.esp", kMap, own_index(1));
  put(data / "SEQ/MyMod.seq", seq_bytes({0x0101BBBB, 0x000ABCDE, 0x01054321}));
  const auto before = snapshot(data);
  const std::string message = test::error_message([&] { apply_loose_files(plan, data, std::nullopt); });
  EXPECT_NE(message.find("MyMod.seq: offset 0x0 (0): expected the bytes AAAA0101"), std::string::npos) << message;
  EXPECT_EQ(snapshot(data), before);
}

// ---------------------------------------------------------------------------------------------
// Archives

TEST(LooseFiles, ArchivedFilesOfRenumberedIdsAreListed) {
  test::TempDir dir;
  const fs::path data = dir / "Data";
  fs::create_directories(data);
  test::write_file(data / "MyMod.bsa", make_bsa(105, kArchiveFolders));
  test::write_file(data / "mymod - textures.BSA",
                   make_bsa(104, {{"textures\\actors\\character\\facegendata\\facetint\\mymod.esp",
                                   {"00012345.dds", "00054321.dds"}}}));
  test::write_file(data / "Other.bsa", make_bsa(105, kArchiveFolders));  // not the plugin's
  const LooseFilePlan plan = plan_loose_files(data, "MyMod.esp", kMap, own_index(1));
  EXPECT_TRUE(plan.changes.empty());
  EXPECT_FALSE(plan.has_errors());
  EXPECT_EQ(messages(plan),
            (std::vector<std::string>{
                "warning: MyMod.bsa holds meshes\\actors\\character\\facegendata\\facegeom\\mymod.esp\\00012345.nif, "
                "named by a renumbered FormID: not changed",
                "warning: MyMod.bsa holds sound\\voice\\mymod.esp\\malenord\\myquest_mytopic_00012ab0_1.fuz, named "
                "by a renumbered FormID: not changed",
                "warning: MyMod.bsa holds seq\\mymod.seq, the start-game-enabled quests by FormID, not read: not "
                "changed",
                "warning: mymod - textures.BSA holds "
                "textures\\actors\\character\\facegendata\\facetint\\mymod.esp\\00012345.dds, named by a renumbered "
                "FormID: not changed",
            }));
  LooseFileOptions no_archives = own_index(1);
  no_archives.check_archives = false;
  EXPECT_TRUE(plan_loose_files(data, "MyMod.esp", kMap, no_archives).empty());
}

TEST(LooseFiles, ADamagedArchiveIsAnError) {
  test::TempDir dir;
  const fs::path data = dir / "Data";
  fs::create_directories(data);
  auto bytes = make_bsa(105, kArchiveFolders);
  bytes.resize(100);
  test::write_file(data / "MyMod.bsa", bytes);
  const LooseFilePlan plan = plan_loose_files(data, "MyMod.esp", kMap, own_index(1));
  ASSERT_EQ(plan.problems.size(), 1u);
  EXPECT_TRUE(plan.problems[0].error);
  EXPECT_NE(plan.problems[0].message.find("MyMod.bsa: cannot list the archive: "), std::string::npos);
  EXPECT_NE(plan.problems[0].message.find(": offset 0x"), std::string::npos) << plan.problems[0].message;
  EXPECT_THROW(read_bsa_names(data / "MyMod.bsa"), Error);
}
