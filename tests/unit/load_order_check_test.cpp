// tesmod check: every check on a plugin made broken for it, and a clean plugin that passes.
#include <gtest/gtest.h>

#include "byte_builder.hpp"
#include "plugin_maker.hpp"
#include "tesmod/loadorder/load_order_check.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "test_support.hpp"

namespace tesmod::loadorder {
namespace {

using test::ByteBuilder;
using test::TestPlugin;
using test::TestRecord;

constexpr std::uint32_t kEsm = record_flags::kMaster;

Field field(const char (&sig)[5], const ByteBuilder& b) { return Field::bytes(Signature(sig), b.b); }
Field form(const char (&sig)[5], std::uint32_t id) { return Field::u32(Signature(sig), id); }

// A Skyrim master with a race, a misc item and a keyword.
TestPlugin master(Game game = Game::SkyrimSE) {
  TestPlugin m;
  m.game = game;
  m.header_flags = kEsm;
  m.records = {{Signature("RACE"), 0x800, {Field::zstring("EDID", "MyRace")}},
               {Signature("MISC"), 0x801, {Field::zstring("EDID", "MyCoin")}},
               {Signature("KYWD"), 0x802, {Field::zstring("EDID", "MyKeyword")}}};
  return m;
}

TestPlugin mod(std::vector<TestRecord> records, std::vector<std::string> masters = {"Master.esm"}) {
  TestPlugin p;
  p.masters = std::move(masters);
  p.records = std::move(records);
  return p;
}

struct Checked {
  test::TempDir dir;
  std::optional<LoadOrder> order;
  std::vector<CheckProblem> problems;
};

// Writes the plugins (in load order, all active) and checks them.
std::unique_ptr<Checked> check(const std::vector<std::pair<std::string, TestPlugin>>& plugins,
                               std::optional<Game> game = {}) {
  auto c = std::make_unique<Checked>();
  std::string list;
  std::int64_t t = 1000;
  for (const auto& [name, p] : plugins) {
    test::write_plugin(c->dir / name, p, t++);
    list += (plugins.front().second.game == Game::SkyrimSE ? "*" : "") + name + "\n";
  }
  test::write_text(c->dir / "plugins.txt", list);
  LoadOrderSource s;
  s.data = c->dir.path();
  s.game = game;
  s.threads = 2;
  c->order = LoadOrder::open(s);
  c->problems = check_load_order(*c->order);
  return c;
}

std::string lines(const std::vector<CheckProblem>& problems) {
  std::string out;
  const TextCodec codec;
  for (const CheckProblem& p : problems) out += "[" + p.check + "] " + problem_line(p, codec) + "\n";
  return out;
}

std::vector<const CheckProblem*> of(const std::vector<CheckProblem>& problems, std::string_view check) {
  std::vector<const CheckProblem*> out;
  for (const CheckProblem& p : problems)
    if (p.check == check) out.push_back(&p);
  return out;
}

TEST(LoadOrderCheck, ACleanLoadOrderHasNoProblems) {
  auto c = check({{"Master.esm", master()},
                  {"Mod.esp", mod({{Signature("NPC_"), 0x01000800, {Field::zstring("EDID", "Bob"), form("RNAM", 0x800)}},
                                   {Signature("ARMO"), 0x01000801, {Field::zstring("EDID", "Hat"),
                                                                    field("KWDA", ByteBuilder().u32(0x802))}}})}});
  EXPECT_TRUE(c->problems.empty()) << lines(c->problems);
}

TEST(LoadOrderCheck, MissingAndInactiveMasters) {
  test::TempDir d;
  test::write_plugin(d / "Master.esm", master(), 1);
  test::write_plugin(d / "Idle.esm", master(), 2);
  test::write_plugin(d / "Mod.esp", mod({}, {"Master.esm", "Idle.esm", "Gone.esm"}), 3);
  test::write_text(d / "plugins.txt", "*Master.esm\n*Mod.esp\n");
  LoadOrderSource s;
  s.data = d.path();
  const LoadOrder o = LoadOrder::open(s);
  const auto problems = check_load_order(o);
  const auto missing = of(problems, "missing_master");
  ASSERT_EQ(missing.size(), 2u) << lines(problems);
  EXPECT_EQ(missing[0]->file, "Mod.esp");
  EXPECT_EQ(missing[0]->message, "master 'Idle.esm' is not active");
  EXPECT_EQ(missing[1]->message, "master 'Gone.esm' is not in the data folder");
}

TEST(LoadOrderCheck, MastersOutOfOrder) {
  auto c = check({{"A.esm", master()}, {"B.esm", master()}, {"Mod.esp", mod({}, {"B.esm", "A.esm"})}});
  const auto p = of(c->problems, "master_order");
  ASSERT_EQ(p.size(), 1u) << lines(c->problems);
  EXPECT_EQ(p[0]->message, "masters out of order: 'B.esm' is listed before 'A.esm' but loads after it");
}

TEST(LoadOrderCheck, FormIdsPastTheMasterList) {
  auto c = check({{"Master.esm", master()},
                  {"Mod.esp", mod({{Signature("MISC"), 0x05000800, {Field::zstring("EDID", "Stray")}},
                                   {Signature("NPC_"), 0x01000801, {form("RNAM", 0x07000123)}}})}});
  const auto p = of(c->problems, "hitme");
  ASSERT_EQ(p.size(), 2u) << lines(c->problems);
  EXPECT_EQ(p[0]->record->form_id, 0x05000800u);
  EXPECT_EQ(p[0]->record->editor_id, "Stray");
  EXPECT_NE(p[0]->message.find("file index 05 is past the master list (1 masters)"), std::string::npos);
  EXPECT_NE(p[1]->message.find("RNAM (race) holds 07000123"), std::string::npos) << p[1]->message;
}

TEST(LoadOrderCheck, ReferencesToNothingInEveryKindOfField) {
  // A condition (GetIsID, a form parameter), a Papyrus object property, a package target, a
  // layout member: each names an object id the master does not have.
  const ByteBuilder ctda = ByteBuilder().u8(0).u8(0).u8(0).u8(0).f32(1.0f).u16(72).u16(0).u32(0x999).u32(0).u32(0).u32(0).i32(-1);
  const ByteBuilder vmad = ByteBuilder().i16(5).i16(2).u16(1).ws("MyScript").u8(0).u16(1).ws("Target").u8(1).u8(1)
                               .u16(0).i16(-1).u32(0x998);
  const ByteBuilder ptda = ByteBuilder().i32(0).u32(0x997).i32(0);
  auto c = check({{"Master.esm", master()},
                  {"Mod.esp", mod({{Signature("QUST"), 0x01000800, {field("CTDA", ctda)}},
                                   {Signature("MISC"), 0x01000801, {Field::zstring("EDID", "Scripted"), field("VMAD", vmad)}},
                                   {Signature("PACK"), 0x01000802, {Field::zstring("EDID", "Go"), field("PTDA", ptda)}},
                                   {Signature("NPC_"), 0x01000803, {form("RNAM", 0x996)}}})}});
  const auto p = of(c->problems, "unresolved_reference");
  ASSERT_EQ(p.size(), 4u) << lines(c->problems);
  EXPECT_NE(p[0]->message.find("CTDA (condition GetIsID parameter 1) refers to 00000999 (Master.esm:000999)"),
            std::string::npos)
      << p[0]->message;
  EXPECT_NE(p[1]->message.find("VMAD (VMAD property 'Target' of script 'MyScript') refers to 00000998"), std::string::npos)
      << p[1]->message;
  EXPECT_NE(p[2]->message.find("PTDA (package target) refers to 00000997"), std::string::npos) << p[2]->message;
  EXPECT_NE(p[3]->message.find("RNAM (race) refers to 00000996"), std::string::npos) << p[3]->message;
  EXPECT_EQ(of(c->problems, "wrong_reference_type").size(), 0u);
}

TEST(LoadOrderCheck, OblivionScriptReferences) {
  TestPlugin m = master(Game::Oblivion);
  TestPlugin p;
  p.game = Game::Oblivion;
  p.masters = {"Master.esm"};
  p.records = {{Signature("SCPT"), 0x01000800, {Field::zstring("EDID", "S"), form("SCRO", 0x801), form("SCRO", 0x955)}}};
  auto c = check({{"Master.esm", m}, {"Mod.esp", p}});
  EXPECT_EQ(c->order->game(), Game::Oblivion);
  const auto u = of(c->problems, "unresolved_reference");
  ASSERT_EQ(u.size(), 1u) << lines(c->problems);
  EXPECT_NE(u[0]->message.find("SCRO (reference) refers to 00000955"), std::string::npos);
}

TEST(LoadOrderCheck, ReferencesToTheWrongType) {
  auto c = check({{"Master.esm", master()},
                  {"Mod.esp", mod({{Signature("NPC_"), 0x01000800, {Field::zstring("EDID", "Bob"), form("RNAM", 0x801)}},
                                   {Signature("ARMO"), 0x01000801, {field("KWDA", ByteBuilder().u32(0x802).u32(0x800))}}})}});
  const auto p = of(c->problems, "wrong_reference_type");
  ASSERT_EQ(p.size(), 2u) << lines(c->problems);
  EXPECT_EQ(p[0]->message, "RNAM (race) refers to MISC 00000801 (Master.esm:000801), expected RACE");
  EXPECT_EQ(p[1]->message, "KWDA (keywords) refers to RACE 00000800 (Master.esm:000800), expected KYWD");
}

TEST(LoadOrderCheck, DuplicateFormIds) {
  auto c = check({{"Master.esm", master()},
                  {"Mod.esp", mod({{Signature("MISC"), 0x01000800, {Field::zstring("EDID", "One")}},
                                   {Signature("WEAP"), 0x01000800, {Field::zstring("EDID", "Two")}}})}});
  const auto p = of(c->problems, "duplicate_form_id");
  ASSERT_EQ(p.size(), 1u) << lines(c->problems);
  EXPECT_EQ(p[0]->record->editor_id, "Two");
  EXPECT_NE(p[0]->message.find("is used again (first by MISC"), std::string::npos);
}

TEST(LoadOrderCheck, DeletedRecordsThatKeepFields) {
  const std::uint32_t del = record_flags::kDeleted;
  auto c = check({{"Master.esm", master()},
                  {"Mod.esp", mod({{Signature("MISC"), 0x801, {Field::zstring("EDID", "MyCoin")}, del},
                                   {Signature("KYWD"), 0x802, {}, del},  // deleted without fields: fine
                                   {Signature("REFR"), 0x01000900, {form("NAME", 0x801)}, del}})}});  // a reference
  const auto p = of(c->problems, "deleted_with_fields");
  ASSERT_EQ(p.size(), 1u) << lines(c->problems);
  EXPECT_EQ(p[0]->record->type, Signature("MISC"));
}

TEST(LoadOrderCheck, LightPluginRanges) {
  TestPlugin light = mod({{Signature("MISC"), 0x01000123, {Field::zstring("EDID", "Low")}},
                          {Signature("MISC"), 0x01000900, {Field::zstring("EDID", "Fine")}},
                          {Signature("MISC"), 0x01001000, {Field::zstring("EDID", "High")}}});
  light.header_flags = record_flags::kLight;
  light.hedr = 1.7f;
  auto c = check({{"Master.esm", master()}, {"Light.esp", light}});
  auto p = of(c->problems, "light_form_id_range");
  ASSERT_EQ(p.size(), 2u) << lines(c->problems);
  EXPECT_EQ(p[0]->record->editor_id, "Low");
  EXPECT_EQ(p[1]->record->editor_id, "High");
  light.hedr = 1.71f;  // 000-FFF allowed
  auto c2 = check({{"Master.esm", master()}, {"Light.esp", light}});
  p = of(c2->problems, "light_form_id_range");
  ASSERT_EQ(p.size(), 1u) << lines(c2->problems);
  EXPECT_EQ(p[0]->record->editor_id, "High");
}

TEST(LoadOrderCheck, HeaderAndFormVersionsThatDoNotFitTheGame) {
  // An unconverted Skyrim LE plugin (HEDR 0.94) in Skyrim SE; its older form versions are read.
  TestPlugin old = mod({{Signature("MISC"), 0x01000800, {Field::zstring("EDID", "A")}, 0, 43}});
  old.hedr = 0.94f;
  auto c = check({{"Master.esm", master()}, {"Old.esp", old}}, Game::SkyrimSE);
  const auto h = of(c->problems, "header_version");
  ASSERT_EQ(h.size(), 1u) << lines(c->problems);
  EXPECT_EQ(h[0]->message, "HEDR version 0.94 does not fit Skyrim SE (expected 1.70 or 1.71)");
  EXPECT_TRUE(of(c->problems, "form_version").empty()) << lines(c->problems);
  // Skyrim SE records (form version 44) in Skyrim LE: one line for the plugin.
  TestPlugin se = mod({{Signature("MISC"), 0x01000800, {Field::zstring("EDID", "A")}, 0, 43},
                       {Signature("MISC"), 0x01000801, {Field::zstring("EDID", "B")}, 0, 44},
                       {Signature("MISC"), 0x01000802, {Field::zstring("EDID", "C")}, 0, 44}});
  TestPlugin le_master = master(Game::SkyrimLE);
  se.game = Game::SkyrimLE;
  auto d = check({{"Master.esm", le_master}, {"New.esp", se}}, Game::SkyrimLE);
  EXPECT_TRUE(of(d->problems, "header_version").empty()) << lines(d->problems);
  const auto f = of(d->problems, "form_version");
  ASSERT_EQ(f.size(), 1u) << lines(d->problems);
  EXPECT_EQ(f[0]->file, "New.esp");
  EXPECT_EQ(f[0]->record->editor_id, "B");
  EXPECT_NE(f[0]->message.find("2 records with form version 44"), std::string::npos) << f[0]->message;
}

TEST(LoadOrderCheck, UnreadablePluginsAndRecords) {
  test::TempDir d;
  test::write_plugin(d / "Master.esm", master(), 1);
  test::write_file(d / "Broken.esp", std::vector<std::uint8_t>(40, 0x41));
  test::set_mtime(d / "Broken.esp", 2);
  // A compressed record whose zlib stream is garbage.
  TestPlugin bad = mod({{Signature("MISC"), 0x01000800, {Field::zstring("EDID", "Fine")}}});
  std::vector<std::uint8_t> bytes = test::make_plugin(bad);
  const std::size_t rec = bytes.size() - (24 + 6 + 5);  // the MISC record: header, then EDID "Fine\0"
  ASSERT_EQ(std::string(bytes.begin() + std::ptrdiff_t(rec), bytes.begin() + std::ptrdiff_t(rec) + 4), "MISC");
  bytes[rec + 10] |= 0x04;  // Compressed (0x00040000)
  // The body now reads as an inflated size (10) and a zlib stream that is not one.
  bytes[rec + 24] = 10;
  bytes[rec + 25] = bytes[rec + 26] = bytes[rec + 27] = 0;
  test::write_file(d / "Bad.esp", bytes);
  test::set_mtime(d / "Bad.esp", 3);
  test::write_text(d / "plugins.txt", "*Master.esm\n*Broken.esp\n*Bad.esp\n");
  LoadOrderSource s;
  s.data = d.path();
  const LoadOrder o = LoadOrder::open(s);
  const auto problems = check_load_order(o);
  const auto p = of(problems, "unreadable");
  ASSERT_EQ(p.size(), 2u) << lines(problems);
  EXPECT_EQ(p[0]->file, "Broken.esp");
  EXPECT_EQ(p[1]->file, "Bad.esp");
  EXPECT_EQ(p[1]->record->form_id, 0x01000800u);
  EXPECT_NE(p[1]->message.find("offset"), std::string::npos) << p[1]->message;
}

TEST(LoadOrderCheck, FieldsARecordTypeDoesNotHoldLacksHoldsOutOfOrderOrMisreads) {
  // Oblivion: a leveled list holding Skyrim's OBND and LLCT (a wrong tool's damage), a spell
  // list without its chance-none, a misc item whose DATA is a byte short, a global whose value is
  // NaN, and a leveled list flag no Oblivion list has.
  TestPlugin m;
  m.game = Game::Oblivion;
  m.header_flags = kEsm;
  m.records = {
      {Signature("LVLI"), 0x800, {Field::zstring("EDID", "List"), field("OBND", ByteBuilder().raw(std::vector<std::uint8_t>(12, 0))),
                                  field("LVLD", ByteBuilder().u8(0)), field("LLCT", ByteBuilder().u8(0))}},
      {Signature("LVSP"), 0x801, {Field::zstring("EDID", "Spells"), field("LVLF", ByteBuilder().u8(1))}},
      {Signature("MISC"), 0x802, {Field::zstring("EDID", "Coin"), field("DATA", ByteBuilder().raw(std::vector<std::uint8_t>(7, 0)))}},
      {Signature("GLOB"), 0x803, {Field::zstring("EDID", "Rate"), field("FNAM", ByteBuilder().u8('f')),
                                  field("FLTV", ByteBuilder().u32(0x7FC00000))}},
      {Signature("LVLI"), 0x804, {Field::zstring("EDID", "Flagged"), field("LVLD", ByteBuilder().u8(0)),
                                  field("LVLF", ByteBuilder().u8(0x41))}},
  };
  auto c = check({{"Master.esm", m}}, Game::Oblivion);
  auto one = [&](std::string_view key, std::uint32_t form_id) {
    std::vector<std::string> out;
    for (const CheckProblem* p : of(c->problems, key))
      if (p->record && p->record->form_id == form_id) out.push_back(p->message);
    return out;
  };
  EXPECT_EQ(one("unexpected_field", 0x800).size(), 2u) << lines(c->problems);
  EXPECT_EQ(one("missing_field", 0x801).size(), 1u) << lines(c->problems);
  EXPECT_EQ(one("bad_size", 0x802).size(), 1u) << lines(c->problems);
  EXPECT_EQ(one("bad_value", 0x803).size(), 1u) << lines(c->problems);
  EXPECT_EQ(one("bad_value", 0x804).size(), 1u) << lines(c->problems);
  EXPECT_EQ(c->problems.size(), 6u) << lines(c->problems);
  // Each names the record, with its EditorID.
  for (const CheckProblem& p : c->problems) {
    ASSERT_TRUE(p.record.has_value());
    EXPECT_FALSE(p.record->editor_id.empty());
  }

  // Skyrim: leveled list fields out of the order the Creation Kit writes them.
  TestPlugin s = master();
  s.records.push_back({Signature("LVLI"), 0x803, {Field::zstring("EDID", "Loot"), field("LVLF", ByteBuilder().u8(1)),
                                                   field("LVLD", ByteBuilder().u8(0))}});
  auto k = check({{"Master.esm", s}});
  EXPECT_EQ(of(k->problems, "field_order").size(), 1u) << lines(k->problems);
  EXPECT_EQ(k->problems.size(), 1u) << lines(k->problems);
}

}  // namespace
}  // namespace tesmod::loadorder
