// PluginOutline: the top level read at open, groups on demand, and which groups a type is read
// from, on small plugins built for each case.
#include <gtest/gtest.h>

#include <map>

#include "sample_builder.hpp"
#include "test_support.hpp"
#include "tesmod/plugin/editor_ids.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/plugin_outline.hpp"
#include "tesmod/plugin/record_flags.hpp"

using namespace tesmod;

namespace {

std::shared_ptr<const FileBytes> hold(Plugin&& p) { return FileBytes::hold(p.serialize(), "test.esp"); }

// Offsets of the records of one type the outline reads, in order.
std::vector<std::uint64_t> outline_offsets(PluginOutline& o, Signature type) {
  std::vector<std::uint64_t> out;
  for (std::size_t g : o.groups_holding(type))
    for (const IndexEntry& e : o.group(g))
      if (!e.is_group() && e.type == type) out.push_back(e.offset);
  return out;
}

std::vector<std::uint64_t> full_offsets(const PluginFile& f, Signature type) {
  std::vector<std::uint64_t> out;
  for (const IndexEntry& e : f.entries().subspan(1))
    if (!e.is_group() && e.type == type) out.push_back(e.offset);
  return out;
}

Record named(const char (&type)[5], std::uint32_t id, const std::string& edid) {
  return Record(Signature(type), id, {Field::zstring("EDID", edid)});
}

}  // namespace

TEST(PluginOutline, ReadsTheTopLevelAndAGroupOnlyWhenAsked) {
  const auto bytes = hold(samples::oblivion_sample());
  PluginOutline o = PluginOutline::parse(bytes);
  const PluginFile f = PluginFile::parse(bytes);
  EXPECT_EQ(o.game(), Game::Oblivion);
  EXPECT_TRUE(o.game_is_known());
  EXPECT_EQ(o.header().masters.size(), f.header().masters.size());
  std::vector<std::uint32_t> top;
  for (std::uint32_t i = 1; i < f.entries().size(); ++i)
    if (f.entry(i).parent == kNoParent) top.push_back(i);
  ASSERT_EQ(o.top_groups().size(), top.size());
  for (std::size_t g = 0; g < top.size(); ++g) {
    EXPECT_FALSE(o.group_is_indexed(g));
    const IndexEntry& want = f.entry(top[g]);
    const auto got = o.group(g);
    EXPECT_TRUE(o.group_is_indexed(g));
    // The group and its contents: the full index's entries, parents and ends made relative.
    ASSERT_EQ(got.size(), want.end - top[g]);
    for (std::uint32_t k = 0; k < got.size(); ++k) {
      const IndexEntry& a = got[k];
      const IndexEntry& b = f.entry(top[g] + k);
      EXPECT_EQ(a.offset, b.offset);
      EXPECT_EQ(a.type, b.type);
      EXPECT_EQ(a.size, b.size);
      EXPECT_EQ(a.flags, b.flags);
      EXPECT_EQ(a.id, b.id);
      EXPECT_EQ(a.end, b.end - top[g]);
      EXPECT_EQ(a.parent, k == 0 ? kNoParent : b.parent - top[g]);
    }
  }
}

TEST(PluginOutline, ReadsPlacedTypesFromCellsAndWorldsAndInfosFromTopics) {
  const auto bytes = hold(samples::oblivion_sample());
  PluginOutline o = PluginOutline::parse(bytes);
  const PluginFile f = PluginFile::parse(bytes);
  std::size_t checked = 0;
  for (const auto& [type, count] : f.stats().records_by_type) {
    EXPECT_EQ(outline_offsets(o, type), full_offsets(f, type)) << type.str();
    ++checked;
  }
  EXPECT_GE(checked, 5u);
  // A type the plugin does not have: nothing, wherever it could be.
  EXPECT_TRUE(outline_offsets(o, Signature("ACRE")).empty());
}

TEST(PluginOutline, AGroupLabelledWithANestedTypeDoesNotHideTheCells) {
  Plugin p = Plugin::create(Game::SkyrimLE, "t.esp");
  Group cell_top = Group::top(Signature("CELL"));
  cell_top.children.push_back(named("CELL", 0x800, "SomeCell"));
  Group children;
  children.header.type = 6;  // cell children
  children.header.label = 0x800;
  Group temporary;
  temporary.header.type = 9;
  temporary.header.label = 0x800;
  temporary.children.push_back(named("REFR", 0x801, "PlacedThing"));
  children.children.push_back(std::move(temporary));
  cell_top.children.push_back(std::move(children));
  p.top().push_back(std::move(cell_top));
  // A (malformed) top-level group of REFR besides.
  Group refr_top = Group::top(Signature("REFR"));
  refr_top.children.push_back(named("REFR", 0x802, "Stray"));
  p.top().push_back(std::move(refr_top));
  const auto bytes = hold(std::move(p));
  PluginOutline o = PluginOutline::parse(bytes);
  EXPECT_EQ(outline_offsets(o, Signature("REFR")), full_offsets(PluginFile::parse(bytes), Signature("REFR")));
  EXPECT_EQ(outline_offsets(o, Signature("REFR")).size(), 2u);
}

TEST(PluginOutline, ARecordInAnotherTypesGroupIsForAFullIndexOnly) {
  Plugin p = Plugin::create(Game::SkyrimLE, "t.esp");
  p.add(named("NPC_", 0x800, "Guard"));
  p.add(named("ARMO", 0x801, "Helmet"));
  p.top_group(Signature("ARMO")).children.push_back(named("NPC_", 0x802, "Misplaced"));
  const auto bytes = hold(std::move(p));
  PluginOutline o = PluginOutline::parse(bytes);
  // As documented: the outline reads NPC_ from the NPC_ group; the full index sees both.
  EXPECT_EQ(outline_offsets(o, Signature("NPC_")).size(), 1u);
  EXPECT_EQ(full_offsets(PluginFile::parse(bytes), Signature("NPC_")).size(), 2u);
  // A type with a group of its own, not nested anywhere, is read from that group alone.
  EXPECT_EQ(o.groups_holding(Signature("ARMO")).size(), 1u);
}

TEST(PluginOutline, TellsWhetherTheHeaderAloneDecidesLeOrSe) {
  auto skyrim = [](std::uint16_t form_version, float hedr, std::uint32_t header_flags) {
    return FileBytes::hold(test::tiny_skyrim(form_version, hedr, header_flags), "t.esp");
  };
  const PluginOutline se_by_records = PluginOutline::parse(skyrim(44, 1.7f, 0));
  EXPECT_FALSE(se_by_records.game_is_known());
  EXPECT_EQ(se_by_records.index_all().game(), Game::SkyrimSE);
  const PluginOutline le = PluginOutline::parse(skyrim(43, 1.7f, 0));
  EXPECT_FALSE(le.game_is_known());
  EXPECT_EQ(le.index_all().game(), Game::SkyrimLE);
  const PluginOutline se_by_hedr = PluginOutline::parse(skyrim(43, 1.71f, 0));
  EXPECT_TRUE(se_by_hedr.game_is_known());
  EXPECT_EQ(se_by_hedr.game(), Game::SkyrimSE);
  const PluginOutline se_by_esl = PluginOutline::parse(skyrim(43, 1.7f, record_flags::kLight));
  EXPECT_TRUE(se_by_esl.game_is_known());
  EXPECT_EQ(se_by_esl.game(), Game::SkyrimSE);
}

TEST(PluginOutline, DamageIsReportedAsAFullOpenReportsIt) {
  Plugin p = Plugin::create(Game::SkyrimLE, "t.esp");
  p.add(named("NPC_", 0x800, "Guard"));
  p.add(named("ARMO", 0x801, "Helmet"));
  const std::vector<std::uint8_t> good = p.serialize();
  auto message = [](auto&& f) { return test::error_message(f); };
  // Inside a group: the outline opens, and the group's first read raises the full open's error.
  const PluginFile f = PluginFile::parse(FileBytes::hold(good, "t.esp"));
  std::vector<std::uint8_t> inner = good;
  const std::uint32_t armo = [&] {
    for (std::uint32_t i = 1; i < f.entries().size(); ++i)
      if (f.entry(i).type == Signature("ARMO")) return i;
    return 0u;
  }();
  ASSERT_NE(armo, 0u);
  std::copy_n("a!b?", 4, inner.begin() + std::ptrdiff_t(f.entry(armo).offset));
  const auto damaged = FileBytes::hold(inner, "t.esp");
  const std::string full = message([&] { PluginFile::parse(damaged); });
  ASSERT_FALSE(full.empty());
  PluginOutline o = PluginOutline::parse(damaged);
  EXPECT_EQ(outline_offsets(o, Signature("NPC_")).size(), 1u);  // the sound group still reads
  EXPECT_EQ(message([&] { outline_offsets(o, Signature("ARMO")); }), full);
  // At the top level: the outline's open fails as the full open does.
  std::vector<std::uint8_t> cut(good.begin(), good.end() - 3);
  const auto short_file = FileBytes::hold(cut, "t.esp");
  const std::string full_cut = message([&] { PluginFile::parse(short_file); });
  ASSERT_FALSE(full_cut.empty());
  EXPECT_EQ(message([&] { PluginOutline::parse(short_file); }), full_cut);
}

TEST(PluginOutline, EditorIdsOfRecordsOnSeveralThreads) {
  Plugin p = Plugin::create(Game::SkyrimLE, "t.esp");
  for (std::uint32_t i = 0; i < 1000; ++i) {
    Record r = i % 7 == 0 ? Record(Signature("NPC_"), 0x800 + i, {Field::zstring("FULL", "no id")})
                          : named("NPC_", 0x800 + i, "Npc" + std::to_string(i));
    if (i % 2) r.set_flags(record_flags::kCompressed);
    p.add(std::move(r));
  }
  const auto bytes = hold(std::move(p));
  const PluginFile f = PluginFile::parse(bytes);
  const auto records = f.entries().subspan(2);  // after TES4 and the NPC_ group
  for (unsigned threads : {1u, 2u, 4u}) {
    const auto ids = editor_ids_of(f, records, threads);
    ASSERT_EQ(ids.size(), 1000u);
    for (std::uint32_t i = 0; i < 1000; ++i) {
      if (i % 7 == 0) EXPECT_FALSE(ids[i].has_value());
      else EXPECT_EQ(ids[i], "Npc" + std::to_string(i));
    }
  }
}

// The EditorID of a compressed record is its first field (after an XXXX size) or none: only the
// head is inflated. An uncompressed record is searched whole.
TEST(PluginOutline, ACompressedRecordsEditorIdIsItsFirstField) {
  Plugin p = Plugin::create(Game::SkyrimLE, "t.esp");
  const std::string long_name(300, 'L');  // past the first head inflated
  const std::string huge_name(70000, 'H');  // an EDID of more than 65535 bytes: XXXX before it
  for (bool compressed : {false, true}) {
    const std::uint32_t base = compressed ? 0x900 : 0x800;
    std::vector<Record> records;
    records.push_back(named("NPC_", base, "First"));
    records.push_back(Record(Signature("NPC_"), base + 1, {Field::zstring("FULL", "x"), Field::zstring("EDID", "Late")}));
    records.push_back(named("NPC_", base + 2, long_name));
    records.push_back(named("NPC_", base + 3, huge_name));
    records.push_back(Record(Signature("NPC_"), base + 4, {Field::zstring("FULL", "no id")}));
    for (Record& r : records) {
      if (compressed) r.set_flags(record_flags::kCompressed);
      p.add(std::move(r));
    }
  }
  const auto bytes = hold(std::move(p));
  const PluginFile f = PluginFile::parse(bytes);
  std::map<std::uint32_t, std::optional<std::string>> got;
  for (const IndexEntry& e : f.entries().subspan(2)) got[e.id] = f.editor_id(e);
  for (std::uint32_t base : {0x800u, 0x900u}) {
    SCOPED_TRACE(base);
    EXPECT_EQ(got.at(base), "First");
    EXPECT_EQ(got.at(base + 2), long_name);
    EXPECT_EQ(got.at(base + 3), huge_name);
    EXPECT_EQ(got.at(base + 4), std::nullopt);
  }
  EXPECT_EQ(got.at(0x801), "Late");
  EXPECT_EQ(got.at(0x901), std::nullopt);
  EXPECT_EQ(f.stats().compressed, 5u);
}
