// Every corpus plugin: written back byte-identical, every record's fields re-encode to the
// same bytes, and an edit leaves every other record untouched.
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/round_trip.hpp"

using namespace tesmod;

TEST(Corpus, EveryPluginIsWrittenBackIdentically) {
  TESMOD_REQUIRE_CORPUS();
  const auto plugins = test::corpus_plugins();
  ASSERT_GE(plugins.size(), 80u);
  for (const auto& path : plugins) {
    SCOPED_TRACE(path.string());
    OpenOptions o;
    o.count_subrecords = true;
    PluginFile f = PluginFile::open(path, o);
    const RoundTrip r = write_back_and_compare(f);
    EXPECT_TRUE(r.identical) << "first difference at " << r.first_difference;
    EXPECT_EQ(r.written, f.bytes().size());
  }
}

TEST(Corpus, EveryRecordsFieldsReencodeIdentically) {
  TESMOD_REQUIRE_CORPUS();
  std::uint64_t records = 0, compressed = 0;
  for (const auto& path : test::corpus_plugins()) {
    SCOPED_TRACE(path.string());
    PluginFile f = PluginFile::open(path);
    Inflater inflater;
    for (const IndexEntry& e : f.entries()) {
      if (e.is_group()) continue;
      const auto body = f.body(e, inflater);
      std::vector<Field> fields;
      for (const SubrecordView& v : read_subrecords(body, f.context(e))) fields.push_back(Field::from_view(v));
      std::vector<std::uint8_t> again;
      encode_fields(fields, again);
      ASSERT_TRUE(std::equal(again.begin(), again.end(), body.begin(), body.end()))
          << e.type.str() << " " << std::hex << e.id;
      ++records;
      compressed += e.is_compressed();
    }
  }
  EXPECT_GT(records, 14000u);
  EXPECT_GT(compressed, 900u);
}

TEST(Corpus, EditingACompressedRecordOfARealPlugin) {
  TESMOD_REQUIRE_CORPUS();
  const auto path = test::corpus_dir() / "oblivion/Laulajatar__my-oblivion-mods/lNameless Overhaul.esp";
  ASSERT_TRUE(std::filesystem::exists(path));
  PluginFile f = PluginFile::open(path);
  ASSERT_GT(f.stats().compressed, 500u);
  const IndexEntry* target = nullptr;
  for (const IndexEntry& e : f.entries())
    if (e.is_compressed() && !target) target = &e;
  ASSERT_TRUE(target);
  Plugin p = Plugin::from_file(f);
  Record* r = p.find(target->id);
  ASSERT_TRUE(r);
  std::vector<Field> before = r->fields();
  r->set(Field::zstring("EDID", "TesmodWasHere"));
  const auto bytes = p.serialize();

  OpenOptions o;
  o.count_subrecords = true;  // inflates every compressed record, the edited one included
  PluginFile g = PluginFile::parse(FileBytes::hold(bytes, "edited.esp"), o);
  ASSERT_EQ(g.entries().size(), f.entries().size());
  Plugin q = Plugin::from_file(g);
  const Record* back = q.find(target->id);
  ASSERT_TRUE(back && back->is_compressed());
  EXPECT_EQ(back->editor_id(), "TesmodWasHere");
  ASSERT_EQ(back->fields().size(), before.size());
  for (std::size_t i = 1; i < before.size(); ++i) EXPECT_EQ(back->fields()[i], before[i]);
  std::size_t same = 0;
  for (std::size_t i = 1; i < f.entries().size(); ++i) {
    const IndexEntry &a = f.entries()[i], &b = g.entries()[i];
    if (a.is_group() || a.id == target->id) continue;
    auto x = f.stored_body(a), y = g.stored_body(b);
    ASSERT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << a.type.str();
    ++same;
  }
  EXPECT_GT(same, 1700u);
}
