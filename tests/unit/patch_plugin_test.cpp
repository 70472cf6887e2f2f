// A patch plugin made on top of a load order: overrides copied with their FormIDs remapped, new
// records, masters in load order whatever order they were named in, the saved bytes read back.
#include <gtest/gtest.h>

#include "byte_builder.hpp"
#include "plugin_maker.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/patch/patch_plugin.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "test_support.hpp"

namespace tesmod::patch {
namespace {

namespace fs = std::filesystem;
using test::ByteBuilder;
using test::TestPlugin;
using test::TestRecord;

Field edid(const char* name) { return Field::zstring(Signature("EDID"), name); }
Field kwda(std::vector<std::uint32_t> ids) {
  ByteBuilder b;
  for (std::uint32_t id : ids) b.u32(id);
  return Field::bytes(Signature("KWDA"), b.b);
}
Field armo_data(std::int32_t value, float weight) { return Field::bytes(Signature("DATA"), ByteBuilder().i32(value).f32(weight).b); }

// A.esm defines a keyword, a weapon and an armor; B.esm (master A) a keyword of its own and the
// weapon with both keywords; C.esp (masters A, B) the armor heavier.
class PatchPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TestPlugin a;
    a.header_flags = record_flags::kMaster;
    a.records = {TestRecord(Signature("KYWD"), 0x000800, {edid("KwA")}),
                 TestRecord(Signature("WEAP"), 0x000801, {edid("Sword"), kwda({0x000800})}),
                 TestRecord(Signature("ARMO"), 0x000802, {edid("Cuirass"), armo_data(10, 5.0f)})};
    TestPlugin b;
    b.header_flags = record_flags::kMaster;
    b.masters = {"A.esm"};
    b.records = {TestRecord(Signature("KYWD"), 0x01000800, {edid("KwB")}),
                 TestRecord(Signature("WEAP"), 0x00000801, {edid("Sword"), kwda({0x000800, 0x01000800})})};
    TestPlugin c;
    c.masters = {"A.esm", "B.esm"};
    c.records = {TestRecord(Signature("ARMO"), 0x00000802, {edid("Cuirass"), armo_data(10, 8.0f)})};
    for (auto& [name, p] : {std::pair<std::string, TestPlugin&>{"A.esm", a}, {"B.esm", b}, {"C.esp", c}}) {
      test::write_plugin(dir_ / name, p);
      files_.push_back(dir_ / name);
    }
  }
  loadorder::LoadOrder open(bool with_patch = false) const {
    loadorder::LoadOrderSource s;
    s.files = files_;
    if (with_patch) s.files.push_back(dir_ / "Patch.esp");
    s.game = Game::SkyrimSE;
    s.threads = 1;
    return loadorder::LoadOrder::open(s);
  }
  test::TempDir dir_;
  std::vector<fs::path> files_;
};

std::vector<std::uint8_t> field_data(const Plugin& p, std::uint32_t form_id, Signature type) {
  const Record* r = p.find(form_id);
  if (!r) return {};
  const Field* f = r->find(type);
  return f ? f->data : std::vector<std::uint8_t>{};
}

TEST_F(PatchPluginTest, MastersInLoadOrderAndFormIdsRenumbered) {
  const loadorder::LoadOrder order = open();
  PatchPlugin patch(order, "Patch.esp");
  Inflater inflater;
  // B named first: held in the order named, saved in load order.
  patch.add_override(loadorder::FormKey{1, 0x800}, inflater);
  Record& weapon = patch.add_override(loadorder::FormKey{0, 0x801}, inflater);
  EXPECT_EQ(patch.form_of(weapon.form_id()), (loadorder::FormKey{0, 0x801}));
  EXPECT_EQ(patch.add_override(loadorder::FormKey{0, 0x801}, inflater).form_id(), weapon.form_id()) << "copied once";
  // A new keyword, added to the weapon's list.
  Record& kw = patch.add_record(Signature("KYWD"), {edid("KwPatch")});
  EXPECT_EQ(patch.form_of(kw.form_id()), (loadorder::FormKey{patch.own_position(), 0x800}));
  std::vector<std::uint8_t>& list = weapon.edit_fields()[1].data;
  const std::uint32_t held = kw.form_id();
  list.insert(list.end(), {std::uint8_t(held), std::uint8_t(held >> 8), std::uint8_t(held >> 16), std::uint8_t(held >> 24)});

  PatchPluginSaved saved = patch.save(dir_ / "Patch.esp");
  EXPECT_EQ(saved.masters, (std::vector<std::string>{"A.esm", "B.esm"}));
  EXPECT_EQ(saved.overrides, 2u);
  EXPECT_EQ(saved.new_records, 1u);
  EXPECT_TRUE(saved.light);
  EXPECT_EQ(saved.next_object_id, 0x801u);
  EXPECT_TRUE(saved.unchanged.size() == 1 && saved.unchanged[0].type == Signature("KYWD")) << "the keyword is an ITPO";

  const Plugin written = Plugin::open(dir_ / "Patch.esp");
  const FileHeader h = written.header();
  ASSERT_EQ(h.masters.size(), 2u);
  EXPECT_EQ(h.masters[0].name, "A.esm");
  EXPECT_EQ(h.masters[1].name, "B.esm");
  EXPECT_EQ(h.next_object_id, 0x801u);
  EXPECT_TRUE(h.is_light());
  EXPECT_EQ(field_data(written, 0x00000801, Signature("KWDA")), ByteBuilder().u32(0x00000800).u32(0x01000800).u32(0x02000800).b);
  EXPECT_NE(written.find(0x01000800), nullptr);
  EXPECT_NE(written.find(0x02000800), nullptr);

  // Read with the order, the patch wins the weapon, and its keywords name the forms they should.
  const loadorder::LoadOrder with = open(true);
  const auto winner = with.winner(loadorder::FormKey{0, 0x801});
  ASSERT_TRUE(winner);
  EXPECT_EQ(with.plugin(winner->plugin).name, "Patch.esp");
  EXPECT_EQ(with.key(3, 0x02000800), (loadorder::FormKey{3, 0x800}));
}

TEST_F(PatchPluginTest, TheSameEditsInAnotherOrderGiveTheSameBytes) {
  const loadorder::LoadOrder order = open();
  Inflater inflater;
  PatchPlugin one(order, "Patch.esp"), two(order, "Patch.esp");
  one.add_override(loadorder::FormKey{0, 0x802}, inflater);
  one.add_override(loadorder::FormKey{1, 0x800}, inflater);
  one.add_override(loadorder::FormKey{0, 0x801}, inflater);
  two.add_override(loadorder::FormKey{0, 0x801}, inflater);
  two.add_override(loadorder::FormKey{0, 0x802}, inflater);
  two.add_override(loadorder::FormKey{1, 0x800}, inflater);
  EXPECT_EQ(one.bytes(), two.bytes());
  EXPECT_EQ(one.bytes(), one.bytes());
}

TEST_F(PatchPluginTest, ReportsOverridesLeftAsCopiedAndDropsUnusedMasters) {
  const loadorder::LoadOrder order = open();
  Inflater inflater;
  PatchPlugin patch(order, "Patch.esp");
  Record& armor = patch.add_override(loadorder::FormKey{0, 0x802}, inflater);  // C's version wins
  patch.add_override(loadorder::FormKey{1, 0x800}, inflater);
  PatchPluginSaved saved;
  patch.bytes(&saved);
  ASSERT_EQ(saved.unchanged.size(), 2u);  // in the order written: KYWD's group before ARMO's
  EXPECT_EQ(saved.unchanged[0].form, (loadorder::FormKey{1, 0x800}));
  EXPECT_EQ(saved.unchanged[1].form, (loadorder::FormKey{0, 0x802}));
  EXPECT_EQ(saved.unchanged[1].copied_from, 2u) << "C's version was copied";
  EXPECT_EQ(saved.unchanged[1].editor_id, "Cuirass");
  // Halved weight: no longer unchanged.
  Field& data = armor.edit_fields()[1];
  le::store(data.data.data() + 4, 4.0f);
  patch.bytes(&saved);
  EXPECT_EQ(saved.unchanged.size(), 1u);
  // B's keyword taken out again: B is no longer a master.
  EXPECT_TRUE(patch.remove(loadorder::FormKey{1, 0x800}));
  EXPECT_FALSE(patch.remove(loadorder::FormKey{1, 0x800}));
  patch.bytes(&saved);
  EXPECT_EQ(saved.masters, std::vector<std::string>{"A.esm"});
  EXPECT_EQ(saved.records, 1u);
}

TEST_F(PatchPluginTest, NewRecordsPastTheLightRangeAreNotFlagged) {
  const loadorder::LoadOrder order = open();
  PatchPlugin patch(order, "Patch.esp");
  for (int i = 0; i < 2049; ++i) patch.add_record(Signature("KYWD"), {edid("Kw")});
  PatchPluginSaved saved;
  const std::vector<std::uint8_t> bytes = patch.bytes(&saved);
  EXPECT_FALSE(saved.light) << "2,049 new records do not fit 0x800..0xFFF";
  EXPECT_EQ(saved.next_object_id, 0x1001u);
  EXPECT_TRUE(saved.masters.empty());
}

TEST_F(PatchPluginTest, RefusesWhatItCannotDo) {
  const loadorder::LoadOrder order = open();
  EXPECT_THROW(PatchPlugin(order, "b.ESM"), Error) << "a plugin of the order";
  PatchPlugin patch(order, "Patch.esp");
  EXPECT_THROW(patch.add_record(Signature("REFR"), {}), Error) << "lives in a cell";
  EXPECT_THROW(patch.add_record(Signature("CELL"), {}), Error);
  const auto before = fs::file_size(dir_ / "C.esp");
  try {
    patch.save(dir_ / "C.esp");
    FAIL() << "saved over a plugin of the order";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a plugin of the load order"), std::string::npos) << e.what();
  }
  EXPECT_EQ(fs::file_size(dir_ / "C.esp"), before);
  Inflater inflater;
  EXPECT_THROW(patch.add_override(loadorder::FormKey{0, 0x999}, inflater), Error) << "no such record";
  // A field holding a FormID whose top byte names no plugin the patch has named.
  patch.add_record(Signature("WEAP"), {edid("Bad"), kwda({0x05000800})});
  EXPECT_THROW(patch.bytes(), Error);
}

}  // namespace
}  // namespace tesmod::patch
