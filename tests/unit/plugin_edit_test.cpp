// The editable model: unchanged input is written back identically; edits re-encode only what
// changed; counts, sizes and compression are kept consistent.
#include <gtest/gtest.h>

#include "sample_builder.hpp"
#include "test_support.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/record_flags.hpp"

using namespace tesmod;

namespace {

PluginFile reopen(const std::vector<std::uint8_t>& bytes, bool subrecords = true) {
  OpenOptions o;
  o.count_subrecords = subrecords;
  return PluginFile::parse(FileBytes::hold(bytes, "edited.esp"), o);
}

}  // namespace

TEST(PluginEdit, UnchangedIsIdentical) {
  for (Plugin (*make)() : {samples::skyrim_sample, samples::oblivion_sample, samples::localized_sample}) {
    const auto bytes = make().serialize();
    PluginFile f = reopen(bytes);
    Plugin p = Plugin::from_file(f);
    EXPECT_EQ(p.serialize(), bytes);
    // Decoding every record's fields without editing them does not change anything either.
    auto decode_all = [](auto& self, std::vector<Node>& nodes) -> void {
      for (Node& n : nodes) {
        if (n.is_group()) self(self, n.group().children);
        else (void)n.record().fields();
      }
    };
    decode_all(decode_all, p.top());
    EXPECT_EQ(p.serialize(), bytes);
  }
}

TEST(PluginEdit, NewPluginHasAConsistentHeader) {
  const auto bytes = samples::skyrim_sample().serialize();
  PluginFile f = reopen(bytes);
  EXPECT_EQ(f.game(), Game::SkyrimSE);
  EXPECT_EQ(std::uint64_t(f.header().record_count), f.stats().records + f.stats().groups);
  EXPECT_EQ(f.header().author, "tesmod");
  EXPECT_EQ(f.header().next_object_id, 0x800u + 9);  // nine records allocated ids
}

TEST(PluginEdit, EditingOneRecordChangesOnlyThatRecord) {
  const auto original = samples::skyrim_sample().serialize();
  PluginFile f = reopen(original);
  Plugin p = Plugin::from_file(f);
  const std::uint32_t coin = 0x800;  // the first id allocated
  Record* r = p.find(coin);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->editor_id(), "TesmodSampleCoin");
  r->set(Field::zstring("FULL", "Shiny Coin!!!!"));  // 3 bytes longer than "Sample Coin"
  const auto edited = p.serialize();
  ASSERT_EQ(edited.size(), original.size() + 3);

  PluginFile g = reopen(edited);
  Plugin q = Plugin::from_file(g);
  EXPECT_EQ(q.find(coin)->find("FULL")->as_zstring(), "Shiny Coin!!!!");
  // Every other record is byte-identical; the groups around it grew by 4 bytes.
  for (std::size_t i = 1; i < f.entries().size(); ++i) {
    const IndexEntry& a = f.entries()[i];
    const IndexEntry& b = g.entries()[i];
    ASSERT_EQ(a.type, b.type);
    if (a.is_group()) continue;
    if (a.id == coin) {
      EXPECT_EQ(b.size, a.size + 3);
      continue;
    }
    auto x = f.stored_body(a), y = g.stored_body(b);
    EXPECT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << a.type.str();
  }
  // The enclosing group grew by exactly the 3 bytes.
  auto coin_entry = [&](const PluginFile& file) {
    return file.entries()[*file.find_form_id(coin)];
  };
  EXPECT_EQ(g.entries()[coin_entry(g).parent].size, f.entries()[coin_entry(f).parent].size + 3);
}

TEST(PluginEdit, CompressedRecordsAreRecompressed) {
  PluginFile f = reopen(samples::skyrim_sample().serialize());
  Plugin p = Plugin::from_file(f);
  Record* stat = nullptr;
  for (Node& n : p.top_group("STAT").children)
    if (n.record().is_compressed()) stat = &n.record();
  ASSERT_TRUE(stat);
  stat->edit_fields().push_back(Field::u32("XNAM", 42));
  const auto bytes = p.serialize();
  PluginFile g = reopen(bytes);  // the subrecord pass inflates it again
  EXPECT_EQ(g.stats().compressed, 1u);
  Plugin q = Plugin::from_file(g);
  const Record* back = q.find(stat->form_id());
  ASSERT_TRUE(back && back->is_compressed());
  ASSERT_EQ(back->fields().size(), 3u);
  EXPECT_EQ(back->fields()[2], Field::u32("XNAM", 42));

  // Clearing the flag stores the same fields uncompressed.
  q.find(stat->form_id())->set_flags(0);
  PluginFile h = reopen(q.serialize());
  EXPECT_EQ(h.stats().compressed, 0u);
  EXPECT_EQ(Plugin::from_file(h).find(stat->form_id())->fields(), back->fields());
}

TEST(PluginEdit, AddAndRemoveFixCountsAndSizes) {
  PluginFile f = reopen(samples::oblivion_sample().serialize());
  Plugin p = Plugin::from_file(f);
  const std::uint32_t id = p.allocate_form_id();
  p.add(Record("SLGM", id, {Field::zstring("EDID", "NewGem")}));  // a new top-level group too
  EXPECT_TRUE(p.remove(0x800));
  EXPECT_FALSE(p.remove(0x123456));
  PluginFile g = reopen(p.serialize());
  EXPECT_EQ(std::uint64_t(g.header().record_count), g.stats().records + g.stats().groups);
  EXPECT_EQ(g.stats().records, f.stats().records);
  EXPECT_EQ(g.stats().groups, f.stats().groups + 1);
  EXPECT_EQ(g.header().next_object_id, f.header().next_object_id + 1);
  EXPECT_FALSE(g.find_form_id(0x800));
  ASSERT_TRUE(g.find_form_id(id));
  EXPECT_EQ(g.editor_id(g.entry(*g.find_form_id(id))), "NewGem");
}

TEST(PluginEdit, WrongRecordCountIsKeptUntilTheStructureChanges) {
  auto bytes = samples::oblivion_sample().serialize();
  le::store(bytes.data() + 20 + 6 + 4, std::int32_t(999));  // HEDR record count
  PluginFile f = reopen(bytes);
  Plugin p = Plugin::from_file(f);
  EXPECT_EQ(p.serialize(), bytes) << "an unchanged file stays identical, wrong count and all";
  p.add(Record("MISC", p.allocate_form_id(), {}));
  PluginFile g = reopen(p.serialize());
  EXPECT_EQ(std::uint64_t(g.header().record_count), g.stats().records + g.stats().groups);
}

TEST(PluginEdit, ARepeatedHedrIsAnotherField) {
  // Found by plugin_fuzzer: with two HEDR fields the count was read from the second and written
  // into both, so an unchanged file did not write back as read. The first HEDR is the header.
  auto base = samples::oblivion_sample().serialize();
  const std::size_t hedr_at = 20, hedr_size = 6 + 12;
  std::vector<std::uint8_t> bytes(base.begin(), base.begin() + hedr_at + hedr_size);
  bytes.insert(bytes.end(), base.begin() + hedr_at, base.begin() + hedr_at + hedr_size);  // HEDR again
  bytes.insert(bytes.end(), base.begin() + hedr_at + hedr_size, base.end());
  le::store(bytes.data() + 4, le::u32(bytes.data() + 4) + std::uint32_t(hedr_size));  // TES4 data size
  le::store(bytes.data() + hedr_at + 6 + 4, std::int32_t(999));                        // first: wrong count
  le::store(bytes.data() + hedr_at + 6 + 8, std::uint32_t(0x1234));                    // first: next id
  le::store(bytes.data() + hedr_at + hedr_size + 6 + 8, std::uint32_t(0x5678));        // second: next id
  PluginFile f = reopen(bytes);
  EXPECT_EQ(f.header().record_count, 999);
  EXPECT_EQ(f.header().next_object_id, 0x1234u);
  Plugin p = Plugin::from_file(f);
  EXPECT_EQ(p.serialize(), bytes) << "an unchanged file stays identical";
  EXPECT_EQ(p.allocate_form_id() & 0xFFFFFF, 0x1234u);
  p.add(Record("MISC", 0x1234, {}));
  const auto edited = p.serialize();
  PluginFile g = reopen(edited);
  EXPECT_EQ(std::uint64_t(g.header().record_count), g.stats().records + g.stats().groups);
  EXPECT_EQ(g.header().next_object_id, 0x1235u);
  // The repeated HEDR is kept as it was.
  EXPECT_EQ(le::u32(edited.data() + hedr_at + hedr_size + 6 + 8), 0x5678u);
}

TEST(PluginEdit, MalformedFieldsAreReportedWhenDecoded) {
  auto bytes = samples::skyrim_sample().serialize();
  PluginFile clean = reopen(bytes, false);
  const IndexEntry& coin = clean.entry(*clean.find_form_id(0x800));
  // The coin's FULL field claims 5000 bytes; walk the fields to find it.
  std::size_t full_at = coin.offset + 24;
  while (std::memcmp(bytes.data() + full_at, "FULL", 4) != 0)
    full_at += 6 + le::load<std::uint16_t>(bytes.data() + full_at + 4);
  le::store(bytes.data() + full_at + 4, std::uint16_t(5000));
  PluginFile f = reopen(bytes, false);  // the index alone does not read fields
  Plugin p = Plugin::from_file(f);
  try {
    (void)p.find(0x800)->fields();
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), full_at);
    ASSERT_TRUE(e.record());
    EXPECT_EQ(e.record()->editor_id, "TesmodSampleCoin");
    EXPECT_NE(std::string(e.what()).find("FULL of size 5000 runs past the end of the record"), std::string::npos);
  }
  EXPECT_EQ(p.serialize(), bytes) << "a record that was never edited is still copied as stored";
}

TEST(PluginEdit, NestedRecordTypesGoIntoTheirGroups) {
  Plugin p = Plugin::create(Game::SkyrimLE, "t.esp");
  EXPECT_THROW(p.add(Record("REFR", 0x800, {})), Error);
  EXPECT_THROW(p.add(Record("INFO", 0x801, {})), Error);
}

TEST(PluginEdit, HeaderEdits) {
  Plugin p = Plugin::create(Game::SkyrimSE, "t.esp");
  p.set_author("Someone");
  p.set_description("Does things");
  p.set_masters({{"Skyrim.esm", 0}, {"Update.esm", 0}}, std::vector<std::uint32_t>{2});
  p.add(Record("MISC", p.allocate_form_id(), {}));
  p.rename_master(1, "Dawnguard.esm");
  EXPECT_THROW(p.rename_master(5, "X.esm"), Error);
  PluginFile f = reopen(p.serialize());
  EXPECT_EQ(f.header().author, "Someone");
  EXPECT_EQ(f.header().description, "Does things");
  ASSERT_EQ(f.header().masters.size(), 2u);
  EXPECT_EQ(f.header().masters[1].name, "Dawnguard.esm");
  EXPECT_EQ(f.header().masters[0].data, 0u);
  // The new record was allocated after the masters were set: it carries index 02.
  EXPECT_TRUE(f.find_form_id(0x02000800));

  // Removing a master remaps record FormIDs: the plugin's own index drops from 2 to 1.
  Plugin q = Plugin::from_file(f);
  q.set_masters({{"Skyrim.esm", 0}}, std::vector<std::uint32_t>{0, 0, 1});
  PluginFile g = reopen(q.serialize());
  EXPECT_EQ(g.header().masters.size(), 1u);
  EXPECT_TRUE(g.find_form_id(0x01000800));
}

TEST(PluginEdit, SaveIsAtomicAndLeavesTheInputAlone) {
  test::TempDir dir;
  const auto input = dir / "in.esp";
  samples::skyrim_sample().save(input);
  const auto before = test::read_file(input);
  Plugin p = Plugin::open(input);
  p.find(0x800)->set(Field::zstring("FULL", "Changed"));
  p.save(dir / "out.esp");
  EXPECT_EQ(test::read_file(input), before);
  EXPECT_NE(test::read_file(dir / "out.esp"), before);
  // Saving over the file that is still mapped is safe: the mapping keeps the old bytes.
  p.save(input);
  EXPECT_EQ(test::read_file(input), test::read_file(dir / "out.esp"));
}
