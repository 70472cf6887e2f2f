// The patch's field imports by Bash Tag (Names, Stats, Graphics ...): the tables against the field
// layouts, and small load orders whose patch is read back from its bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "field_import_table.hpp"
#include "byte_builder.hpp"
#include "plugin_maker.hpp"
#include "tesmod/error.hpp"
#include "tesmod/fields/field_layout.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/patch/patch.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/strings_file.hpp"
#include "test_support.hpp"

namespace tesmod::patch {
namespace {

namespace fs = std::filesystem;
using test::ByteBuilder;
using test::TestPlugin;
using test::TestRecord;

constexpr std::uint32_t kEsm = record_flags::kMaster;

// ---- the tables ------------------------------------------------------------------------------

TEST(PatchImportsTable, EveryMemberItNamesIsInTheLayouts) {
  for (Game game : {Game::Oblivion, Game::SkyrimLE, Game::SkyrimSE}) {
    const fields::LayoutTable& layouts = fields::layout_table(game);
    std::size_t members = 0;
    for (const ImportRow& row : field_import_table(game).rows)
      for (const ImportAttribute& a : row.attributes)
        for (const ImportPart& part : a.parts) {
          if (part.member.empty()) continue;
          for (Signature type : row.types)
            for (Signature field : part.fields) {
              bool found = false;
              for (const fields::FieldLayout* layout : layouts.find(type, field))
                for (const fields::LayoutMember& m : layout->members) found = found || m.name == part.member;
              EXPECT_TRUE(found) << game_id(game) << " " << row.tag << " (line " << row.line << "): " << type.str()
                                 << " " << field.str() << " has no member '" << part.member << "'";
              ++members;
            }
        }
    EXPECT_GT(members, 100u) << game_id(game);
  }
}

// Two attributes of one record type must not take the same subrecord (or member): which one won
// would depend on the order the tags are applied in.
TEST(PatchImportsTable, NoTwoAttributesOfATypeTakeTheSameField) {
  for (Game game : {Game::Oblivion, Game::SkyrimSE}) {
    std::map<std::uint32_t, std::set<std::string>> whole, member;  // type -> taken
    for (const ImportRow& row : field_import_table(game).rows)
      for (Signature type : row.types)
        for (const ImportAttribute& a : row.attributes)
          for (const ImportPart& part : a.parts)
            for (Signature field : part.fields) {
              const std::string what = row.tag + " " + type.str() + " " + a.name;
              if (part.member.empty()) {
                EXPECT_TRUE(whole[type.value()].insert(field.str()).second) << game_id(game) << ": " << what;
              } else {
                EXPECT_TRUE(member[type.value()].insert(field.str() + "." + part.member).second)
                    << game_id(game) << ": " << what;
              }
            }
    for (const auto& [type, taken] : member)
      for (const std::string& m : taken)
        EXPECT_EQ(whole[type].count(m.substr(0, 4)), 0u)
            << game_id(game) << ": " << Signature::from_value(type).str() << " takes " << m.substr(0, 4)
            << " whole and " << m << " alone";
  }
}

TEST(PatchImportsTable, ReadsTheNotation) {
  const FieldImportTable t = parse_field_import_table(
      "# a comment\n"
      "Graphics  ACTI,STAT  ~MODL+(MODT)+MODS\n"
      "          DATA.weight,value  BOD2|BODT.biped-slots\n"
      "Names/SE  SPEL  FULL<EFID|EFXX NNAM>ANAM|ALED KSIZ+KWDA:unordered\n",
      "test");
  ASSERT_EQ(t.rows.size(), 2u);
  const ImportRow& g = t.rows[0];
  EXPECT_EQ(g.tag, "Graphics");
  EXPECT_EQ(g.types, (std::vector<Signature>{Signature("ACTI"), Signature("STAT")}));
  ASSERT_EQ(g.attributes.size(), 4u);
  EXPECT_TRUE(g.attributes[0].loose);
  EXPECT_EQ(g.attributes[0].name, "MODL+MODT+MODS");
  ASSERT_EQ(g.attributes[0].parts.size(), 3u);
  EXPECT_TRUE(g.attributes[0].parts[0].compared);
  EXPECT_FALSE(g.attributes[0].parts[1].compared);
  EXPECT_EQ(g.attributes[1].name, "DATA.weight");
  EXPECT_EQ(g.attributes[2].name, "DATA.value");
  EXPECT_EQ(g.attributes[3].parts[0].fields, (std::vector<Signature>{Signature("BOD2"), Signature("BODT")}));
  EXPECT_EQ(g.attributes[3].parts[0].member, "biped-slots");
  const ImportRow& n = t.rows[1];
  EXPECT_EQ(n.only, Game::SkyrimSE);
  EXPECT_EQ(n.attributes[0].parts[0].region, ImportRegion::Before);
  EXPECT_EQ(n.attributes[0].parts[0].bounds, (std::vector<Signature>{Signature("EFID"), Signature("EFXX")}));
  EXPECT_EQ(n.attributes[1].parts[0].region, ImportRegion::After);
  EXPECT_TRUE(n.attributes[2].parts[1].unordered);
  EXPECT_FALSE(n.attributes[2].parts[0].unordered);
}

TEST(PatchImportsTable, RejectsWhatItCannotRead) {
  for (const char* bad :
       {"Names ACTI\n", "Names ACTI FULL+DATA.value\n", "Names ACTI DATA.Value\n", "Names ACTI DATA.a,b+FULL\n",
        "Names/XB ACTI FULL\n", "Names ACT FULL\n", "  FULL\n", "Names ACTI ~DATA.value\n"}) {
    EXPECT_THROW(parse_field_import_table(bad, "test"), Error) << bad;
  }
  // The built-in tables read (and keep the SE-only row out of LE).
  auto ammo_weight = [](Game game) {
    for (const ImportRow& r : field_import_table(game).rows)
      if (r.tag == "Stats" && r.types == std::vector<Signature>{Signature("AMMO")})
        for (const ImportAttribute& a : r.attributes)
          if (a.name == "DATA.weight") return true;
    return false;
  };
  EXPECT_TRUE(ammo_weight(Game::SkyrimSE));
  EXPECT_FALSE(ammo_weight(Game::SkyrimLE));
}

// ---- load orders -----------------------------------------------------------------------------

// Plugins written into a temporary folder and opened in the order added, all active.
class Order {
 public:
  explicit Order(Game game) : game_(game) {}
  void add(const std::string& name, TestPlugin p) {
    p.game = game_;
    test::write_plugin(dir_ / name, p);
    files_.push_back(dir_ / name);
  }
  loadorder::LoadOrder open() const {
    loadorder::LoadOrderSource s;
    s.files = files_;
    s.game = game_;
    s.threads = 1;
    return loadorder::LoadOrder::open(s);
  }
  const test::TempDir& dir() const { return dir_; }

 private:
  Game game_;
  test::TempDir dir_;
  std::vector<fs::path> files_;
};

TestPlugin plugin(std::vector<std::string> masters, std::vector<TestRecord> records, std::string tags = {},
                  std::uint32_t flags = 0) {
  TestPlugin p;
  p.header_flags = flags;
  p.masters = std::move(masters);
  p.records = std::move(records);
  if (!tags.empty()) p.description = "{{BASH:" + tags + "}}";
  return p;
}

PatchPlan plan_of(const loadorder::LoadOrder& order, const fs::path& data, PatchParts parts = PatchParts::Imports) {
  PatchOptions options;
  options.parts = parts;
  options.tags.data = data;
  options.tags.read_bash_tags_files = false;
  return plan_patch(order, options);
}

// The patch written and read back.
struct Written {
  std::vector<std::string> masters;
  std::map<std::uint32_t, std::vector<Field>> records;  // by FormID as the patch stores it
};
Written write_and_read(const loadorder::LoadOrder& order, const PatchPlan& plan, const fs::path& dir) {
  const fs::path path = dir / "Bashed Patch, 0.esp";
  write_patch(order, plan, path);
  const Plugin patch = Plugin::open(path);
  Written out;
  for (const MasterFile& m : patch.header().masters) out.masters.push_back(m.name);
  std::vector<const Node*> stack;
  for (const Node& n : patch.top()) stack.push_back(&n);
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (n->is_group())
      for (const Node& c : n->group().children) stack.push_back(&c);
    else
      out.records[n->record().form_id()] = n->record().fields();
  }
  return out;
}

const Field* find(const std::vector<Field>& fields, Signature type) {
  for (const Field& f : fields)
    if (f.type == type) return &f;
  return nullptr;
}

std::vector<std::string> types_of(const std::vector<Field>& fields) {
  std::vector<std::string> out;
  for (const Field& f : fields) out.push_back(f.type.str());
  return out;
}

const TagUse* use_of(const PatchPlan& plan, const loadorder::LoadOrder& order, std::string_view plugin,
                     std::string_view tag) {
  for (const TagUse& u : plan.tag_uses)
    if (order.plugin(u.plugin).name == plugin && u.tag == tag) return &u;
  return nullptr;
}

// Skyrim WEAP DATA: value, weight, damage.
Field weapon_data(std::uint32_t value, float weight, std::uint16_t damage) {
  return Field::bytes(Signature("DATA"), ByteBuilder().u32(value).f32(weight).u16(damage).b);
}

TestRecord weapon(std::uint32_t id, std::string_view name, std::vector<Field> more = {}) {
  std::vector<Field> fields{Field::zstring("EDID", "Sword"), Field::zstring("FULL", name)};
  for (Field& f : more) fields.push_back(std::move(f));
  return TestRecord(Signature("WEAP"), id, std::move(fields));
}

TEST(PatchImports, NamesFromATaggedPluginWinOverALaterUntaggedOne) {
  Order o(Game::SkyrimSE);
  o.add("Base.esm", plugin({}, {weapon(0x800, "Iron Sword", {weapon_data(10, 5, 7)})}, {}, kEsm));
  o.add("A.esp", plugin({"Base.esm"}, {weapon(0x800, "Sword of A", {weapon_data(10, 5, 7)})}, "Names"));
  o.add("B.esp", plugin({"Base.esm"}, {weapon(0x800, "Iron Sword", {weapon_data(99, 5, 7)})}));
  const auto order = o.open();
  const PatchPlan plan = plan_of(order, o.dir().path());
  ASSERT_EQ(plan.records.size(), 1u);
  EXPECT_EQ(plan.records[0].outcome.part, "Names");
  EXPECT_EQ(plan.records[0].outcome.notes, (std::vector<std::string>{"A.esp: Names FULL"}));
  const Written w = write_and_read(order, plan, o.dir().path());
  ASSERT_EQ(w.records.count(0x800), 1u);
  const auto& fields = w.records.at(0x800);
  EXPECT_EQ(find(fields, Signature("FULL"))->as_zstring(), "Sword of A");
  EXPECT_EQ(le::u32(find(fields, Signature("DATA"))->data.data()), 99u);  // the winner's, untouched
  const TagUse* use = use_of(plan, order, "A.esp", "Names");
  ASSERT_NE(use, nullptr);
  EXPECT_TRUE(use->used);
  EXPECT_EQ(use->why, "carried 1 field of 1 record (FULL)");
}

TEST(PatchImports, ANameTheSameAsTheMastersIsNotImported) {
  Order o(Game::SkyrimSE);
  o.add("Base.esm", plugin({}, {weapon(0x800, "Iron Sword")}, {}, kEsm));
  o.add("A.esp", plugin({"Base.esm"}, {weapon(0x800, "Iron Sword", {weapon_data(1, 1, 1)})}, "Names"));
  o.add("B.esp", plugin({"Base.esm"}, {weapon(0x800, "Renamed by B")}));
  const auto order = o.open();
  const PatchPlan plan = plan_of(order, o.dir().path());
  EXPECT_TRUE(plan.records.empty());
  const TagUse* use = use_of(plan, order, "A.esp", "Names");
  ASSERT_NE(use, nullptr);
  EXPECT_FALSE(use->used);
  EXPECT_EQ(use->why, "changes no Names field of its masters' records");
}

TEST(PatchImports, TheLaterTaggedPluginWinsEachMemberAndTheWinnerKeepsTheRest) {
  Order o(Game::SkyrimSE);
  o.add("Base.esm", plugin({}, {weapon(0x800, "Sword", {weapon_data(10, 5, 7)})}, {}, kEsm));
  o.add("A.esp", plugin({"Base.esm"}, {weapon(0x800, "Sword", {weapon_data(20, 6, 7)})}, "Stats"));
  o.add("B.esp", plugin({"Base.esm"}, {weapon(0x800, "Sword", {weapon_data(30, 5, 7)})}, "Stats"));
  o.add("C.esp", plugin({"Base.esm"}, {weapon(0x800, "Sword", {weapon_data(10, 5, 99)})}));
  const auto order = o.open();
  const PatchPlan plan = plan_of(order, o.dir().path());
  ASSERT_EQ(plan.records.size(), 1u);
  EXPECT_EQ(plan.records[0].outcome.notes,
            (std::vector<std::string>{"A.esp: Stats DATA.weight", "B.esp: Stats DATA.value"}));
  const Written w = write_and_read(order, plan, o.dir().path());
  const Field* data = find(w.records.at(0x800), Signature("DATA"));
  ASSERT_NE(data, nullptr);
  ASSERT_EQ(data->data.size(), 10u);
  EXPECT_EQ(le::u32(data->data.data()), 30u);       // B, later than A
  EXPECT_EQ(le::f32(data->data.data() + 4), 6.0f);  // only A changed it
  EXPECT_EQ(le::u16(data->data.data() + 8), 99u);   // not a Stats member here: the winner's
  EXPECT_EQ(use_of(plan, order, "A.esp", "Stats")->why, "carried 1 field of 1 record (DATA.weight)");
}

TEST(PatchImports, FormIdsAreWrittenUnderThePatchsMasters) {
  Order o(Game::SkyrimSE);
  o.add("Base.esm", plugin({}, {weapon(0x800, "Sword")}, {}, kEsm));
  o.add("Mid.esm", plugin({}, {}, {}, kEsm));
  o.add("Ench.esm", plugin({}, {TestRecord(Signature("ENCH"), 0x800, {Field::zstring("EDID", "Fire")})}, {}, kEsm));
  // A names the enchantment through a third master: Ench.esm is its index 02, the patch's 01.
  o.add("A.esp", plugin({"Base.esm", "Mid.esm", "Ench.esm"}, {weapon(0x800, "Sword", {Field::u32("EITM", 0x02000800)})},
                        "Enchantments"));
  o.add("B.esp", plugin({"Base.esm"}, {weapon(0x800, "Sword", {weapon_data(1, 1, 1)})}));
  const auto order = o.open();
  const PatchPlan plan = plan_of(order, o.dir().path());
  ASSERT_EQ(plan.records.size(), 1u);
  const Written w = write_and_read(order, plan, o.dir().path());
  EXPECT_EQ(w.masters, (std::vector<std::string>{"Base.esm", "Ench.esm"}));
  const auto& fields = w.records.at(0x800);
  const Field* eitm = find(fields, Signature("EITM"));
  ASSERT_NE(eitm, nullptr);
  EXPECT_EQ(le::u32(eitm->data.data()), 0x01000800u);
  // Placed where A has it: after FULL, before the winner's DATA.
  EXPECT_EQ(types_of(fields), (std::vector<std::string>{"EDID", "FULL", "EITM", "DATA"}));
}

TEST(PatchImports, ARecordNewInTheTaggedPluginIsNotImported) {
  Order o(Game::SkyrimSE);
  o.add("Base.esm", plugin({}, {weapon(0x800, "Sword")}, {}, kEsm));
  o.add("A.esp", plugin({"Base.esm"}, {weapon(0x01000900, "A's own")}, "Names"));
  o.add("B.esp", plugin({"Base.esm", "A.esp"}, {weapon(0x01000900, "Renamed by B")}));
  const auto order = o.open();
  const PatchPlan plan = plan_of(order, o.dir().path());
  EXPECT_TRUE(plan.records.empty());
  EXPECT_EQ(use_of(plan, order, "A.esp", "Names")->why, "overrides no record of the types Names imports");
}

TEST(PatchImports, NothingIsWrittenWhenTheWinnerHoldsTheValues) {
  Order o(Game::SkyrimSE);
  o.add("Base.esm", plugin({}, {weapon(0x800, "Sword", {weapon_data(10, 5, 7)})}, {}, kEsm));
  o.add("A.esp", plugin({"Base.esm"}, {weapon(0x800, "Better Sword", {weapon_data(10, 5, 7)})}, "Names"));
  o.add("B.esp", plugin({"Base.esm", "A.esp"}, {weapon(0x800, "Better Sword", {weapon_data(11, 5, 7)})}, "Names"));
  const auto order = o.open();
  const PatchPlan plan = plan_of(order, o.dir().path());
  EXPECT_TRUE(plan.records.empty());
  const TagUse* a = use_of(plan, order, "A.esp", "Names");
  ASSERT_NE(a, nullptr);
  EXPECT_FALSE(a->used);
  EXPECT_EQ(a->why, "later tagged plugins take over its 1 Names change");
  // B's FULL is A's but not Base's: differing from any master is a change (Wrye Bash's rule).
  EXPECT_EQ(use_of(plan, order, "B.esp", "Names")->why, "the patch's records hold its 1 Names change already");
}

TEST(PatchImports, WholeSubrecordsGoWhereTheCreationKitPutsThem) {
  Order o(Game::SkyrimSE);
  auto kw = [](std::vector<std::uint32_t> ids) {
    ByteBuilder b;
    for (std::uint32_t id : ids) b.u32(id);
    return std::vector<Field>{Field::u32("KSIZ", std::uint32_t(ids.size())), Field::bytes(Signature("KWDA"), b.b)};
  };
  std::vector<TestRecord> base{TestRecord(Signature("KYWD"), 0x801, {Field::zstring("EDID", "K1")}),
                               TestRecord(Signature("KYWD"), 0x802, {Field::zstring("EDID", "K2")})};
  auto with = [&](std::vector<Field> extra) {
    std::vector<Field> f{Field::zstring("EDID", "Sword"),
                         Field::bytes(Signature("OBND"), std::vector<std::uint8_t>(12, 0)),
                         Field::zstring("FULL", "Sword")};
    for (Field& e : extra) f.push_back(std::move(e));
    f.push_back(weapon_data(1, 1, 1));
    return TestRecord(Signature("WEAP"), 0x800, std::move(f));
  };
  base.push_back(with(kw({0x801, 0x802})));
  o.add("Base.esm", plugin({}, base, {}, kEsm));
  // A adds a model (Graphics) and only reorders the keywords (Keywords: no change).
  std::vector<Field> a_extra{Field::zstring("MODL", "Weapons\\Sword.nif"),
                             Field::bytes(Signature("MODT"), std::vector<std::uint8_t>(12, 0))};
  for (Field& f : kw({0x802, 0x801})) a_extra.push_back(std::move(f));
  o.add("A.esp", plugin({"Base.esm"}, {with(std::move(a_extra))}, "Graphics,Keywords"));
  o.add("B.esp", plugin({"Base.esm"}, {with(kw({0x801, 0x802}))}));
  const auto order = o.open();
  const PatchPlan plan = plan_of(order, o.dir().path());
  ASSERT_EQ(plan.records.size(), 1u);
  EXPECT_EQ(plan.records[0].outcome.part, "Graphics");
  const Written w = write_and_read(order, plan, o.dir().path());
  const auto& fields = w.records.at(0x800);
  EXPECT_EQ(types_of(fields),
            (std::vector<std::string>{"EDID", "OBND", "FULL", "MODL", "MODT", "KSIZ", "KWDA", "DATA"}));
  EXPECT_EQ(find(fields, Signature("MODL"))->as_zstring(), "Weapons\\Sword.nif");
  EXPECT_EQ(le::u32(find(fields, Signature("KWDA"))->data.data()), 0x801u);  // the winner's order
  EXPECT_EQ(use_of(plan, order, "A.esp", "Keywords")->why, "changes no Keywords field of its masters' records");
}

TEST(PatchImports, AModelPathDifferingOnlyInCaseIsNoGraphicsChange) {
  Order o(Game::SkyrimSE);
  auto model = [](std::string_view path) {
    return weapon(0x800, "Sword", {Field::zstring("MODL", path), weapon_data(1, 1, 1)});
  };
  o.add("Base.esm", plugin({}, {model("Weapons\\Iron.nif")}, {}, kEsm));
  o.add("A.esp", plugin({"Base.esm"}, {model("Weapons\\Steel.nif")}, "Graphics"));
  o.add("B.esp", plugin({"Base.esm"}, {model("WEAPONS\\STEEL.NIF")}));
  const auto order = o.open();
  EXPECT_TRUE(plan_of(order, o.dir().path()).records.empty());
}

TEST(PatchImports, ALocalizedPluginsNameBecomesText) {
  Order o(Game::SkyrimSE);
  o.add("Base.esm", plugin({}, {weapon(0x800, "Iron Sword")}, {}, kEsm));
  TestPlugin a = plugin(
      {"Base.esm"}, {TestRecord(Signature("WEAP"), 0x800, {Field::zstring("EDID", "Sword"), Field::u32("FULL", 7)})},
      "Names", record_flags::kLocalized);
  o.add("A.esp", a);
  LocalizedStrings strings;
  strings.table(StringsKind::Strings).set(7, "Blade of A");
  strings.save(o.dir() / "A.esp");
  o.add("B.esp", plugin({"Base.esm"}, {weapon(0x800, "Iron Sword", {weapon_data(2, 2, 2)})}));
  const auto order = o.open();
  const PatchPlan plan = plan_of(order, o.dir().path());
  ASSERT_EQ(plan.records.size(), 1u);
  const Written w = write_and_read(order, plan, o.dir().path());
  const Field* full = find(w.records.at(0x800), Signature("FULL"));
  ASSERT_NE(full, nullptr);
  EXPECT_EQ(full->data, (std::vector<std::uint8_t>{'B', 'l', 'a', 'd', 'e', ' ', 'o', 'f', ' ', 'A', 0}));
}

TEST(PatchImports, ObjectBoundsJoinAMergedLeveledList) {
  Order o(Game::SkyrimSE);
  auto list = [](std::vector<std::uint32_t> items, std::int16_t x) {
    std::vector<Field> f{Field::zstring("EDID", "List"),
                         Field::bytes(Signature("OBND"), ByteBuilder().i16(x).i16(0).i16(0).i16(0).i16(0).i16(0).b),
                         Field::bytes(Signature("LVLD"), std::vector<std::uint8_t>{0}),
                         Field::bytes(Signature("LVLF"), std::vector<std::uint8_t>{1}),
                         Field::bytes(Signature("LLCT"), std::vector<std::uint8_t>{std::uint8_t(items.size())})};
    for (std::uint32_t id : items)
      f.push_back(Field::bytes(Signature("LVLO"), ByteBuilder().u16(1).u16(0).u32(id).u16(1).u16(0).b));
    return TestRecord(Signature("LVLI"), 0x900, std::move(f));
  };
  o.add("Base.esm", plugin({}, {weapon(0x800, "Sword"), weapon(0x801, "Axe"), list({0x800}, 0)}, {}, kEsm));
  o.add("A.esp", plugin({"Base.esm"}, {list({0x800, 0x801}, 0)}, "Relev,Delev"));
  o.add("C.esp", plugin({"Base.esm"}, {list({0x800}, 9)}, "ObjectBounds"));
  o.add("B.esp", plugin({"Base.esm"}, {list({0x800}, 0)}));
  const auto order = o.open();
  const PatchPlan plan = plan_of(order, o.dir().path(), PatchParts::All);
  ASSERT_EQ(plan.records.size(), 1u);
  EXPECT_EQ(plan.records[0].outcome.part, "leveled list, ObjectBounds");
  const Written w = write_and_read(order, plan, o.dir().path());
  const Field* obnd = find(w.records.at(0x900), Signature("OBND"));
  ASSERT_NE(obnd, nullptr);
  EXPECT_EQ(le::load<std::int16_t>(obnd->data.data()), 9);
  EXPECT_EQ(w.records.at(0x900).size(), 7u);  // EDID OBND LVLD LVLF LLCT and the two entries (merged)
}

// ---- Oblivion --------------------------------------------------------------------------------

// An Oblivion potion: its own FULL, then a script effect with a FULL of its own.
TestRecord potion(std::string_view name, std::string_view effect_name, float weight, std::vector<Field> more = {}) {
  std::vector<Field> f{Field::zstring("EDID", "Potion"), Field::zstring("FULL", name)};
  for (Field& m : more) f.push_back(std::move(m));
  f.push_back(Field::bytes(Signature("DATA"), ByteBuilder().f32(weight).b));
  f.push_back(Field::bytes(Signature("ENIT"), ByteBuilder().i32(5).u8(0).u8(0).u8(0).u8(0).b));
  f.push_back(Field::bytes(Signature("EFID"), ByteBuilder().chars("SEFF").b));
  f.push_back(Field::bytes(Signature("EFIT"), ByteBuilder().chars("SEFF").u32(0).u32(0).u32(10).u32(0).i32(-1).b));
  f.push_back(Field::bytes(Signature("SCIT"), ByteBuilder().u32(0).u32(0).chars("FIRE").u8(0).u8(0).u8(0).u8(0).b));
  f.push_back(Field::zstring("FULL", effect_name));
  return TestRecord(Signature("ALCH"), 0x800, std::move(f));
}

TEST(PatchImports, OblivionNamesTakeThePotionsOwnNameNotItsEffects) {
  Order o(Game::Oblivion);
  o.add("Oblivion.esm", plugin({}, {potion("Potion", "Effect", 1)}, {}, kEsm));
  o.add("A.esp", plugin({"Oblivion.esm"}, {potion("Potion of A", "Effect of A", 1)}, "Names"));
  o.add("B.esp", plugin({"Oblivion.esm"}, {potion("Potion", "Effect of B", 2)}));
  const auto order = o.open();
  const PatchPlan plan = plan_of(order, o.dir().path());
  ASSERT_EQ(plan.records.size(), 1u);
  const Written w = write_and_read(order, plan, o.dir().path());
  const auto& fields = w.records.at(0x800);
  std::vector<std::string> names;
  for (const Field& f : fields)
    if (f.type == Signature("FULL")) names.push_back(f.as_zstring());
  EXPECT_EQ(names, (std::vector<std::string>{"Potion of A", "Effect of B"}));
  EXPECT_EQ(le::f32(find(fields, Signature("DATA"))->data.data()), 2.0f);
}

TEST(PatchImports, OblivionStatsAndScriptsFromTwoPlugins) {
  Order o(Game::Oblivion);
  o.add("Oblivion.esm",
        plugin({}, {potion("Potion", "Effect", 1), TestRecord(Signature("SCPT"), 0x900, {Field::zstring("EDID", "S")})},
               {}, kEsm));
  o.add("Scripts.esm", plugin({}, {TestRecord(Signature("SCPT"), 0x800, {Field::zstring("EDID", "T")})}, {}, kEsm));
  // A: a new weight (Stats). S: a script (Scripts) of a master S lists first (its 00), the patch second.
  o.add("A.esp", plugin({"Oblivion.esm"}, {potion("Potion", "Effect", 3)}, "Stats"));
  TestRecord scripted = potion("Potion", "Effect", 1, {Field::u32("SCRI", 0x00000800)});
  scripted.form_id = 0x01000800;  // Oblivion.esm is S's 01
  o.add("S.esp", plugin({"Scripts.esm", "Oblivion.esm"}, {scripted}, "Scripts"));
  o.add("B.esp", plugin({"Oblivion.esm"}, {potion("Potion by B", "Effect", 1)}));
  const auto order = o.open();
  const PatchPlan plan = plan_of(order, o.dir().path());
  ASSERT_EQ(plan.records.size(), 1u);
  EXPECT_EQ(plan.records[0].outcome.part, "Stats, Scripts");
  const Written w = write_and_read(order, plan, o.dir().path());
  EXPECT_EQ(w.masters, (std::vector<std::string>{"Oblivion.esm", "Scripts.esm"}));
  const auto& fields = w.records.at(0x800);
  EXPECT_EQ(find(fields, Signature("FULL"))->as_zstring(), "Potion by B");
  EXPECT_EQ(le::f32(find(fields, Signature("DATA"))->data.data()), 3.0f);
  const Field* scri = find(fields, Signature("SCRI"));
  ASSERT_NE(scri, nullptr);
  EXPECT_EQ(le::u32(scri->data.data()), 0x01000800u);
  EXPECT_EQ(types_of(fields).at(2), "SCRI");  // where S has it: after FULL, before DATA
}

// A light's DATA in its older, shorter form has no value: the tagged plugin's DATA is taken whole.
TEST(PatchImports, AMemberTheWinnersFieldLacksTakesTheFieldWhole) {
  auto light = [](std::uint32_t radius, std::optional<std::uint32_t> value) {
    ByteBuilder d;
    d.i32(-1).u32(radius).u32(0x00FFFFFF).u32(0).f32(1).f32(90);
    if (value) d.u32(*value).f32(2);
    return TestRecord(Signature("LIGH"), 0x800,
                      {Field::zstring("EDID", "Torch"), Field::bytes(Signature("DATA"), d.b)});
  };
  Order o(Game::Oblivion);
  o.add("Oblivion.esm", plugin({}, {light(100, 5)}, {}, kEsm));
  o.add("A.esp", plugin({"Oblivion.esm"}, {light(100, 50)}, "Stats"));
  o.add("B.esp", plugin({"Oblivion.esm"}, {light(300, std::nullopt)}));
  const auto order = o.open();
  const PatchPlan plan = plan_of(order, o.dir().path());
  ASSERT_EQ(plan.records.size(), 1u);
  EXPECT_EQ(
      plan.records[0].outcome.notes,
      (std::vector<std::string>{"A.esp: Stats DATA.value",
                                "A.esp: DATA taken whole for DATA.value: the record's DATA does not hold value as "
                                "the source's does"}));
  const Written w = write_and_read(order, plan, o.dir().path());
  const Field* data = find(w.records.at(0x800), Signature("DATA"));
  ASSERT_NE(data, nullptr);
  ASSERT_EQ(data->data.size(), 32u);
  EXPECT_EQ(le::u32(data->data.data() + 24), 50u);
}

}  // namespace
}  // namespace tesmod::patch
