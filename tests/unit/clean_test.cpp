// Cleaning: how a deleted reference is undeleted (field order, persistence per game, what makes
// it impossible), compressed ITMs and UDRs against a master, missing masters and stale plans.
#include <gtest/gtest.h>

#include "plugin_maker.hpp"
#include "tesmod/clean/clean.hpp"
#include "tesmod/clean/udr_edit.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "test_support.hpp"

namespace tesmod::clean {
namespace {

namespace rf = record_flags;
using test::TestPlugin;
using test::TestRecord;

Field position(float x, float y, float z) {
  std::vector<std::uint8_t> d(24, 0);
  le::store(d.data(), x);
  le::store(d.data() + 4, y);
  le::store(d.data() + 8, z);
  return Field::bytes(Signature("DATA"), d);
}

std::vector<std::string> types(const std::vector<Field>& fields) {
  std::vector<std::string> out;
  for (const Field& f : fields) out.push_back(f.type.str());
  return out;
}

float z_of(const std::vector<Field>& fields) {
  for (const Field& f : fields)
    if (f.type == Signature("DATA")) return le::f32(f.data.data() + 8);
  return 0;
}

const Field* find(const std::vector<Field>& fields, Signature type) {
  for (const Field& f : fields)
    if (f.type == type) return &f;
  return nullptr;
}

TEST(Clean, UndeleteSkyrimReferenceInsertsXespWhereTheLayoutPutsIt) {
  // INAM before XESP (image space) and after it (a patrol's idle, after XPRD).
  std::vector<Field> fields{Field::zstring("EDID", "Ref"), Field::u32("NAME", 0x1234), Field::u32("INAM", 0x55),
                            Field::bytes("XTEL", std::vector<std::uint8_t>(32, 1)), Field::u32("XOWN", 0x99),
                            Field::u32("XPRD", 0), Field::u32("INAM", 0x66), position(1, 2, 3)};
  const UdrResult r = undelete_reference(Game::SkyrimSE, Signature("REFR"), rf::kDeleted | rf::kCompressed, fields);
  ASSERT_EQ(r.skipped, "");
  EXPECT_EQ(types(r.fields), (std::vector<std::string>{"EDID", "NAME", "INAM", "XOWN", "XESP", "XPRD", "INAM", "DATA"}));
  EXPECT_EQ(r.flags, rf::kInitiallyDisabled);  // Deleted and Compressed cleared, not persistent
  EXPECT_EQ(z_of(r.fields), -30000.0f);
  const Field* xesp = find(r.fields, Signature("XESP"));
  ASSERT_NE(xesp, nullptr);
  EXPECT_EQ(xesp->data, (std::vector<std::uint8_t>{0x14, 0, 0, 0, 1, 0, 0, 0}));
}

TEST(Clean, UndeleteReplacesAnEnableParentInPlace) {
  std::vector<Field> fields{Field::u32("NAME", 0x1234), Field::bytes("XESP", std::vector<std::uint8_t>{9, 9, 9, 9, 0, 0, 0, 0}),
                            Field::u32("XSCL", 0), position(1, 2, 3)};
  const UdrResult r = undelete_reference(Game::Oblivion, Signature("REFR"), rf::kDeleted, fields);
  EXPECT_EQ(types(r.fields), (std::vector<std::string>{"NAME", "XESP", "XSCL", "DATA"}));
  EXPECT_EQ(find(r.fields, Signature("XESP"))->data, (std::vector<std::uint8_t>{0x14, 0, 0, 0, 1, 0, 0, 0}));
}

TEST(Clean, PersistencePerGame) {
  const std::vector<Field> fields{Field::u32("NAME", 0x1234), position(1, 2, 3)};
  // Skyrim: an actor becomes persistent and stays where it is.
  UdrResult r = undelete_reference(Game::SkyrimSE, Signature("ACHR"), rf::kDeleted, fields);
  EXPECT_EQ(r.flags, rf::kInitiallyDisabled | rf::kPersistent);
  EXPECT_EQ(z_of(r.fields), 3.0f);
  // Skyrim: a persistent object stays persistent.
  r = undelete_reference(Game::SkyrimLE, Signature("REFR"), rf::kDeleted | rf::kPersistent, fields);
  EXPECT_EQ(r.flags, rf::kInitiallyDisabled | rf::kPersistent);
  EXPECT_EQ(z_of(r.fields), 3.0f);
  // Oblivion: everything becomes non-persistent and goes below the ground.
  r = undelete_reference(Game::Oblivion, Signature("ACRE"), rf::kDeleted | rf::kPersistent, fields);
  EXPECT_EQ(r.flags, rf::kInitiallyDisabled);
  EXPECT_EQ(z_of(r.fields), -30000.0f);
  EXPECT_EQ(types(r.fields), (std::vector<std::string>{"NAME", "XESP", "DATA"}));
}

TEST(Clean, WhatCannotBeUndeleted) {
  EXPECT_NE(undelete_reference(Game::SkyrimSE, Signature("REFR"), rf::kDeleted, {}).skipped, "");
  EXPECT_NE(undelete_reference(Game::SkyrimSE, Signature("REFR"), rf::kDeleted, {position(1, 2, 3)}).skipped.find("NAME"),
            std::string::npos);
  EXPECT_NE(undelete_reference(Game::SkyrimSE, Signature("REFR"), rf::kDeleted, {Field::u32("NAME", 1)}).skipped.find("DATA"),
            std::string::npos);
  // Persistent: no position needed.
  EXPECT_EQ(undelete_reference(Game::SkyrimSE, Signature("REFR"), rf::kDeleted | rf::kPersistent, {Field::u32("NAME", 1)}).skipped,
            "");
}

struct Cleaned {
  CleanReport report;
  std::vector<std::uint8_t> bytes;
};

Cleaned clean(const test::TempDir& dir, const TestPlugin& master, const TestPlugin& plugin) {
  test::write_plugin(dir / "M.esm", master);
  test::write_plugin(dir / "P.esp", plugin);
  const loadorder::LoadOrder order = open_with_masters(dir / "P.esp", dir.path(), 1);
  const std::uint32_t p = *order.find("P.esp");
  Cleaned out{plan_cleaning(order, p), {}};
  out.bytes = clean_bytes(order, p, out.report);
  return out;
}

TestPlugin master_plugin() {
  TestPlugin m;
  m.header_flags = rf::kMaster;
  m.records = {{Signature("MISC"), 0x800, {Field::zstring("EDID", "A"), Field::u32("DATA", 1)}},
               {Signature("MISC"), 0x801, {Field::zstring("EDID", "B"), Field::u32("DATA", 2)}},
               {Signature("REFR"), 0x900 + 1, {Field::u32("NAME", 0x800), position(5, 6, 7)}}};
  m.cell = 0x950;
  return m;
}

TEST(Clean, CompressedItmAndCompressedUdr) {
  test::TempDir dir;
  TestPlugin p;
  p.masters = {"M.esm"};
  p.cell = 0x950;
  p.records = {{Signature("MISC"), 0x800, {Field::zstring("EDID", "A"), Field::u32("DATA", 1)}, rf::kCompressed},
               {Signature("MISC"), 0x801, {Field::zstring("EDID", "B2"), Field::u32("DATA", 2)}},
               {Signature("REFR"), 0x901, {Field::u32("NAME", 0x800)}, rf::kDeleted | rf::kCompressed}};
  const Cleaned c = clean(dir, master_plugin(), p);
  EXPECT_EQ(c.report.count(CleanKind::Itm), 1u);
  EXPECT_EQ(c.report.count(CleanKind::Udr), 1u);
  ASSERT_TRUE(c.report.changes());
  // Read back: MISC 800 gone, 801 kept, the reference undeleted, uncompressed, with the master's position moved down.
  write_file_atomic(dir / "out.esp", c.bytes);
  const PluginFile out = PluginFile::open(dir / "out.esp");
  std::vector<std::uint32_t> ids;
  Inflater inflater;
  for (const IndexEntry& e : out.entries()) {
    if (e.is_group() || e.type == Signature("TES4")) continue;
    ids.push_back(e.id);
    if (e.type != Signature("REFR")) continue;
    EXPECT_EQ(e.flags, rf::kInitiallyDisabled);
    const auto body = out.body(e, inflater);
    std::vector<Field> fields;
    for (const SubrecordView& v : read_subrecords(body, {})) fields.push_back(Field::from_view(v));
    EXPECT_EQ(types(fields), (std::vector<std::string>{"NAME", "XESP", "DATA"}));
    EXPECT_EQ(z_of(fields), -30000.0f);
  }
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{0x801, 0x950, 0x901}));
  EXPECT_EQ(c.report.crc_after, crc32_of(c.bytes));
  EXPECT_NE(c.report.crc_after, c.report.crc_before);
}

TEST(Clean, MissingMasterIsNamedAndAStalePlanRefused) {
  test::TempDir dir;
  TestPlugin p;
  p.masters = {"Gone.esm"};
  test::write_plugin(dir / "P.esp", p);
  try {
    open_with_masters(dir / "P.esp", dir.path());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Gone.esm"), std::string::npos) << e.what();
  }
  TestPlugin q;
  q.masters = {"M.esm"};
  q.records = {{Signature("MISC"), 0x800, {Field::zstring("EDID", "A"), Field::u32("DATA", 1)}}};
  const Cleaned c = clean(dir, master_plugin(), q);
  Plugin model = Plugin::open(dir / "P.esp");
  model.add(Record(Signature("MISC"), 0x01000800, {Field::zstring("EDID", "New")}));
  EXPECT_THROW(apply_cleaning(model, c.report), Error);
}

// A master's own plan (it has no masters): its deleted records, with the entry indices and
// EditorIDs a full index gives, whether the master was walked for a plugin's plan (clean --all)
// or planned alone; and a plugin whose master does not read is refused, naming the master.
TEST(Clean, PlansOfAPluginWithoutMastersAndOfOneWhoseMasterDoesNotRead) {
  test::TempDir dir;
  TestPlugin m = master_plugin();
  m.records.push_back({Signature("MISC"), 0x802, {Field::zstring("EDID", "Gone")}, rf::kDeleted});
  m.records.push_back({Signature("REFR"), 0x903, {Field::u32("NAME", 0x800), position(1, 2, 3)}, rf::kDeleted});
  TestPlugin p;
  p.masters = {"M.esm"};
  p.records = {{Signature("MISC"), 0x800, {Field::zstring("EDID", "A"), Field::u32("DATA", 1)}}};
  test::write_plugin(dir / "M.esm", m, 1);
  test::write_plugin(dir / "P.esp", p, 2);
  test::write_text(dir / "plugins.txt", "*M.esm\n*P.esp\n");
  loadorder::LoadOrderSource source;
  source.data = dir.path();
  source.threads = 2;
  const loadorder::LoadOrder order = loadorder::LoadOrder::open(source);
  const std::uint32_t mp = *order.find("M.esm");
  const std::vector<PluginCleanPlan> all = plan_cleaning_all(order, {});
  ASSERT_EQ(all.size(), 2u);
  ASSERT_TRUE(all[0].report.has_value()) << all[0].error;
  const CleanReport& walked = *all[0].report;
  EXPECT_FALSE(order.is_read(mp));  // walked, not indexed
  EXPECT_EQ(all[1].report->count(CleanKind::Itm), 1u);
  // The same plan from the full index.
  const PluginFile& full = order.file(mp);
  EXPECT_EQ(walked.entry_count, full.entries().size());
  EXPECT_EQ(walked.crc_before, crc32_of(full.bytes()));
  EXPECT_EQ(walked.crc_after, walked.crc_before);
  ASSERT_EQ(walked.decisions.size(), 2u);  // a master's own deleted records are left alone
  EXPECT_EQ(walked.count(CleanKind::DeletedOther), 2u);
  for (const CleanDecision& d : walked.decisions) {
    EXPECT_EQ(d.editor_id, d.form_id == 0x802 ? "Gone" : "");
    EXPECT_EQ(full.entry(d.entry).id, d.form_id);
    EXPECT_EQ(full.entry(d.entry).type, d.type);
  }
  const CleanReport alone = plan_cleaning(order, mp);  // the full index is read now
  ASSERT_EQ(alone.decisions.size(), walked.decisions.size());
  for (std::size_t k = 0; k < alone.decisions.size(); ++k) EXPECT_EQ(alone.decisions[k].entry, walked.decisions[k].entry);
  EXPECT_EQ(alone.entry_count, walked.entry_count);

  // The master damaged inside a group: its plan and the plugin's fail, naming it.
  std::vector<std::uint8_t> bytes = test::make_plugin(m);
  const PluginFile parsed = PluginFile::parse(FileBytes::hold(bytes, "M.esm"));
  std::copy_n("a!b?", 4, bytes.begin() + std::ptrdiff_t(parsed.entries()[2].offset));
  test::write_file(dir / "M.esm", bytes);
  test::set_mtime(dir / "M.esm", 1);
  const loadorder::LoadOrder damaged = loadorder::LoadOrder::open(source);
  const std::vector<PluginCleanPlan> plans = plan_cleaning_all(damaged, {});
  ASSERT_EQ(plans.size(), 2u);
  for (const PluginCleanPlan& plan : plans) {
    EXPECT_FALSE(plan.report.has_value());
    EXPECT_NE(plan.error.find("M.esm"), std::string::npos) << plan.error;
    EXPECT_NE(plan.error.find("offset"), std::string::npos) << plan.error;
  }
}

}  // namespace
}  // namespace tesmod::clean
