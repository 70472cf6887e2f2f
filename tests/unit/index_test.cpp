// The read-only index: format detection, counts, parallel indexing, and errors on bad input.
#include <gtest/gtest.h>

#include <random>

#include "sample_builder.hpp"
#include "test_support.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/record_flags.hpp"

using namespace tesmod;

namespace {

PluginFile parse(std::vector<std::uint8_t> bytes, OpenOptions o = {}) {
  return PluginFile::parse(FileBytes::hold(std::move(bytes), "test.esp"), o);
}

std::vector<std::uint8_t> bytes_of(Plugin p) { return p.serialize(); }

using test::tiny_skyrim;

std::string error_of(std::vector<std::uint8_t> bytes, OpenOptions o = {}) {
  try {
    parse(std::move(bytes), o);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Index, DetectsGames) {
  EXPECT_EQ(parse(bytes_of(samples::oblivion_sample())).game(), Game::Oblivion);
  EXPECT_EQ(parse(tiny_skyrim(43, 1.7f)).game(), Game::SkyrimLE);
  EXPECT_EQ(parse(tiny_skyrim(43, 0.94f)).game(), Game::SkyrimLE);
  // HEDR 1.7 alone does not mean SE; form version 44, HEDR 1.71 or the ESL flag do.
  EXPECT_EQ(parse(tiny_skyrim(44, 1.7f)).game(), Game::SkyrimSE);
  EXPECT_EQ(parse(tiny_skyrim(43, 1.71f)).game(), Game::SkyrimSE);
  EXPECT_EQ(parse(tiny_skyrim(43, 1.7f, record_flags::kLight)).game(), Game::SkyrimSE);
}

TEST(Index, RejectsOtherGamesAndNonPlugins) {
  EXPECT_NE(error_of(tiny_skyrim(43, 1.32f)).find("not a Skyrim version"), std::string::npos);
  EXPECT_NE(error_of({'T', 'E', 'S', '3', 0, 0, 0, 0}).find("too short"), std::string::npos);
  std::vector<std::uint8_t> not_tes4(64, 'A');
  EXPECT_NE(error_of(not_tes4).find("expected the TES4 file header record"), std::string::npos);
  OpenOptions o;
  o.game = Game::Oblivion;
  EXPECT_NE(error_of(tiny_skyrim(43, 1.7f), o).find("24-byte record headers"), std::string::npos);
}

TEST(Index, EntriesDescribeTheTree) {
  PluginFile f = parse(bytes_of(samples::skyrim_sample()));
  const auto e = f.entries();
  ASSERT_GT(e.size(), 10u);
  EXPECT_EQ(e[0].type, Signature("TES4"));
  EXPECT_EQ(f.stats().records + f.stats().groups + 1, e.size());
  for (std::uint32_t i = 1; i < e.size(); ++i) {
    if (e[i].parent == kNoParent) {
      EXPECT_TRUE(e[i].is_group()) << "top-level items are groups";
      continue;
    }
    const IndexEntry& p = e[e[i].parent];
    ASSERT_TRUE(p.is_group());
    EXPECT_LT(e[i].parent, i);
    EXPECT_LE(i, p.end - 1) << "a child lies inside its parent's range";
    EXPECT_GE(e[i].offset, p.offset + 24);
  }
  // The REFR sits in cell children > temporary children, under the interior block and sub-block.
  auto refr = std::find_if(e.begin(), e.end(), [](const IndexEntry& x) { return x.type == Signature("REFR"); });
  ASSERT_NE(refr, e.end());
  std::vector<std::int32_t> chain;
  for (std::uint32_t k = refr->parent; k != kNoParent; k = e[k].parent) chain.push_back(e[k].group_type());
  EXPECT_EQ(chain, (std::vector<std::int32_t>{9, 6, 3, 2, 0}));
  EXPECT_EQ(f.entry_at(refr->offset + 30), std::uint32_t(refr - e.begin()));
}

TEST(Index, CountsSubrecordsAndInflates) {
  OpenOptions o;
  o.count_subrecords = true;
  PluginFile f = parse(bytes_of(samples::skyrim_sample()), o);
  ASSERT_TRUE(f.stats().subrecords);
  EXPECT_EQ(f.stats().subrecords->oversize, 1u);
  EXPECT_EQ(f.stats().compressed, 1u);
  EXPECT_GT(f.stats().subrecords->inflated_bytes, 3000u);
  // Every field is counted: 4 in TES4 (HEDR CNAM SNAM ... ) and the records' own.
  std::uint64_t fields = 0;
  Inflater inflater;
  for (const IndexEntry& e : f.entries()) {
    if (e.is_group()) continue;
    fields += read_subrecords(f.body(e, inflater), f.context(e)).size();
  }
  EXPECT_EQ(f.stats().subrecords->fields, fields);
}

namespace {

// A plugin over 1 MiB (so the parallel path is taken) with nested groups and compressed records.
std::vector<std::uint8_t> large_plugin() {
  Plugin p = Plugin::create(Game::SkyrimSE, "large.esp");
  std::mt19937 rng(7);
  for (int i = 0; i < 6000; ++i) {
    std::vector<std::uint8_t> data(rng() % 400 + 1, std::uint8_t(i));
    const bool compress = i % 17 == 0;
    p.add(Record(i % 3 ? Signature("MISC") : Signature("WEAP"), p.allocate_form_id(),
                 {Field::zstring("EDID", "Item" + std::to_string(i)), Field::bytes("DATA", data)},
                 compress ? record_flags::kCompressed : 0));
  }
  Group& cells = p.top_group("CELL");
  for (int b = 0; b < 10; ++b) {
    cells.children.emplace_back(Group(GroupHeader{0, std::uint32_t(b), 2, 0, 0}));
    Group& block = cells.children.back().group();
    for (int c = 0; c < 20; ++c) {
      const std::uint32_t cell = p.allocate_form_id();
      block.children.emplace_back(Record("CELL", cell, {Field::zstring("EDID", "Cell" + std::to_string(cell))}));
      block.children.emplace_back(Group(GroupHeader{0, cell, 6, 0, 0}));
      Group& kids = block.children.back().group();
      kids.children.emplace_back(Group(GroupHeader{0, cell, 9, 0, 0}));
      for (int r = 0; r < 30; ++r) {
        kids.children.back().group().children.emplace_back(
            Record("REFR", p.allocate_form_id(), {Field::u32("NAME", 0x800), Field::bytes("DATA", std::vector<std::uint8_t>(24, 1))}));
      }
    }
  }
  return p.serialize();
}

}  // namespace

TEST(Index, ParallelIndexEqualsSequential) {
  const auto bytes = large_plugin();
  ASSERT_GT(bytes.size(), 1u << 20);
  auto shared = FileBytes::hold(bytes, "large.esp");
  OpenOptions one;
  one.threads = 1;
  one.count_subrecords = true;
  PluginFile a = PluginFile::parse(shared, one);
  for (unsigned t : {2u, 3u, 8u}) {
    OpenOptions many = one;
    many.threads = t;
    PluginFile b = PluginFile::parse(shared, many);
    ASSERT_EQ(a.entries().size(), b.entries().size());
    for (std::size_t i = 0; i < a.entries().size(); ++i) {
      const IndexEntry &x = a.entries()[i], &y = b.entries()[i];
      ASSERT_TRUE(x.offset == y.offset && x.type == y.type && x.size == y.size && x.flags == y.flags && x.id == y.id &&
                  x.parent == y.parent && x.end == y.end)
          << "entry " << i << " differs with " << t << " threads";
    }
    EXPECT_EQ(a.stats().records_by_type, b.stats().records_by_type);
    EXPECT_EQ(a.stats().groups_by_type, b.stats().groups_by_type);
    EXPECT_EQ(a.stats().subrecords->fields, b.stats().subrecords->fields);
    EXPECT_EQ(a.stats().subrecords->inflated_bytes, b.stats().subrecords->inflated_bytes);
  }
}

TEST(Index, TheSameErrorWhateverTheThreadCount) {
  auto bytes = large_plugin();
  // Break a record late in the file and a group header later still.
  PluginFile f = parse(bytes);
  const auto e = f.entries();
  const IndexEntry& late_record = e[e.size() - 40];
  le::store(bytes.data() + late_record.offset + 4, std::uint32_t(0x7FFFFFFF));
  std::string first;
  for (unsigned t : {1u, 2u, 4u}) {
    OpenOptions o;
    o.threads = t;
    o.count_subrecords = true;  // the parallel path is only taken for a full pass
    const std::string err = error_of(bytes, o);
    ASSERT_FALSE(err.empty());
    if (first.empty()) first = err;
    EXPECT_EQ(err, first) << t << " threads";
  }
  EXPECT_NE(first.find("runs"), std::string::npos);
  EXPECT_NE(first.find("REFR"), std::string::npos);
}

TEST(Index, StructuralErrorsNameWhatWasExpected) {
  const auto good = bytes_of(samples::skyrim_sample());
  PluginFile f = parse(good);
  const IndexEntry* group = nullptr;
  const IndexEntry* record = nullptr;
  for (const IndexEntry& x : f.entries()) {
    if (!group && x.is_group()) group = &x;
    if (!record && !x.is_group() && x.type == Signature("MISC")) record = &x;
  }
  ASSERT_TRUE(group && record);
  {
    auto b = good;
    le::store(b.data() + group->offset + 4, std::uint32_t(10));
    EXPECT_NE(error_of(b).find("smaller than its own 24-byte header"), std::string::npos);
  }
  {
    auto b = good;
    le::store(b.data() + group->offset + 12, std::int32_t(42));
    EXPECT_NE(error_of(b).find("unknown type 42"), std::string::npos);
  }
  {
    auto b = good;
    b[record->offset] = '#';
    EXPECT_NE(error_of(b).find("expected a record type"), std::string::npos);
  }
  {
    auto b = good;
    le::store(b.data() + record->offset + 4, std::uint32_t(100000000));
    const std::string err = error_of(b);
    EXPECT_NE(err.find("MISC"), std::string::npos);
    EXPECT_NE(err.find("'TesmodSampleCoin'"), std::string::npos) << err;
    EXPECT_NE(err.find("runs"), std::string::npos);
  }
  {
    auto b = good;
    b.resize(b.size() - 5);
    EXPECT_FALSE(error_of(b).empty());
  }
  {
    // A subrecord running past its record is only seen by a pass over subrecords.
    auto b = good;
    le::store(b.data() + record->offset + 24 + 4, std::uint16_t(60000));
    EXPECT_TRUE(error_of(b).empty());
    OpenOptions o;
    o.count_subrecords = true;
    const std::string err = error_of(b, o);
    EXPECT_NE(err.find("EDID of size 60000 runs past the end of the record"), std::string::npos) << err;
  }
}

TEST(Index, BadCompressedDataIsAnErrorOnlyWhenRead) {
  auto bytes = bytes_of(samples::skyrim_sample());
  PluginFile f = parse(bytes);
  auto c = std::find_if(f.entries().begin(), f.entries().end(), [](const IndexEntry& e) { return e.is_compressed(); });
  ASSERT_NE(c, f.entries().end());
  bytes[c->offset + 24 + 4 + 10] ^= 0xFF;
  bytes[c->offset + 24 + 4 + 11] ^= 0xFF;
  EXPECT_TRUE(error_of(bytes).empty()) << "compressed records are not inflated at open";
  OpenOptions o;
  o.count_subrecords = true;
  const std::string err = error_of(bytes, o);
  EXPECT_NE(err.find("STAT"), std::string::npos) << err;
  EXPECT_NE(err.find("zlib"), std::string::npos) << err;
}

TEST(Index, TopLevelRecordIsAnError) {
  Plugin p = Plugin::create(Game::Oblivion, "t.esp");
  p.top().emplace_back(Record("MISC", 0x800, {Field::zstring("EDID", "Loose")}));
  EXPECT_NE(error_of(p.serialize()).find("record at the top level"), std::string::npos);
}

TEST(Index, AbsurdNestingIsAnError) {
  Plugin p = Plugin::create(Game::Oblivion, "t.esp");
  std::vector<Node>* level = &p.top();
  for (int i = 0; i < 40; ++i) {
    level->emplace_back(Group(GroupHeader{0, 0, i == 0 ? 0 : 6, 0, 0}));
    level = &level->back().group().children;
  }
  EXPECT_NE(error_of(p.serialize()).find("nested deeper"), std::string::npos);
}
