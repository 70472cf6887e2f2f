// The patch's list-like imports by Bash Tag (Invent.*, Outfits.*, Relations.*, Actors.Factions,
// Actors.Spells, NPC.Perks.*), on small load orders: each tagged plugin's additions, removals and
// changes against its own masters land in the patch, read back from the written bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "plugin_maker.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/patch/patch.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "test_support.hpp"

namespace tesmod::patch {
namespace {

using test::TestPlugin;
using test::TestRecord;

using Bytes = std::vector<std::uint8_t>;

Bytes u32s(std::initializer_list<std::uint32_t> values) {
  Bytes out;
  for (std::uint32_t v : values)
    for (int k = 0; k < 4; ++k) out.push_back(std::uint8_t(v >> (8 * k)));
  return out;
}

Field cnto(std::uint32_t item, std::int32_t count) { return Field::bytes("CNTO", u32s({item, std::uint32_t(count)})); }
Field coed(std::uint32_t owner, std::uint32_t second, float condition) {
  std::uint32_t c;
  std::memcpy(&c, &condition, 4);
  return Field::bytes("COED", u32s({owner, second, c}));
}
Field snam(std::uint32_t faction, std::uint8_t rank) {
  Bytes d = u32s({faction});
  d.insert(d.end(), {rank, 0, 0, 0});
  return Field::bytes("SNAM", d);
}
Field prkr(std::uint32_t perk, std::uint8_t rank) {
  Bytes d = u32s({perk});
  d.insert(d.end(), {rank, 0, 0, 0});
  return Field::bytes("PRKR", d);
}
Field xnam(std::uint32_t faction, std::int32_t modifier, std::optional<std::uint32_t> reaction) {
  Bytes d = u32s({faction, std::uint32_t(modifier)});
  if (reaction) {
    const Bytes r = u32s({*reaction});
    d.insert(d.end(), r.begin(), r.end());
  }
  return Field::bytes("XNAM", d);
}

TestPlugin plugin(Game game, std::vector<std::string> masters, std::vector<TestRecord> records) {
  TestPlugin p;
  p.game = game;
  p.header_flags = masters.empty() ? record_flags::kMaster : 0;
  p.masters = std::move(masters);
  p.records = std::move(records);
  return p;
}

// A patch made from plugins (in load order, all active) and --tags, and read back.
struct Patched {
  PatchPlan plan;
  std::unique_ptr<Plugin> written;  // null when the patch has no records
  std::vector<std::string> masters;

  // The FormID the patch stores for a form of `plugin`.
  std::uint32_t id(std::string_view plugin, std::uint32_t object) const {
    const auto it = std::find(masters.begin(), masters.end(), plugin);
    EXPECT_NE(it, masters.end()) << plugin << " is not a master of the patch";
    return std::uint32_t(it - masters.begin()) << 24 | object;
  }
  const Record* find(std::string_view plugin, std::uint32_t object) const {
    return written ? written->find(id(plugin, object)) : nullptr;
  }
  const PatchRecord* planned(std::uint32_t object) const {
    for (const PatchRecord& r : plan.records)
      if (r.form.object_id == object) return &r;
    return nullptr;
  }
  const TagUse* use(std::string_view plugin_name, std::string_view tag, const loadorder::LoadOrder& order) const {
    for (const TagUse& u : plan.tag_uses)
      if (order.plugin(u.plugin).name == plugin_name && u.tag == tag) return &u;
    return nullptr;
  }
};

struct Order {
  test::TempDir dir;
  std::unique_ptr<loadorder::LoadOrder> order;

  void open(const std::vector<std::pair<std::string, TestPlugin>>& plugins) {
    loadorder::LoadOrderSource s;
    s.data = dir.path();
    s.threads = 1;
    for (const auto& [name, p] : plugins) {
      test::write_plugin(dir / name, p);
      s.files.push_back(dir / name);
    }
    order = std::make_unique<loadorder::LoadOrder>(loadorder::LoadOrder::open(s));
  }

  Patched patch(std::vector<std::pair<std::string, std::string>> tags) const {
    PatchOptions options;
    options.tags.data = dir.path();
    options.tags.command_line = std::move(tags);
    Patched out;
    out.plan = plan_patch(*order, options);
    if (out.plan.records.empty()) return out;
    write_file_atomic(dir / "Bashed Patch, 0.esp", patch_bytes(*order, out.plan));
    out.written = std::make_unique<Plugin>(Plugin::open(dir / "Bashed Patch, 0.esp"));
    for (const MasterFile& m : out.written->header().masters) out.masters.push_back(m.name);
    return out;
  }
};

std::vector<Field> fields_of(const Record* r, Signature type) {
  std::vector<Field> out;
  if (!r) return out;
  for (const Field& f : r->fields())
    if (f.type == type) out.push_back(f);
  return out;
}

std::vector<std::string> types_of(const Record* r) {
  std::vector<std::string> out;
  if (r)
    for (const Field& f : r->fields()) out.push_back(f.type.str());
  return out;
}

// (FormID, count) of each CNTO, in the order written.
std::vector<std::pair<std::uint32_t, std::int32_t>> items_of(const Record* r) {
  std::vector<std::pair<std::uint32_t, std::int32_t>> out;
  for (const Field& f : fields_of(r, "CNTO")) out.push_back({le::u32(f.data.data()), le::i32(f.data.data() + 4)});
  return out;
}

// (FormID, byte 4) of each field of the type: faction and rank, perk and rank.
std::vector<std::pair<std::uint32_t, int>> ranked(const Record* r, Signature type) {
  std::vector<std::pair<std::uint32_t, int>> out;
  for (const Field& f : fields_of(r, type)) out.push_back({le::u32(f.data.data()), int(f.data[4])});
  return out;
}

std::vector<std::uint32_t> form_ids(const Record* r, Signature type) {
  std::vector<std::uint32_t> out;
  for (const Field& f : fields_of(r, type))
    for (std::size_t at = 0; at + 4 <= f.data.size(); at += 4) out.push_back(le::u32(f.data.data() + at));
  return out;
}

std::optional<std::uint32_t> counter(const Record* r, Signature type) {
  const auto f = fields_of(r, type);
  if (f.empty()) return std::nullopt;
  return le::u32(f.front().data.data());
}

constexpr Game kSSE = Game::SkyrimSE;
constexpr std::uint32_t kCont = 0x900;

// Skyrim.esm-like master: items 0x800-0x805 and a container holding `items`.
TestPlugin master_with_container(std::vector<Field> items) {
  std::vector<TestRecord> records;
  for (std::uint32_t i = 0; i < 6; ++i)
    records.push_back({"MISC", 0x800 + i, {Field::zstring("EDID", "Item" + std::to_string(i))}});
  std::vector<Field> cont{Field::zstring("EDID", "Chest"), Field::zstring("FULL", "Chest")};
  if (!items.empty()) cont.push_back(Field::u32("COCT", std::uint32_t(std::count_if(items.begin(), items.end(), [](const Field& f) {
                                                  return f.type == Signature("CNTO");
                                                }))));
  cont.insert(cont.end(), items.begin(), items.end());
  cont.push_back(Field::bytes("DATA", Bytes{0, 0, 0, 0, 0}));
  records.push_back({"CONT", kCont, cont});
  return plugin(kSSE, {}, records);
}

// An override of the container (masters: M.esm) holding `items`, named `name`.
TestPlugin container_override(std::vector<Field> items, std::string name = "Chest",
                              std::vector<std::string> masters = {"M.esm"}) {
  std::vector<Field> cont{Field::zstring("EDID", "Chest"), Field::zstring("FULL", name)};
  if (!items.empty()) cont.push_back(Field::u32("COCT", std::uint32_t(std::count_if(items.begin(), items.end(), [](const Field& f) {
                                                  return f.type == Signature("CNTO");
                                                }))));
  cont.insert(cont.end(), items.begin(), items.end());
  cont.push_back(Field::bytes("DATA", Bytes{0, 0, 0, 0, 0}));
  return plugin(kSSE, std::move(masters), {{"CONT", kCont, cont}});
}

// ---- inventories ---------------------------------------------------------------------------

TEST(PatchListImportsInventory, TwoPluginsAddingDifferentItemsBothLand) {
  Order o;
  o.open({{"M.esm", master_with_container({cnto(0x800, 1)})},
          {"A.esp", container_override({cnto(0x800, 1), cnto(0x802, 2)})},
          {"B.esp", container_override({cnto(0x801, 3), cnto(0x800, 1)}, "B's chest")}});
  const Patched p = o.patch({{"A.esp", "Invent.Add"}, {"B.esp", "Invent.Add"}});
  const Record* cont = p.find("M.esm", kCont);
  ASSERT_NE(cont, nullptr);
  // Sorted as Wrye Bash writes inventories: by item, then count.
  EXPECT_EQ(items_of(cont), (std::vector<std::pair<std::uint32_t, std::int32_t>>{
                                {p.id("M.esm", 0x800), 1}, {p.id("M.esm", 0x801), 3}, {p.id("M.esm", 0x802), 2}}));
  EXPECT_EQ(counter(cont, "COCT"), 3u);
  // The winner's other fields, and the list where it had it.
  EXPECT_EQ(fields_of(cont, "FULL").at(0).as_zstring(), "B's chest");
  EXPECT_EQ(types_of(cont), (std::vector<std::string>{"EDID", "FULL", "COCT", "CNTO", "CNTO", "CNTO", "DATA"}));
  const PatchRecord* r = p.planned(kCont);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->outcome.part, "Invent.Add");
  EXPECT_EQ(r->outcome.sources, (std::vector<std::uint32_t>{1}));  // B's addition is in the winner already
  ASSERT_EQ(r->outcome.notes.size(), 1u);
  EXPECT_EQ(r->outcome.notes[0], "A.esp [Invent.Add]: added 1 item (M.esm:000802 x2)");
  const TagUse* a = p.use("A.esp", "Invent.Add", *o.order);
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(a->used);
  EXPECT_EQ(a->why, "added 1 item in 1 record");
}

TEST(PatchListImportsInventory, RemovedItemStaysRemovedAgainstALaterUntaggedPlugin) {
  Order o;
  o.open({{"M.esm", master_with_container({cnto(0x800, 1), cnto(0x801, 1)})},
          {"A.esp", container_override({cnto(0x800, 1)})},
          {"C.esp", container_override({cnto(0x800, 1), cnto(0x801, 1)}, "C's chest")}});
  const Patched p = o.patch({{"A.esp", "Invent.Remove"}});
  const Record* cont = p.find("M.esm", kCont);
  ASSERT_NE(cont, nullptr);
  EXPECT_EQ(items_of(cont), (std::vector<std::pair<std::uint32_t, std::int32_t>>{{p.id("M.esm", 0x800), 1}}));
  EXPECT_EQ(counter(cont, "COCT"), 1u);
  EXPECT_EQ(fields_of(cont, "FULL").at(0).as_zstring(), "C's chest");
  EXPECT_EQ(p.planned(kCont)->outcome.notes.at(0), "A.esp [Invent.Remove]: removed 1 item (M.esm:000801 x1)");
}

TEST(PatchListImportsInventory, RemovingEveryItemDropsTheCounter) {
  Order o;
  o.open({{"M.esm", master_with_container({cnto(0x800, 1)})},
          {"A.esp", container_override({})},
          {"C.esp", container_override({cnto(0x800, 1)}, "C's chest")}});
  const Patched p = o.patch({{"A.esp", "Invent.Remove"}});
  const Record* cont = p.find("M.esm", kCont);
  ASSERT_NE(cont, nullptr);
  EXPECT_EQ(types_of(cont), (std::vector<std::string>{"EDID", "FULL", "DATA"}));
}

TEST(PatchListImportsInventory, ChangeTagChangesACountAndWithoutItTheChangeIsIgnored) {
  const auto make = [](Order& o) {
    o.open({{"M.esm", master_with_container({cnto(0x800, 1), cnto(0x801, 1)})},
            {"A.esp", container_override({cnto(0x800, 5), cnto(0x801, 1)})},
            {"C.esp", container_override({cnto(0x800, 1), cnto(0x801, 1), cnto(0x803, 1)})}});
  };
  Order changed;
  make(changed);
  const Patched p = changed.patch({{"A.esp", "Invent.Change"}});
  EXPECT_EQ(items_of(p.find("M.esm", kCont)),
            (std::vector<std::pair<std::uint32_t, std::int32_t>>{
                {p.id("M.esm", 0x800), 5}, {p.id("M.esm", 0x801), 1}, {p.id("M.esm", 0x803), 1}}));
  EXPECT_EQ(p.planned(kCont)->outcome.part, "Invent.Change");

  Order ignored;
  make(ignored);
  const Patched q = ignored.patch({{"A.esp", "Invent.Add,Invent.Remove"}});
  EXPECT_EQ(q.planned(kCont), nullptr);
  EXPECT_EQ(q.written, nullptr);
  const TagUse* add = q.use("A.esp", "Invent.Add", *ignored.order);
  ASSERT_NE(add, nullptr);
  EXPECT_FALSE(add->used);
  EXPECT_EQ(add->why, "adds no item in the 1 record it overrides from its masters");
}

TEST(PatchListImportsInventory, AddOnlyDoesNotRemove) {
  const auto make = [](Order& o) {
    o.open({{"M.esm", master_with_container({cnto(0x800, 1), cnto(0x801, 1)})},
            {"A.esp", container_override({cnto(0x800, 1), cnto(0x802, 1)})},
            {"C.esp", container_override({cnto(0x800, 1), cnto(0x801, 1)}, "C's chest")}});
  };
  Order add_only;
  make(add_only);
  const Patched p = add_only.patch({{"A.esp", "Invent.Add"}});
  EXPECT_EQ(items_of(p.find("M.esm", kCont)),
            (std::vector<std::pair<std::uint32_t, std::int32_t>>{
                {p.id("M.esm", 0x800), 1}, {p.id("M.esm", 0x801), 1}, {p.id("M.esm", 0x802), 1}}));

  Order both;
  make(both);
  const Patched q = both.patch({{"A.esp", "Invent.Add,Invent.Remove"}});
  EXPECT_EQ(items_of(q.find("M.esm", kCont)),
            (std::vector<std::pair<std::uint32_t, std::int32_t>>{{q.id("M.esm", 0x800), 1}, {q.id("M.esm", 0x802), 1}}));
  EXPECT_EQ(q.planned(kCont)->outcome.part, "Invent.Add, Invent.Remove");
}

TEST(PatchListImportsInventory, AChangeReplacesTheFirstEntryOfItsKeyInWriteOrder) {
  // As Wrye Bash holds lists sorted (item, then count): A's 0x800 x3 replaces the winner's x1,
  // though the winner lists x2 first.
  Order o;
  o.open({{"M.esm", master_with_container({})},
          {"P.esp", container_override({cnto(0x800, 2)})},
          {"A.esp", container_override({cnto(0x800, 3)}, "Chest", {"M.esm", "P.esp"})},
          {"C.esp", container_override({cnto(0x800, 2), cnto(0x800, 1)}, "C's chest", {"M.esm", "P.esp"})}});
  const Patched p = o.patch({{"A.esp", "Invent.Change"}});
  EXPECT_EQ(items_of(p.find("M.esm", kCont)),
            (std::vector<std::pair<std::uint32_t, std::int32_t>>{{p.id("M.esm", 0x800), 2}, {p.id("M.esm", 0x800), 3}}));
}

TEST(PatchListImportsInventory, DuplicatesAreKept) {
  Order o;
  o.open({{"M.esm", master_with_container({cnto(0x800, 1), cnto(0x800, 1)})},
          {"A.esp", container_override({cnto(0x800, 1), cnto(0x802, 2), cnto(0x800, 1), cnto(0x802, 1)})},
          {"C.esp", container_override({cnto(0x800, 1), cnto(0x800, 1)}, "C's chest")}});
  const Patched p = o.patch({{"A.esp", "Invent.Add"}});
  const Record* cont = p.find("M.esm", kCont);
  EXPECT_EQ(items_of(cont), (std::vector<std::pair<std::uint32_t, std::int32_t>>{{p.id("M.esm", 0x800), 1},
                                                                                 {p.id("M.esm", 0x800), 1},
                                                                                 {p.id("M.esm", 0x802), 1},
                                                                                 {p.id("M.esm", 0x802), 2}}));
  EXPECT_EQ(counter(cont, "COCT"), 4u);
}

TEST(PatchListImportsInventory, NothingWrittenWhenTheTaggedPluginsChangeNothing) {
  Order o;
  o.open({{"M.esm", master_with_container({cnto(0x800, 1), cnto(0x801, 2)})},
          // Same items in another order, another name: no list change.
          {"A.esp", container_override({cnto(0x801, 2), cnto(0x800, 1)}, "Renamed")},
          // Adds an item the winner (itself) already has.
          {"B.esp", container_override({cnto(0x800, 1), cnto(0x801, 2), cnto(0x803, 1)})}});
  const Patched p = o.patch({{"A.esp", "Invent.Add,Invent.Remove,Invent.Change"}, {"B.esp", "Invent.Add"}});
  EXPECT_TRUE(p.plan.records.empty());
  EXPECT_EQ(p.written, nullptr);
  const TagUse* remove = p.use("A.esp", "Invent.Remove", *o.order);
  ASSERT_NE(remove, nullptr);
  EXPECT_FALSE(remove->used);
  EXPECT_EQ(remove->why, "removes no item in the 1 record it overrides from its masters");
  const TagUse* add = p.use("B.esp", "Invent.Add", *o.order);
  ASSERT_NE(add, nullptr);
  EXPECT_TRUE(add->used);  // it added an item against its masters; the patch had nothing left to do
}

TEST(PatchListImportsInventory, TagOnAPluginOverridingNothingIsReported) {
  Order o;
  o.open({{"M.esm", master_with_container({cnto(0x800, 1)})},
          {"A.esp", plugin(kSSE, {"M.esm"}, {{"MISC", 0x01000800, {Field::zstring("EDID", "New")}}})}});
  const Patched p = o.patch({{"A.esp", "Invent.Add"}});
  const TagUse* add = p.use("A.esp", "Invent.Add", *o.order);
  ASSERT_NE(add, nullptr);
  EXPECT_FALSE(add->used);
  EXPECT_EQ(add->why, "overrides none of its masters' CONT, NPC_ or COBJ records");
}

TEST(PatchListImportsInventory, FormIdsAndCoedAcrossDifferentMasterLists) {
  Order o;
  // N.esm: an item, an NPC owner with a global, a faction owner.
  TestPlugin n = plugin(kSSE, {}, {{"MISC", 0x801, {Field::zstring("EDID", "NItem")}},
                                   {"NPC_", 0x810, {Field::zstring("EDID", "Owner")}},
                                   {"GLOB", 0x811, {Field::zstring("EDID", "OwnerGlobal")}},
                                   {"FACT", 0x812, {Field::zstring("EDID", "Guild")}}});
  // M's container has no items; X (masters N, M: N's forms are 00xxxxxx there) adds two, each
  // with its COED; Y (masters M only) wins without them.
  TestPlugin x = container_override({cnto(0x00000801, 2), coed(0x00000810, 0x00000811, 1.0f), cnto(0x01000800, 1),
                                     coed(0x00000812, 3, 0.5f)},
                                    "X's chest", {"N.esm", "M.esm"});
  x.records[0].form_id = 0x01000000 | kCont;
  TestPlugin y = container_override({}, "Y's chest");
  o.open({{"M.esm", master_with_container({})}, {"N.esm", n}, {"X.esp", x}, {"Y.esp", y}});
  const Patched p = o.patch({{"X.esp", "Invent.Add"}});
  ASSERT_EQ(p.masters, (std::vector<std::string>{"M.esm", "N.esm"}));
  const Record* cont = p.find("M.esm", kCont);
  ASSERT_NE(cont, nullptr);
  // The list goes after the field that comes before it in X's record.
  EXPECT_EQ(types_of(cont), (std::vector<std::string>{"EDID", "FULL", "COCT", "CNTO", "COED", "CNTO", "COED", "DATA"}));
  EXPECT_EQ(items_of(cont), (std::vector<std::pair<std::uint32_t, std::int32_t>>{{0x00000800, 1}, {0x01000801, 2}}));
  const std::vector<Field> coeds = fields_of(cont, "COED");
  ASSERT_EQ(coeds.size(), 2u);
  // The faction owner's rank stays a number; the NPC owner's global is a FormID, mapped.
  EXPECT_EQ(le::u32(coeds[0].data.data()), 0x01000812u);
  EXPECT_EQ(le::u32(coeds[0].data.data() + 4), 3u);
  EXPECT_EQ(le::f32(coeds[0].data.data() + 8), 0.5f);
  EXPECT_EQ(le::u32(coeds[1].data.data()), 0x01000810u);
  EXPECT_EQ(le::u32(coeds[1].data.data() + 4), 0x01000811u);
  EXPECT_EQ(fields_of(cont, "FULL").at(0).as_zstring(), "Y's chest");
}

TEST(PatchListImportsInventory, TaggedMastersChangesArePartOfWhatTheMastersGive) {
  // A (Invent.Add) adds 0x802. D wins among B's masters without it; B has A as a master and does
  // not list 0x802 either: with Invent.Remove it removed 0x801 and A's 0x802.
  Order o;
  o.open({{"M.esm", master_with_container({cnto(0x800, 1), cnto(0x801, 1)})},
          {"A.esp", container_override({cnto(0x800, 1), cnto(0x801, 1), cnto(0x802, 1)})},
          {"D.esp", container_override({cnto(0x800, 1), cnto(0x801, 1), cnto(0x803, 1)})},
          {"B.esp", container_override({cnto(0x800, 1), cnto(0x803, 1)}, "B's chest", {"M.esm", "A.esp", "D.esp"})},
          {"C.esp", container_override({cnto(0x800, 1), cnto(0x801, 1)}, "C's chest")}});
  const Patched p = o.patch({{"A.esp", "Invent.Add"}, {"B.esp", "Invent.Remove"}});
  EXPECT_EQ(items_of(p.find("M.esm", kCont)),
            (std::vector<std::pair<std::uint32_t, std::int32_t>>{{p.id("M.esm", 0x800), 1}}));
  const TagUse* remove = p.use("B.esp", "Invent.Remove", *o.order);
  ASSERT_NE(remove, nullptr);
  EXPECT_EQ(remove->why, "removed 2 items in 1 record");
  EXPECT_EQ(p.planned(kCont)->outcome.notes.back(),
            "B.esp [Invent.Remove]: removed 2 items (M.esm:000801 x1, M.esm:000802 x1)");
}

TEST(PatchListImportsInventory, ConstructibleObjectIngredients) {
  Order o;
  TestPlugin m = master_with_container({});
  m.records.push_back({"COBJ", 0x950, {Field::zstring("EDID", "Recipe"), Field::u32("COCT", 1), cnto(0x800, 2),
                                       Field::u32("CNAM", 0x801)}});
  o.open({{"M.esm", m},
          {"A.esp", plugin(kSSE, {"M.esm"}, {{"COBJ", 0x950, {Field::zstring("EDID", "Recipe"), Field::u32("COCT", 2),
                                                               cnto(0x800, 2), cnto(0x802, 1), Field::u32("CNAM", 0x801)}}})},
          {"B.esp", plugin(kSSE, {"M.esm"}, {{"COBJ", 0x950, {Field::zstring("EDID", "Recipe"), Field::u32("COCT", 1),
                                                               cnto(0x800, 4), Field::u32("CNAM", 0x801)}}})}});
  const Patched p = o.patch({{"A.esp", "Invent.Add"}});
  const Record* cobj = p.find("M.esm", 0x950);
  ASSERT_NE(cobj, nullptr);
  EXPECT_EQ(items_of(cobj), (std::vector<std::pair<std::uint32_t, std::int32_t>>{{p.id("M.esm", 0x800), 4},
                                                                                 {p.id("M.esm", 0x802), 1}}));
  EXPECT_EQ(counter(cobj, "COCT"), 2u);
  EXPECT_EQ(types_of(cobj), (std::vector<std::string>{"EDID", "COCT", "CNTO", "CNTO", "CNAM"}));
}

// ---- actors: factions, spells, perks --------------------------------------------------------

constexpr std::uint32_t kNpc = 0x920;

TestPlugin actor_master() {
  std::vector<TestRecord> r;
  for (std::uint32_t i = 0; i < 3; ++i) {
    r.push_back({"FACT", 0x830 + i, {Field::zstring("EDID", "Faction" + std::to_string(i))}});
    r.push_back({"SPEL", 0x840 + i, {Field::zstring("EDID", "Spell" + std::to_string(i))}});
    r.push_back({"PERK", 0x850 + i, {Field::zstring("EDID", "Perk" + std::to_string(i))}});
  }
  r.push_back({"NPC_", kNpc, {Field::zstring("EDID", "Guard"), snam(0x830, 0), snam(0x831, 1), Field::u32("SPCT", 2),
                              Field::u32("SPLO", 0x840), Field::u32("SPLO", 0x841), Field::u32("PRKZ", 1),
                              prkr(0x850, 1), Field::zstring("FULL", "Guard")}});
  return plugin(kSSE, {}, r);
}

TestPlugin npc(std::vector<Field> lists, std::string name = "Guard") {
  std::vector<Field> f{Field::zstring("EDID", "Guard")};
  f.insert(f.end(), lists.begin(), lists.end());
  f.push_back(Field::zstring("FULL", name));
  return plugin(kSSE, {"M.esm"}, {{"NPC_", kNpc, f}});
}

TEST(PatchListImportsActors, FactionsAddChangeAndRemoveWithOneTag) {
  Order o;
  o.open({{"M.esm", actor_master()},
          {"A.esp", npc({snam(0x832, 0), snam(0x830, 3), snam(0x831, 1)})},  // adds 832, rank of 830 -> 3
          {"B.esp", npc({snam(0x830, 0)})},                                   // removes 831
          {"C.esp", npc({snam(0x830, 0), snam(0x831, 1), Field::u32("SPCT", 1), Field::u32("SPLO", 0x841)},
                        "C's guard")}});
  const Patched p = o.patch({{"A.esp", "Actors.Factions"}, {"B.esp", "Actors.Factions"}});
  const Record* r = p.find("M.esm", kNpc);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ranked(r, "SNAM"), (std::vector<std::pair<std::uint32_t, int>>{{p.id("M.esm", 0x830), 3},
                                                                          {p.id("M.esm", 0x832), 0}}));
  // The other lists are the winner's.
  EXPECT_EQ(form_ids(r, "SPLO"), (std::vector<std::uint32_t>{p.id("M.esm", 0x841)}));
  EXPECT_EQ(types_of(r), (std::vector<std::string>{"EDID", "SNAM", "SNAM", "SPCT", "SPLO", "FULL"}));
  const PatchRecord* planned = p.planned(kNpc);
  EXPECT_EQ(planned->outcome.part, "Actors.Factions");
  EXPECT_EQ(planned->outcome.notes,
            (std::vector<std::string>{
                "A.esp [Actors.Factions]: changed 1 faction (M.esm:000830 rank 3); added 1 faction (M.esm:000832 rank 0)",
                "B.esp [Actors.Factions]: removed 1 faction (M.esm:000831 rank 1)"}));
}

TEST(PatchListImportsActors, SpellsAndPerksWithTheirCounters) {
  Order o;
  o.open({{"M.esm", actor_master()},
          {"A.esp", npc({Field::u32("SPCT", 2), Field::u32("SPLO", 0x842), Field::u32("SPLO", 0x840),
                         Field::u32("PRKZ", 2), prkr(0x850, 1), prkr(0x851, 1)})},
          {"B.esp", npc({Field::u32("SPCT", 2), Field::u32("SPLO", 0x840), Field::u32("SPLO", 0x841),
                         Field::u32("PRKZ", 1), prkr(0x850, 2)})},
          {"C.esp", npc({snam(0x830, 0), snam(0x831, 1), Field::u32("SPCT", 2), Field::u32("SPLO", 0x840),
                         Field::u32("SPLO", 0x841), Field::u32("PRKZ", 1), prkr(0x850, 1)},
                        "C's guard")}});
  const Patched p = o.patch({{"A.esp", "Actors.Spells,NPC.Perks.Add"}, {"B.esp", "NPC.Perks.Change"}});
  const Record* r = p.find("M.esm", kNpc);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(form_ids(r, "SPLO"), (std::vector<std::uint32_t>{p.id("M.esm", 0x840), p.id("M.esm", 0x842)}));
  EXPECT_EQ(counter(r, "SPCT"), 2u);
  EXPECT_EQ(ranked(r, "PRKR"), (std::vector<std::pair<std::uint32_t, int>>{{p.id("M.esm", 0x850), 2},
                                                                          {p.id("M.esm", 0x851), 1}}));
  EXPECT_EQ(counter(r, "PRKZ"), 2u);
  EXPECT_EQ(types_of(r), (std::vector<std::string>{"EDID", "SNAM", "SNAM", "SPCT", "SPLO", "SPLO", "PRKZ", "PRKR",
                                                   "PRKR", "FULL"}));
  const PatchRecord* planned = p.planned(kNpc);
  EXPECT_EQ(planned->outcome.part, "Actors.Spells, NPC.Perks.Add, NPC.Perks.Change");
  EXPECT_EQ(planned->outcome.sources, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(fields_of(r, "FULL").at(0).as_zstring(), "C's guard");
}

// ---- factions' relations, outfits -----------------------------------------------------------

TEST(PatchListImportsRelations, AddAndChangeButNoRemoveWithoutTheTag) {
  Order o;
  TestPlugin m = actor_master();
  m.records.push_back({"FACT", 0x860, {Field::zstring("EDID", "Town"), xnam(0x830, 0, 0), xnam(0x831, 10, 1)}});
  const auto fact = [](std::vector<Field> relations, std::string name) {
    std::vector<Field> f{Field::zstring("EDID", "Town")};
    f.insert(f.end(), relations.begin(), relations.end());
    f.push_back(Field::zstring("FULL", name));
    return plugin(kSSE, {"M.esm"}, {{"FACT", 0x860, f}});
  };
  o.open({{"M.esm", m},
          {"A.esp", fact({xnam(0x830, -20, 2), xnam(0x832, 5, 0)}, "A")},  // changes 830, adds 832, drops 831
          {"C.esp", fact({xnam(0x830, 0, 0), xnam(0x831, 10, 1)}, "C")}});
  const Patched p = o.patch({{"A.esp", "Relations.Add,Relations.Change"}});
  const Record* r = p.find("M.esm", 0x860);
  ASSERT_NE(r, nullptr);
  const std::vector<Field> x = fields_of(r, "XNAM");
  ASSERT_EQ(x.size(), 3u);
  EXPECT_EQ(x[0].data, xnam(p.id("M.esm", 0x830), -20, 2).data);
  EXPECT_EQ(x[1].data, xnam(p.id("M.esm", 0x831), 10, 1).data);
  EXPECT_EQ(x[2].data, xnam(p.id("M.esm", 0x832), 5, 0).data);
  EXPECT_EQ(p.planned(0x860)->outcome.part, "Relations.Add, Relations.Change");
}

TEST(PatchListImportsOutfits, AddAndRemoveInOneArray) {
  Order o;
  TestPlugin m = master_with_container({});
  m.records.push_back({"OTFT", 0x870, {Field::zstring("EDID", "Outfit"), Field::bytes("INAM", u32s({0x800, 0x801}))}});
  const auto otft = [](std::initializer_list<std::uint32_t> items) {
    return plugin(kSSE, {"M.esm"}, {{"OTFT", 0x870, {Field::zstring("EDID", "Outfit"), Field::bytes("INAM", u32s(items))}}});
  };
  o.open({{"M.esm", m},
          {"A.esp", otft({0x800, 0x801, 0x803})},
          {"B.esp", otft({0x801})},
          {"C.esp", otft({0x801, 0x800})}});
  const Patched p = o.patch({{"A.esp", "Outfits.Add"}, {"B.esp", "Outfits.Remove"}});
  const Record* r = p.find("M.esm", 0x870);
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(fields_of(r, "INAM").size(), 1u);
  EXPECT_EQ(form_ids(r, "INAM"), (std::vector<std::uint32_t>{p.id("M.esm", 0x801), p.id("M.esm", 0x803)}));
  EXPECT_EQ(p.planned(0x870)->outcome.part, "Outfits.Add, Outfits.Remove");
}

// ---- Oblivion -------------------------------------------------------------------------------

constexpr Game kTES4 = Game::Oblivion;

TEST(PatchListImportsOblivion, CreatureInventoryFactionsAndSpells) {
  Order o;
  std::vector<TestRecord> r{{"MISC", 0x800, {Field::zstring("EDID", "Gold")}},
                            {"MISC", 0x801, {Field::zstring("EDID", "Key")}},
                            {"FACT", 0x830, {Field::zstring("EDID", "Wolves"), xnam(0x831, 0, std::nullopt)}},
                            {"FACT", 0x831, {Field::zstring("EDID", "Bears")}},
                            {"LVSP", 0x840, {Field::zstring("EDID", "Leveled")}},
                            {"SPEL", 0x850, {Field::zstring("EDID", "Bite")}},
                            {"CREA", 0x900, {Field::zstring("EDID", "Wolf"), Field::zstring("FULL", "Wolf"),
                                             Field::u32("SPLO", 0x840), cnto(0x800, 1), snam(0x830, 0)}}};
  const auto crea = [](std::vector<Field> lists, std::string name) {
    std::vector<Field> f{Field::zstring("EDID", "Wolf"), Field::zstring("FULL", name)};
    f.insert(f.end(), lists.begin(), lists.end());
    return plugin(kTES4, {"Oblivion.esm"}, {{"CREA", 0x900, f}});
  };
  o.open({{"Oblivion.esm", plugin(kTES4, {}, r)},
          {"A.esp", crea({Field::u32("SPLO", 0x840), Field::u32("SPLO", 0x850), cnto(0x800, 3), cnto(0x801, 1),
                          snam(0x830, 2)},
                         "A")},
          {"C.esp", crea({Field::u32("SPLO", 0x840), cnto(0x800, 1), snam(0x830, 0)}, "C's wolf")}});
  const Patched p = o.patch({{"A.esp", "Invent.Add,Invent.Change,Actors.Spells,Actors.Factions"}});
  const Record* wolf = p.find("Oblivion.esm", 0x900);
  ASSERT_NE(wolf, nullptr);
  EXPECT_EQ(items_of(wolf), (std::vector<std::pair<std::uint32_t, std::int32_t>>{{0x800, 3}, {0x801, 1}}));
  EXPECT_TRUE(fields_of(wolf, "COCT").empty());  // Oblivion counts nothing
  // Leveled spells after the others, as the Construction Set writes them.
  EXPECT_EQ(form_ids(wolf, "SPLO"), (std::vector<std::uint32_t>{0x850, 0x840}));
  EXPECT_EQ(ranked(wolf, "SNAM"), (std::vector<std::pair<std::uint32_t, int>>{{0x830, 2}}));
  EXPECT_EQ(types_of(wolf), (std::vector<std::string>{"EDID", "FULL", "SPLO", "SPLO", "CNTO", "CNTO", "SNAM"}));
  EXPECT_EQ(fields_of(wolf, "FULL").at(0).as_zstring(), "C's wolf");
}

TEST(PatchListImportsOblivion, RelationsWithoutGroupCombatReaction) {
  Order o;
  std::vector<TestRecord> r{{"FACT", 0x830, {Field::zstring("EDID", "Wolves"), xnam(0x831, 0, std::nullopt)}},
                            {"FACT", 0x831, {Field::zstring("EDID", "Bears")}},
                            {"FACT", 0x832, {Field::zstring("EDID", "Deer")}}};
  const auto fact = [](std::vector<Field> relations) {
    std::vector<Field> f{Field::zstring("EDID", "Wolves")};
    f.insert(f.end(), relations.begin(), relations.end());
    return plugin(kTES4, {"Oblivion.esm"}, {{"FACT", 0x830, f}});
  };
  o.open({{"Oblivion.esm", plugin(kTES4, {}, r)},
          {"A.esp", fact({xnam(0x831, -50, std::nullopt), xnam(0x832, 10, std::nullopt)})},
          {"B.esp", fact({})},
          {"C.esp", fact({xnam(0x831, 0, std::nullopt)})}});
  const Patched p = o.patch({{"A.esp", "Relations.Add,Relations.Change"}, {"B.esp", "Relations.Remove"}});
  const Record* wolves = p.find("Oblivion.esm", 0x830);
  ASSERT_NE(wolves, nullptr);
  // A changed 831 and added 832; B, later, removed 831.
  const std::vector<Field> x = fields_of(wolves, "XNAM");
  ASSERT_EQ(x.size(), 1u);
  EXPECT_EQ(x[0].data, xnam(0x832, 10, std::nullopt).data);
}

}  // namespace
}  // namespace tesmod::patch
