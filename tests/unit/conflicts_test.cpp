// Conflicts across a load order: when two versions of a record are equal, the categories, the
// per-version states, itpo, and the fields that differ.
#include <gtest/gtest.h>

#include "plugin_maker.hpp"
#include "tesmod/loadorder/conflicts.hpp"
#include "tesmod/loadorder/record_equality.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/text/conflict_text.hpp"
#include "test_support.hpp"

namespace tesmod::loadorder {
namespace {

using test::TestPlugin;
using test::TestRecord;

constexpr std::uint32_t kEsm = record_flags::kMaster;

TestPlugin plugin(std::vector<std::string> masters, std::vector<TestRecord> records, std::uint32_t flags = 0) {
  TestPlugin p;
  p.masters = std::move(masters);
  p.records = std::move(records);
  p.header_flags = flags;
  return p;
}

TestRecord misc(std::uint32_t id, std::string_view edid, std::uint32_t value, std::uint32_t flags = 0) {
  return {Signature("MISC"), id, {Field::zstring("EDID", edid), Field::u32("DATA", value)}, flags};
}

struct Fixture {
  test::TempDir dir;
  std::optional<LoadOrder> order;
  std::vector<ConflictRecord> records;
  std::vector<Problem> problems;

  const ConflictRecord* find(std::uint32_t load_order_form_id) const {
    for (const ConflictRecord& r : records)
      if (order->load_order_form_id(r.form) == load_order_form_id) return &r;
    return nullptr;
  }
  std::vector<std::string> versions(const ConflictRecord& r) const {
    std::vector<std::string> out;
    for (const ConflictVersion& v : r.versions) out.push_back(order->plugin(v.version.plugin).name);
    return out;
  }
  std::vector<std::string> states(const ConflictRecord& r) const {
    std::vector<std::string> out;
    for (const ConflictVersion& v : r.versions) out.push_back(std::string(state_name(v.state)));
    return out;
  }
  // Opens the load order written into dir (its plugins.txt) and finds its conflicts.
  void find() {
    LoadOrderSource s;
    s.data = dir.path();
    s.threads = 2;
    order = LoadOrder::open(s);
    records = find_conflicts(*order, {}, problems);
  }
  std::vector<std::string> itpo(const ConflictRecord& r) const {
    std::vector<std::string> out;
    for (const ConflictVersion& v : r.versions)
      if (v.itpo) out.push_back(order->plugin(v.version.plugin).name);
    return out;
  }
};

std::unique_ptr<Fixture> load(const std::vector<std::pair<std::string, TestPlugin>>& plugins) {
  auto f = std::make_unique<Fixture>();
  std::string list;
  std::int64_t t = 1000;
  for (const auto& [name, p] : plugins) {
    test::write_plugin(f->dir / name, p, t++);
    list += "*" + name + "\n";
  }
  test::write_text(f->dir / "plugins.txt", list);
  f->find();
  return f;
}

TEST(Conflicts, CategoriesStatesAndItpo) {
  const TestPlugin m = plugin({}, {misc(0x800, "A", 1), misc(0x801, "B", 1), misc(0x802, "C", 1), misc(0x803, "D", 1),
                                   misc(0x804, "E", 1), misc(0x805, "Only", 1)},
                              kEsm);
  const TestPlugin p1 = plugin({"M.esm"}, {misc(0x800, "A", 1), misc(0x801, "B", 2), misc(0x802, "C", 2),
                                           misc(0x803, "D", 2), misc(0x804, "E", 2)});
  const TestPlugin p2 = plugin({"M.esm"}, {misc(0x800, "A", 1), misc(0x801, "B", 2), misc(0x802, "C", 3),
                                           misc(0x803, "D", 1), misc(0x804, "E", 2)});
  const TestPlugin p3 = plugin({"M.esm"}, {misc(0x804, "E", 2)});
  auto f = load({{"M.esm", m}, {"P1.esp", p1}, {"P2.esp", p2}, {"P3.esp", p3}});
  EXPECT_TRUE(f->problems.empty());
  ASSERT_EQ(f->records.size(), 5u);  // 0x805 is only in M.esm
  const ConflictRecord* a = f->find(0x00000800);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->category, ConflictCategory::NoConflict);
  EXPECT_EQ(f->versions(*a), (std::vector<std::string>{"M.esm", "P1.esp", "P2.esp"}));
  EXPECT_EQ(f->states(*a), (std::vector<std::string>{"master", "identical_to_master", "identical_to_master"}));
  EXPECT_EQ(a->editor_id, "A");
  const ConflictRecord* b = f->find(0x00000801);  // both change it the same way
  EXPECT_EQ(b->category, ConflictCategory::Override);
  EXPECT_EQ(f->states(*b), (std::vector<std::string>{"master", "wins", "wins"}));
  EXPECT_EQ(f->itpo(*b), (std::vector<std::string>{"P2.esp"}));
  const ConflictRecord* c = f->find(0x00000802);  // P1's change is lost
  EXPECT_EQ(c->category, ConflictCategory::Conflict);
  EXPECT_EQ(f->states(*c), (std::vector<std::string>{"master", "loses", "wins"}));
  EXPECT_TRUE(f->itpo(*c).empty());
  const ConflictRecord* d = f->find(0x00000803);  // P2 reverts P1's change
  EXPECT_EQ(d->category, ConflictCategory::Conflict);
  EXPECT_EQ(f->states(*d), (std::vector<std::string>{"master", "loses", "identical_to_master"}));
  EXPECT_EQ(f->order->plugin(d->winner().version.plugin).name, "P2.esp");
  const ConflictRecord* e = f->find(0x00000804);
  EXPECT_EQ(e->category, ConflictCategory::Override);
  EXPECT_EQ(f->itpo(*e), (std::vector<std::string>{"P2.esp", "P3.esp"}));
  EXPECT_EQ(f->order->plugin(e->winner().version.plugin).name, "P3.esp");
}

TEST(Conflicts, EqualityIgnoresVersionControlFormVersionAndCompression) {
  const TestPlugin m = plugin({}, {misc(0x800, "A", 1), misc(0x801, "B", 1), misc(0x802, "C", 1)}, kEsm);
  TestRecord vc = misc(0x800, "A", 1);
  vc.version_control = 0x12345678;
  vc.form_version = 43;
  TestRecord compressed = misc(0x801, "B", 1, record_flags::kCompressed);
  TestRecord flagged = misc(0x802, "C", 1, record_flags::kPersistent);  // flags are content
  auto f = load({{"M.esm", m}, {"P.esp", plugin({"M.esm"}, {vc, compressed, flagged})}});
  EXPECT_EQ(f->find(0x800)->category, ConflictCategory::NoConflict);
  EXPECT_EQ(f->find(0x801)->category, ConflictCategory::NoConflict);
  EXPECT_EQ(f->find(0x802)->category, ConflictCategory::Override);
  // The compressed one really is stored compressed.
  const auto& v = f->find(0x801)->versions[1].version;
  EXPECT_TRUE(v.entry.is_compressed());
}

TEST(Conflicts, FormIdsAreComparedByTheFormsTheyNameAcrossMasterLists) {
  TestPlugin m = plugin({}, {{Signature("RACE"), 0x800, {Field::zstring("EDID", "R")}},
                             {Signature("NPC_"), 0x801, {Field::zstring("EDID", "N"), Field::u32("RNAM", 0x800)}}},
                        kEsm);
  TestPlugin other = plugin({}, {{Signature("RACE"), 0x800, {Field::zstring("EDID", "OtherRace")}}}, kEsm);
  // A lists M.esm first; B lists Other.esm first, so M's race is 0x01000800 in B and 0x00000800 in A.
  TestPlugin a = plugin({"M.esm"}, {{Signature("NPC_"), 0x801, {Field::zstring("EDID", "N"), Field::u32("RNAM", 0x800)}}});
  TestPlugin b = plugin({"Other.esm", "M.esm"},
                        {{Signature("NPC_"), 0x01000801, {Field::zstring("EDID", "N"), Field::u32("RNAM", 0x01000800)}}});
  // C's bytes equal A's but its RNAM names Other.esm's race: not equal.
  TestPlugin c = plugin({"Other.esm", "M.esm"},
                        {{Signature("NPC_"), 0x01000801, {Field::zstring("EDID", "N"), Field::u32("RNAM", 0x00000800)}}});
  auto f = load({{"M.esm", m}, {"Other.esm", other}, {"A.esp", a}, {"B.esp", b}});
  const ConflictRecord* r = f->find(0x00000801);
  ASSERT_TRUE(r);
  EXPECT_EQ(f->versions(*r), (std::vector<std::string>{"M.esm", "A.esp", "B.esp"}));
  EXPECT_EQ(r->category, ConflictCategory::NoConflict);
  auto g = load({{"M.esm", m}, {"Other.esm", other}, {"A.esp", a}, {"C.esp", c}});
  const ConflictRecord* s = g->find(0x00000801);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->category, ConflictCategory::Override);
  EXPECT_EQ(g->states(*s), (std::vector<std::string>{"master", "identical_to_master", "wins"}));
}

TEST(Conflicts, FieldDifferencesInExportText) {
  const TestPlugin m = plugin({}, {misc(0x800, "Coin", 1)}, kEsm);
  TestRecord changed = misc(0x800, "Coin", 2, record_flags::kPersistent);
  changed.fields.push_back(Field::zstring("FULL", "Gold"));
  auto f = load({{"M.esm", m}, {"P.esp", plugin({"M.esm"}, {changed})}});
  const ConflictRecord* r = f->find(0x800);
  ASSERT_TRUE(r);
  const TextCodec codec;
  const text::LoadOrderNamers namers(*f->order);
  Inflater inflater;
  const auto fields = text::conflict_fields(*f->order, *r, namers, codec, inflater);
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(fields[0].field, "flags");
  EXPECT_EQ(fields[0].values[0], "0");
  EXPECT_EQ(fields[0].values[1], "Persistent");
  EXPECT_EQ(fields[1].field, "DATA");
  EXPECT_NE(fields[1].values[0], fields[1].values[1]);
  EXPECT_EQ(fields[2].field, "FULL");
  EXPECT_FALSE(fields[2].values[0]);
  EXPECT_EQ(fields[2].values[1], "\"Gold\"");
}

TEST(Conflicts, FiltersByTypePluginAndForm) {
  const TestPlugin m = plugin({}, {misc(0x800, "A", 1), {Signature("WEAP"), 0x801, {Field::zstring("EDID", "W")}}}, kEsm);
  const TestPlugin p = plugin({"M.esm"}, {misc(0x800, "A", 2), {Signature("WEAP"), 0x801, {Field::zstring("EDID", "W2")}}});
  const TestPlugin q = plugin({"M.esm"}, {misc(0x800, "A", 3)});
  auto f = load({{"M.esm", m}, {"P.esp", p}, {"Q.esp", q}});
  ASSERT_EQ(f->records.size(), 2u);
  std::vector<Problem> problems;
  ConflictOptions by_type;
  by_type.types = {Signature("WEAP")};
  auto r = find_conflicts(*f->order, by_type, problems);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].type, Signature("WEAP"));
  ConflictOptions by_plugin;
  by_plugin.plugin = f->order->find("Q.esp");
  r = find_conflicts(*f->order, by_plugin, problems);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].type, Signature("MISC"));
  ConflictOptions by_form;
  by_form.forms = {FormKey{*f->order->find("M.esm"), 0x801}};
  r = find_conflicts(*f->order, by_form, problems);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].editor_id, "W");
}

// Where a plugin's last record starts when it is misc() with a one-letter EDID, and the type there.
std::size_t last_misc_at(const std::vector<std::uint8_t>& bytes) { return bytes.size() - (24 + 8 + 10); }
std::string type_at(const std::vector<std::uint8_t>& bytes, std::size_t at) {
  return std::string(bytes.begin() + std::ptrdiff_t(at), bytes.begin() + std::ptrdiff_t(at) + 4);
}

TEST(Conflicts, ADamagedPluginIsReportedAndTheOthersCompared) {
  Fixture f;
  test::write_plugin(f.dir / "M.esm", plugin({}, {misc(0x800, "A", 1)}, kEsm), 1);
  test::write_plugin(f.dir / "P.esp", plugin({"M.esm"}, {misc(0x800, "A", 2)}), 2);
  std::vector<std::uint8_t> bytes = test::make_plugin(plugin({"M.esm"}, {misc(0x800, "A", 3)}));
  // The last record's size runs past its group: the file header and top-level groups read, the
  // records do not.
  const std::size_t rec = last_misc_at(bytes);
  ASSERT_EQ(type_at(bytes, rec), "MISC");
  bytes[rec + 4] = 118;
  test::write_file(f.dir / "Cut.esp", bytes);
  test::set_mtime(f.dir / "Cut.esp", 3);
  test::write_plugin(f.dir / "Q.esp", plugin({"M.esm"}, {misc(0x800, "A", 4)}), 4);
  test::write_text(f.dir / "plugins.txt", "*M.esm\n*P.esp\n*Cut.esp\n*Q.esp\n");
  f.find();
  ASSERT_EQ(f.problems.size(), 1u);
  EXPECT_EQ(f.problems[0].file, "Cut.esp");
  EXPECT_NE(f.problems[0].message.find("offset"), std::string::npos) << f.problems[0].message;
  ASSERT_EQ(f.records.size(), 1u);
  ASSERT_EQ(f.records[0].versions.size(), 3u);
  EXPECT_EQ(f.order->plugin(f.records[0].winner().version.plugin).name, "Q.esp");
}

TEST(Conflicts, ADamagedMasterWalkedForItsOverriddenRecordsIsReported) {
  Fixture f;
  std::vector<std::uint8_t> bytes = test::make_plugin(plugin({}, {misc(0x800, "A", 1), misc(0x801, "B", 1)}, kEsm));
  // The last record's type is not a record type: the header and top-level groups read, the
  // walk of the group for the overridden records does not.
  const std::size_t rec = last_misc_at(bytes);
  ASSERT_EQ(type_at(bytes, rec), "MISC");
  std::copy_n("a!b?", 4, bytes.begin() + std::ptrdiff_t(rec));
  test::write_file(f.dir / "M.esm", bytes);
  test::set_mtime(f.dir / "M.esm", 1);
  test::write_plugin(f.dir / "P.esp", plugin({"M.esm"}, {misc(0x800, "A", 2)}), 2);
  test::write_plugin(f.dir / "Q.esp", plugin({"M.esm"}, {misc(0x800, "A", 3)}), 3);
  test::write_text(f.dir / "plugins.txt", "*M.esm\n*P.esp\n*Q.esp\n");
  f.find();
  ASSERT_EQ(f.problems.size(), 1u);
  EXPECT_EQ(f.problems[0].file, "M.esm");
  EXPECT_NE(f.problems[0].message.find("left out of the conflicts"), std::string::npos) << f.problems[0].message;
  EXPECT_NE(f.problems[0].message.find("offset"), std::string::npos) << f.problems[0].message;
  // The plugins' versions are still compared, without the master's.
  ASSERT_EQ(f.records.size(), 1u);
  EXPECT_FALSE(f.records[0].defining_version);
  ASSERT_EQ(f.records[0].versions.size(), 2u);
  EXPECT_EQ(f.order->plugin(f.records[0].winner().version.plugin).name, "Q.esp");
}

}  // namespace
}  // namespace tesmod::loadorder
