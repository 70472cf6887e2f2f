// FormID compaction (light/compact.hpp) on plugins made to order: which records move where, every
// kind of reference rewritten in the plugin and its dependants, interior cells moved to their new
// block, untouched records byte for byte, compaction of a compacted plugin changing nothing.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>

#include "plugin_maker.hpp"
#include "test_support.hpp"
#include "tesmod/fields/vmad.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/light/compact.hpp"
#include "tesmod/plugin/group_type.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod {
namespace {

namespace fs = std::filesystem;
using test::TestPlugin;
using test::TestRecord;

Field u32s(Signature type, std::initializer_list<std::uint32_t> values) {
  std::vector<std::uint8_t> data(values.size() * 4);
  std::size_t k = 0;
  for (std::uint32_t v : values) le::store(data.data() + 4 * k++, v);
  return Field::bytes(type, data);
}

Field lvlo(std::uint32_t item) {
  std::vector<std::uint8_t> d(12, 0);
  d[0] = 1;
  le::store(d.data() + 4, item);
  d[8] = 1;
  return Field::bytes(Signature("LVLO"), d);
}

// GetIsID (function 72) on a form.
Field ctda_get_is_id(std::uint32_t form) {
  std::vector<std::uint8_t> d(32, 0);
  const float one = 1.0f;
  std::memcpy(d.data() + 4, &one, 4);
  d[8] = 72;
  le::store(d.data() + 12, form);
  return Field::bytes(Signature("CTDA"), d);
}

Field vmad_object(std::uint32_t form) {
  fields::Vmad v;
  fields::Script s;
  s.name = "TestScript";
  s.properties.push_back({"Target", fields::Property::kEdited, fields::VmadObject::form(form)});
  v.scripts.push_back(s);
  return Field::bytes(Signature("VMAD"), fields::encode_vmad(v));
}

loadorder::LoadOrder open_order(const fs::path& data, std::optional<Game> game) {
  loadorder::LoadOrderSource source;
  source.data = data;
  source.game = game;
  return loadorder::LoadOrder::open(source);
}

Field edid(const std::string& text) { return Field::zstring(Signature("EDID"), text); }

class EslCompact : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    TestPlugin master;
    master.header_flags = record_flags::kMaster;
    master.records.push_back(TestRecord(Signature("KYWD"), 0x00000801, {edid("MasterKeyword")}));
    test::write_plugin(dir_ / "Base.esm", master, 1000);
  }

  // The mod: keywords at 0x900 (in range), 0x012345 and 0x000100 (outside 800-FFF), a misc item
  // using two of them, a leveled list of the item, an interior cell at 0x02000A (block 0,
  // sub-block 0) with a reference placed in it.
  TestPlugin mod() const {
    TestPlugin p;
    p.masters = {"Base.esm"};
    p.records.push_back(TestRecord(Signature("KYWD"), 0x01000900, {edid("KeepMe")}));
    p.records.push_back(TestRecord(Signature("KYWD"), 0x01012345, {edid("MoveMe")}));
    p.records.push_back(TestRecord(Signature("KYWD"), 0x01000100, {edid("MoveMeToo")}));
    p.records.push_back(TestRecord(Signature("MISC"), 0x01000901,
                                   {edid("Thing"), u32s("KSIZ", {3}), u32s("KWDA", {0x01012345, 0x00000801, 0x01000100})}));
    p.records.push_back(TestRecord(Signature("LVLI"), 0x01000902, {edid("List"), lvlo(0x01000901), lvlo(0x01012345)}));
    return p;
  }

  // Compacts Mod.esp (and its dependants) with these options; the files written, by name.
  std::map<std::string, std::vector<std::uint8_t>> compact(const light::CompactOptions& options = {},
                                                           light::CompactPlan* plan_out = nullptr) const {
    const auto order = open_order(dir_, Game::SkyrimSE);
    const auto plan = light::plan_compaction(order, *order.find("Mod.esp"), options);
    std::map<std::string, std::vector<std::uint8_t>> out;
    for (auto& f : light::compact_files(order, plan)) out[f.name] = std::move(f.bytes);
    if (plan_out) *plan_out = plan;
    return out;
  }

  // Every record of a file: FormID -> (type, the body as stored).
  static std::map<std::uint32_t, std::pair<Signature, std::vector<std::uint8_t>>> records(const std::vector<std::uint8_t>& bytes) {
    const PluginFile file = PluginFile::parse(FileBytes::hold(bytes, "x.esp"));
    std::map<std::uint32_t, std::pair<Signature, std::vector<std::uint8_t>>> out;
    for (const IndexEntry& e : file.entries().subspan(1))
      if (!e.is_group()) {
        Inflater inflater;
        const auto body = file.body(e, inflater);
        out[e.id] = {e.type, {body.begin(), body.end()}};
      }
    return out;
  }

  test::TempDir tmp_;
  fs::path dir_;
};

TEST_F(EslCompact, PlansLowestFreeIdsInFormIdOrderAndKeepsTheRest) {
  test::write_plugin(dir_ / "Mod.esp", mod(), 2000);
  const auto order = open_order(dir_, Game::SkyrimSE);
  const auto plan = light::plan_compaction(order, *order.find("Mod.esp"));
  EXPECT_EQ(plan.new_records, 5u);
  ASSERT_EQ(plan.renumbered.size(), 2u);
  // 0x100 before 0x12345; 0x800 is free (the master's 0x801 is not this plugin's).
  EXPECT_EQ(plan.renumbered[0].from, 0x01000100u);
  EXPECT_EQ(plan.renumbered[0].to, 0x01000800u);
  EXPECT_EQ(plan.renumbered[1].from, 0x01012345u);
  EXPECT_EQ(plan.renumbered[1].to, 0x01000801u);
  EXPECT_EQ(plan.next_object_id, 0x903u);
}

std::uint32_t u32_at(const std::vector<std::uint8_t>& body, Signature field, std::size_t offset) {
  std::size_t p = 0;
  while (p + 6 <= body.size()) {
    const Signature t = Signature::from_value(le::u32(body.data() + p));
    const std::uint16_t size = le::u16(body.data() + p + 4);
    if (t == field) return le::u32(body.data() + p + 6 + offset);
    p += 6 + size;
  }
  ADD_FAILURE() << "no " << field.str();
  return 0;
}

TEST_F(EslCompact, RewritesThePluginItsDependantsAndTheirOverrides) {
  TestPlugin m = mod();
  m.records.push_back(TestRecord(Signature("REFR"), 0x01000903, {edid("MyRef"), u32s("NAME", {0x01000901})}));
  m.cell = 0x0101000A;
  test::write_plugin(dir_ / "Mod.esp", m, 2000);
  // A dependant: overrides a moved keyword and the cell, names the moved records in a leveled
  // list, a condition and a script property, and has an untouched record.
  TestPlugin dep;
  dep.masters = {"Base.esm", "Mod.esp"};
  dep.records.push_back(TestRecord(Signature("KYWD"), 0x01012345, {edid("MoveMeChanged")}));
  dep.records.push_back(TestRecord(Signature("LVLI"), 0x02000800, {edid("DepList"), lvlo(0x01012345), lvlo(0x00000801)}));
  dep.records.push_back(TestRecord(Signature("SPEL"), 0x02000801, {edid("DepSpell"), vmad_object(0x01000100), ctda_get_is_id(0x01012345)}));
  dep.records.push_back(TestRecord(Signature("KYWD"), 0x02000802, {edid("Untouched")}));
  test::write_plugin(dir_ / "Dep.esp", dep, 3000);
  // Another plugin that does not name Mod.esp is left alone.
  TestPlugin other;
  other.masters = {"Base.esm"};
  other.records.push_back(TestRecord(Signature("LVLI"), 0x01000800, {edid("OtherList"), lvlo(0x01012345)}));
  test::write_plugin(dir_ / "Other.esp", other, 4000);

  light::CompactPlan plan;
  const auto written = compact({}, &plan);
  ASSERT_EQ(written.size(), 2u);
  ASSERT_TRUE(written.contains("Mod.esp"));
  ASSERT_TRUE(written.contains("Dep.esp"));
  ASSERT_EQ(plan.renumbered.size(), 3u);  // 0x100, 0x1000A (the cell), 0x12345
  EXPECT_EQ(plan.object_map.at(0x000100), 0x800u);
  EXPECT_EQ(plan.object_map.at(0x01000A), 0x801u);
  EXPECT_EQ(plan.object_map.at(0x012345), 0x802u);

  const auto mod_records = records(written.at("Mod.esp"));
  EXPECT_TRUE(mod_records.contains(0x01000800));
  EXPECT_TRUE(mod_records.contains(0x01000802));
  EXPECT_FALSE(mod_records.contains(0x01012345));
  const auto& thing = mod_records.at(0x01000901).second;
  EXPECT_EQ(u32_at(thing, Signature("KWDA"), 0), 0x01000802u);
  EXPECT_EQ(u32_at(thing, Signature("KWDA"), 4), 0x00000801u);  // the master's, not Mod's
  EXPECT_EQ(u32_at(thing, Signature("KWDA"), 8), 0x01000800u);
  EXPECT_EQ(u32_at(mod_records.at(0x01000902).second, Signature("LVLO"), 4), 0x01000901u);  // kept id
  // The cell moved to block 1, sub-block 0 (0x801 = 2049), with its children group relabelled.
  const PluginFile mod_file = PluginFile::parse(FileBytes::hold(written.at("Mod.esp"), "Mod.esp"));
  const auto entries = mod_file.entries();
  bool cell_found = false, children_found = false;
  for (const IndexEntry& e : entries) {
    if (!e.is_group() && e.id == 0x01000801) {
      cell_found = true;
      const IndexEntry& sub = entries[e.parent];
      const IndexEntry& block = entries[sub.parent];
      EXPECT_EQ(sub.group_type(), std::int32_t(GroupType::InteriorCellSubBlock));
      EXPECT_EQ(sub.id, 4u);  // 2049 / 10 % 10
      EXPECT_EQ(block.id, 9u);  // 2049 % 10
    }
    if (e.is_group() && e.group_type() == std::int32_t(GroupType::CellChildren)) {
      children_found = true;
      EXPECT_EQ(e.id, 0x01000801u);
    }
  }
  EXPECT_TRUE(cell_found);
  EXPECT_TRUE(children_found);
  EXPECT_EQ(mod_file.header().next_object_id, 0x904u);

  const auto dep_records = records(written.at("Dep.esp"));
  EXPECT_TRUE(dep_records.contains(0x01000802));  // the override follows
  EXPECT_FALSE(dep_records.contains(0x01012345));
  EXPECT_EQ(u32_at(dep_records.at(0x02000800).second, Signature("LVLO"), 4), 0x01000802u);
  EXPECT_EQ(u32_at(dep_records.at(0x02000801).second, Signature("CTDA"), 12), 0x01000802u);
  const auto vmad = fields::decode_vmad(
      [&] {
        const auto& body = dep_records.at(0x02000801).second;
        const std::uint16_t size = le::u16(body.data() + 4 + 6 + 9);  // after EDID "DepSpell\0"
        (void)size;
        std::size_t p = 0;
        while (Signature::from_value(le::u32(body.data() + p)) != Signature("VMAD")) p += 6 + le::u16(body.data() + p + 4);
        return std::span<const std::uint8_t>(body.data() + p + 6, le::u16(body.data() + p + 4));
      }(),
      Signature("SPEL"), ErrorContext{"Dep.esp", Error::kNoOffset, std::nullopt});
  EXPECT_EQ(std::get<fields::VmadObject>(vmad.scripts.at(0).properties.at(0).value).form_id, 0x01000800u);

  // Untouched records keep their bytes, in the plugin and the dependant.
  const auto before_dep = records(test::read_file(dir_ / "Dep.esp"));
  EXPECT_EQ(dep_records.at(0x02000802), before_dep.at(0x02000802));
  const auto before_mod = records(test::read_file(dir_ / "Mod.esp"));
  EXPECT_EQ(mod_records.at(0x01000900), before_mod.at(0x01000900));

  // Compacting the result changes nothing.
  for (const auto& [name, bytes] : written) test::write_file(dir_ / name, bytes);
  light::CompactPlan again;
  EXPECT_TRUE(compact({}, &again).empty());
  EXPECT_TRUE(again.renumbered.empty());
  EXPECT_FALSE(again.changes());
}

TEST_F(EslCompact, Hedr171UsesTheLowRangeOnlyWhenTheHighIsFullAndSetsTheDependants) {
  TestPlugin m;
  m.masters = {"Base.esm"};
  for (std::uint32_t k = 0; k < 2100; ++k) m.records.push_back(TestRecord(Signature("KYWD"), 0x01010000 + k));
  test::write_plugin(dir_ / "Mod.esp", m, 2000);
  TestPlugin dep;
  dep.masters = {"Base.esm", "Mod.esp"};
  dep.records.push_back(TestRecord(Signature("KYWD"), 0x02000800, {edid("Dep")}));
  test::write_plugin(dir_ / "Dep.esp", dep, 3000);

  const std::string without = test::error_message([&] { compact(); });
  EXPECT_NE(without.find("2100 new records do not fit the light range 800-FFF (2048 ids)"), std::string::npos) << without;
  EXPECT_NE(without.find("--hedr 1.71"), std::string::npos) << without;

  light::CompactOptions options;
  options.hedr171 = true;
  light::CompactPlan plan;
  const auto written = compact(options, &plan);
  EXPECT_EQ(plan.object_map.at(0x010000), 0x800u);
  EXPECT_EQ(plan.object_map.at(0x010000 + 2047), 0xFFFu);
  EXPECT_EQ(plan.object_map.at(0x010000 + 2048), 0x001u);
  EXPECT_EQ(plan.object_map.at(0x010000 + 2099), 0x034u);
  ASSERT_EQ(plan.dependants_to_171.size(), 1u);
  const PluginFile mod_file = PluginFile::parse(FileBytes::hold(written.at("Mod.esp"), "Mod.esp"));
  EXPECT_FLOAT_EQ(mod_file.header().version, 1.71f);
  const PluginFile dep_file = PluginFile::parse(FileBytes::hold(written.at("Dep.esp"), "Dep.esp"));
  EXPECT_FLOAT_EQ(dep_file.header().version, 1.71f);
  // The dependant's record itself is unchanged.
  EXPECT_EQ(records(written.at("Dep.esp")), records(test::read_file(dir_ / "Dep.esp")));

  TestPlugin too_many;
  too_many.masters = {"Base.esm"};
  for (std::uint32_t k = 0; k < 4096; ++k) too_many.records.push_back(TestRecord(Signature("KYWD"), 0x01010000 + k));
  test::write_plugin(dir_ / "Mod.esp", too_many, 2000);
  const std::string full = test::error_message([&] { compact(options); });
  EXPECT_NE(full.find("4096 new records do not fit the light range 001-FFF (4095 ids): the plugin cannot be light"),
            std::string::npos)
      << full;
}

TEST_F(EslCompact, AReferenceToAnIdThatNoRecordHasStopsIt) {
  TestPlugin m = mod();
  // 0x800 has no record, and the plan gives it to 0x100.
  m.records.push_back(TestRecord(Signature("LVLI"), 0x01000903, {edid("Dangling"), lvlo(0x01000800)}));
  test::write_plugin(dir_ / "Mod.esp", m, 2000);
  const std::string message = test::error_message([&] { compact(); });
  EXPECT_NE(message.find("Mod.esp"), std::string::npos) << message;
  EXPECT_NE(message.find("LVLI [01000903] 'Dangling'"), std::string::npos) << message;
  EXPECT_NE(message.find("holds 01000800, an id of Mod.esp that no record has; compaction gives that id to the record "
                         "now at 01000100"),
            std::string::npos)
      << message;
}

TEST_F(EslCompact, AnEsmDependantsOnamFollows) {
  test::write_plugin(dir_ / "Mod.esp", mod(), 2000);
  TestPlugin dep;
  dep.header_flags = record_flags::kMaster;
  dep.masters = {"Base.esm", "Mod.esp"};
  dep.records.push_back(TestRecord(Signature("KYWD"), 0x01012345, {edid("Override")}));
  dep.records.push_back(TestRecord(Signature("KYWD"), 0x01000900, {edid("OverrideKept")}));
  Plugin model = Plugin::from_file(PluginFile::parse(FileBytes::hold(test::make_plugin(dep), "Dep.esm")));
  model.header_record().set(u32s(Signature("ONAM"), {0x01000900, 0x01012345}));
  model.save(dir_ / "Dep.esm");
  const auto written = compact();
  ASSERT_TRUE(written.contains("Dep.esm"));
  const PluginFile file = PluginFile::parse(FileBytes::hold(written.at("Dep.esm"), "Dep.esm"));
  EXPECT_EQ(file.header().overridden_forms, (std::vector<std::uint32_t>{0x01000900, 0x01000801}));
  EXPECT_TRUE(file.find_form_id(0x01000801).has_value());
}

TEST_F(EslCompact, FlagAndHeaderOnlyWhenAsked) {
  TestPlugin m;
  m.masters = {"Base.esm"};
  m.records.push_back(TestRecord(Signature("KYWD"), 0x01000800, {edid("InRange")}));
  test::write_plugin(dir_ / "Mod.esp", m, 2000);
  light::CompactPlan plan;
  EXPECT_TRUE(compact({}, &plan).empty());
  EXPECT_FALSE(plan.changes());
  light::CompactOptions options;
  options.flag = true;
  const auto written = compact(options, &plan);
  ASSERT_EQ(written.size(), 1u);
  const PluginFile file = PluginFile::parse(FileBytes::hold(written.at("Mod.esp"), "Mod.esp"));
  EXPECT_TRUE(file.header().flags & record_flags::kLight);
  EXPECT_EQ(records(written.at("Mod.esp")), records(test::read_file(dir_ / "Mod.esp")));
}

TEST_F(EslCompact, OnlySkyrimSe) {
  TestPlugin m;
  m.game = Game::Oblivion;
  test::write_plugin(dir_ / "Mod.esp", m, 2000);
  fs::remove(dir_ / "Base.esm");
  const auto order = open_order(dir_, std::nullopt);
  const std::string message = test::error_message([&] { light::plan_compaction(order, *order.find("Mod.esp")); });
  EXPECT_NE(message.find("light plugins are Skyrim SE's; this load order is Oblivion"), std::string::npos) << message;
}

}  // namespace
}  // namespace tesmod
