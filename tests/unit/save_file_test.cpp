// A small save laid out by hand from the reference notes (formats.md section 5): every section
// parsed and written back, broken files rejected with the section and offset, edits keeping the
// sizes and formIdsOffset consistent, forms named through a data folder, the screenshot as PNG.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>

#include "byte_builder.hpp"
#include "test_support.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/save/actor_change.hpp"
#include "tesmod/save/actor_editor.hpp"
#include "tesmod/save/change_type.hpp"
#include "tesmod/save/save_check.hpp"
#include "tesmod/save/save_file.hpp"
#include "tesmod/save/save_names.hpp"
#include "tesmod/save/screenshot.hpp"

using namespace tesmod;
using namespace tesmod::save;

namespace {

using Bytes = tesmod::test::ByteBuilder;

// Overwrites a u32 already written.
void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

constexpr std::uint32_t kPlayer = 0x00000007;
constexpr std::uint32_t kFlame = 0x000A97DF;      // FormID array entry 0
constexpr std::uint32_t kFaction = 0x00022296;    // entry 1
constexpr std::uint32_t kModForm = 0x01000ABC;    // entry 2
constexpr std::uint32_t kCreatedSpell = 0xFF000800;

// Where the builder put things, for the tests to check against.
struct Layout {
  std::size_t header_size_at = 0, shot_size_at = 0, form_ids_offset_at = 0, player_at = 0, form_ids_at = 0;
  std::size_t player_data_size = 0;
};

// extra_spells: more entries for the spell list, all iref 0.
std::vector<std::uint8_t> player_data(std::size_t extra_spells) {
  Bytes x;
  x.u8(60).u8(40).u8(40).u8(50).u8(45).u8(55).u8(35).u8(50);              // attributes (0x8)
  x.u32(0).u16(10).u16(0).u16(0).u16(5).u16(1).u16(0);                    // base data (0x10), level 5
  x.u16(static_cast<std::uint16_t>(1 + extra_spells)).u32(0);            // spells (0x20): iref 0
  for (std::size_t i = 0; i < extra_spells; ++i) x.u32(0);
  x.u16(1).u8(63).f32(75.0f);                                             // modifiers (0x10000000)
  for (std::uint8_t s = 0; s < 21; ++s) x.u8(static_cast<std::uint8_t>(20 + s));  // skills (0x200)
  return x.b;
}
constexpr std::uint32_t kPlayerFlags = 0x10000238;

std::vector<std::uint8_t> build_save(Layout* layout = nullptr, std::size_t extra_spells = 0) {
  Layout l;
  Bytes x;
  x.chars("TES4SAVEGAME").u8(0).u8(125);
  for (int i = 0; i < 8; ++i) x.u16(static_cast<std::uint16_t>(2006 + i));  // exeTime
  x.u32(125);
  l.header_size_at = x.b.size();
  x.u32(0);  // saveHeaderSize, patched below
  const std::size_t header_start = x.b.size();
  x.u32(3);                                   // saveNum
  x.u8(7).chars("Tester").u8(0);               // pcName
  x.u16(5);                                   // pcLevel
  x.u8(8).chars("Chorrol").u8(0);              // pcLocation
  x.f32(2.5f);                                // gameDays
  x.u32(3723000);                             // gameTicks: 1 h 2 min 3 s
  x.u16(2024).u16(5).u16(1).u16(6).u16(7).u16(8).u16(9).u16(10);  // gameTime
  l.shot_size_at = x.b.size();
  x.u32(8 + 2 * 1 * 3).u32(2).u32(1);        // screenshotSize, width, height
  x.u8(255).u8(0).u8(0).u8(0).u8(0).u8(255);  // a red and a blue pixel
  put32(x.b, l.header_size_at, static_cast<std::uint32_t>(x.b.size() - header_start));
  x.u8(2).u8(12).chars("Oblivion.esm").u8(7).chars("Mod.esp");
  l.form_ids_offset_at = x.b.size();
  x.u32(0);                                   // formIdsOffset, patched below
  x.u32(3);                                   // changeRecordCount
  x.u32(0xFF000900).u32(0x3C).u32(1).u32(0xFFFFFFFE).u32(0x3C).f32(1.0f).f32(2.0f).f32(3.0f);
  x.u16(1).u32(0).f32(1.0f);                  // one global
  x.u16(3).u8(1).u8(2).u8(3);                 // TES class
  x.u16(0);                                   // processes
  x.u16(2).u8(4).u8(5);                       // spectator events
  x.u16(1).u8(6);                             // weather
  x.u32(0);                                   // player combat count
  x.u32(1);                                   // created records: one SPEL
  Bytes full;
  full.chars("FULL").u16(5).chars("Fire").u8(0);
  x.chars("SPEL").u32(static_cast<std::uint32_t>(full.b.size())).u32(0).u32(kCreatedSpell).u32(0).raw(full.b);
  x.u16(0).u16(1).u8(7).u16(0).u16(2).u8(8).u8(9);  // quick keys, reticule, interface, regions
  const std::vector<std::uint8_t> pd = player_data(extra_spells);
  l.player_at = x.b.size();
  l.player_data_size = pd.size();
  x.u32(kPlayer).u8(kNpcChangeType).u32(kPlayerFlags).u8(125).u16(static_cast<std::uint16_t>(pd.size())).raw(pd);
  x.u32(0x00012345).u8(49).u32(0x80000000).u8(125).u16(3).u8(1).u8(2).u8(3);  // a REFR, opaque
  x.u32(0x00023456).u8(kCreatureChangeType).u32(0x40).u8(125).u16(7).u16(1).u32(1).u8(2);  // CREA in faction 1
  x.u32(5).u8(0xEE).u8(0xEE).u8(0xEE).u8(0xEE).u8(0xEE);  // temporary effects
  l.form_ids_at = x.b.size();
  put32(x.b, l.form_ids_offset_at, static_cast<std::uint32_t>(x.b.size()));
  x.u32(3).u32(kFlame).u32(kFaction).u32(kModForm);
  x.u32(1).u32(0x3C);
  if (layout) *layout = l;
  return x.b;
}

SaveFile parse(std::vector<std::uint8_t> bytes, std::string name = "test.ess") {
  return SaveFile::parse(FileBytes::hold(std::move(bytes), std::move(name)));
}

std::string error_of(std::vector<std::uint8_t> bytes) {
  try {
    parse(std::move(bytes));
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(SaveFile, EverySectionParses) {
  const SaveFile s = parse(build_save());
  EXPECT_EQ(s.header.minor_version, 125);
  EXPECT_EQ(s.header.exe_time.year, 2006);
  EXPECT_EQ(s.header.header_version, 125u);
  EXPECT_EQ(s.header.save_number, 3u);
  EXPECT_EQ(s.header.player_name(), "Tester");
  EXPECT_EQ(s.header.player_level, 5);
  EXPECT_EQ(s.header.player_location(), "Chorrol");
  EXPECT_EQ(s.header.game_days, 2.5f);
  EXPECT_EQ(s.header.game_ticks, 3723000u);
  EXPECT_EQ(s.header.save_time.year, 2024);
  EXPECT_EQ(s.header.save_time.millisecond, 10);
  EXPECT_EQ(s.header.screenshot.width, 2u);
  EXPECT_EQ(s.header.screenshot.height, 1u);
  EXPECT_EQ(s.header.screenshot.pixels.size(), 6u);
  EXPECT_EQ(s.plugins, (std::vector<std::string>{"Oblivion.esm", "Mod.esp"}));
  EXPECT_EQ(s.global.next_object_id, 0xFF000900u);
  EXPECT_EQ(s.global.world_y, -2);
  EXPECT_EQ(s.global.player_z, 3.0f);
  ASSERT_EQ(s.global.globals.size(), 1u);
  EXPECT_EQ(s.global.tes_class.size(), 3u);
  EXPECT_EQ(s.global.weather.size(), 1u);
  ASSERT_EQ(s.global.created.size(), 1u);
  EXPECT_EQ(s.global.created[0].header.type, Signature("SPEL"));
  EXPECT_EQ(s.global.created[0].header.form_id, kCreatedSpell);
  EXPECT_EQ(s.global.regions.size(), 2u);
  ASSERT_EQ(s.change_records.size(), 3u);
  EXPECT_EQ(s.change_records[0].type_signature(), Signature("NPC_"));
  EXPECT_EQ(s.change_records[1].type_signature(), Signature("REFR"));
  EXPECT_EQ(s.change_records[2].type_signature(), Signature("CREA"));
  EXPECT_EQ(s.change_records[0].flags, kPlayerFlags);
  EXPECT_EQ(s.change_records[1].data().size(), 3u);
  EXPECT_EQ(s.temporary_effects.size(), 5u);
  EXPECT_EQ(s.form_ids.ids(), (std::vector<std::uint32_t>{kFlame, kFaction, kModForm}));
  EXPECT_EQ(s.world_spaces, (std::vector<std::uint32_t>{0x3C}));
  EXPECT_EQ(s.change_record_at(s.change_records[1].offset + 14), &s.change_records[1]);
  EXPECT_EQ(s.change_record_at(s.change_records[0].offset), &s.change_records[0]);
  EXPECT_FALSE(s.change_record_at(s.change_records[0].offset - 1));
  EXPECT_FALSE(s.change_record_at(s.form_ids_offset()));
  EXPECT_EQ(s.plugin_of(kModForm), "Mod.esp");
  EXPECT_FALSE(s.plugin_of(kCreatedSpell));
  EXPECT_FALSE(s.plugin_of(0x05000001));
}

TEST(SaveFile, WritesBackByteForByte) {
  Layout l;
  const std::vector<std::uint8_t> bytes = build_save(&l);
  const SaveFile s = parse(bytes);
  EXPECT_EQ(s.to_bytes(), bytes);
  EXPECT_EQ(s.form_ids_offset(), l.form_ids_at);
  const SaveCheck c = check_save(s);
  EXPECT_TRUE(c.identical);
  EXPECT_EQ(c.written, bytes.size());
  EXPECT_EQ(c.change_records.total, 2u);  // the NPC_ and the CREA
  EXPECT_EQ(c.change_records.identical, 2u);
}

TEST(SaveFile, EveryTruncationFailsWithAnOffset) {
  const std::vector<std::uint8_t> bytes = build_save();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    try {
      parse(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n)));
      ADD_FAILURE() << "cut at " << n << " parsed";
    } catch (const Error& e) {
      EXPECT_EQ(e.file(), "test.ess");
      EXPECT_NE(e.offset(), Error::kNoOffset) << e.what();
      EXPECT_LE(e.offset(), n) << e.what();
    }
  }
}

TEST(SaveFile, ErrorsNameTheSection) {
  Layout l;
  const std::vector<std::uint8_t> good = build_save(&l);
  auto cut = [&](std::size_t n) { return std::vector<std::uint8_t>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)); };
  EXPECT_NE(error_of(cut(l.header_size_at + 10)).find("save header: pcName"), std::string::npos);
  EXPECT_NE(error_of(cut(l.form_ids_offset_at + 2)).find("global data: formIdsOffset"), std::string::npos);
  // Inside the player's data: the change record is named.
  const std::string in_player = error_of(cut(l.player_at + 20));
  EXPECT_NE(in_player.find("record NPC_ [00000007]"), std::string::npos) << in_player;
  EXPECT_NE(in_player.find("change record 1 of 3"), std::string::npos) << in_player;
  EXPECT_NE(in_player.find(fmt::format("offset 0x{:X}", l.player_at)), std::string::npos) << in_player;

  std::vector<std::uint8_t> bad = good;
  put32(bad, l.form_ids_offset_at, static_cast<std::uint32_t>(l.form_ids_at + 4));
  EXPECT_NE(error_of(bad).find("formIdsOffset is 0x"), std::string::npos) << error_of(bad);
  bad = good;
  put32(bad, l.header_size_at, 99);
  EXPECT_NE(error_of(bad).find("saveHeaderSize 99"), std::string::npos) << error_of(bad);
  bad = good;
  put32(bad, l.shot_size_at, 15);
  EXPECT_NE(error_of(bad).find("screenshotSize is 15"), std::string::npos) << error_of(bad);
  bad = good;
  bad.push_back(0);
  EXPECT_NE(error_of(bad).find("1 byte after the world space list"), std::string::npos) << error_of(bad);
  bad = good;
  bad[3] = 'X';
  EXPECT_NE(error_of(bad).find("expected 'TES4SAVEGAME'"), std::string::npos) << error_of(bad);
}

TEST(SaveFile, CountsPastTheFileFailWithoutAllocating) {
  Layout l;
  std::vector<std::uint8_t> bad = build_save(&l);
  put32(bad, l.form_ids_at, 0x40000000);
  EXPECT_NE(error_of(bad).find("the FormID array: 1073741824 entries"), std::string::npos) << error_of(bad);
  bad = build_save(&l);
  put32(bad, l.form_ids_offset_at + 4, 0xFFFFFFFF);  // changeRecordCount
  EXPECT_NE(error_of(bad).find(" of 4294967295: "), std::string::npos) << error_of(bad);
}

TEST(FormIdArray, IrefsAndCreatedForms) {
  FormIdArray a({0x10, 0x20, 0x10});
  EXPECT_EQ(a.form_id(1), 0x20u);
  EXPECT_FALSE(a.form_id(3));
  EXPECT_EQ(a.form_id(0xFF000123), 0xFF000123u);
  EXPECT_EQ(a.find_iref(0x10), 0u);  // the first entry
  EXPECT_FALSE(a.find_iref(0x30));
  EXPECT_EQ(a.iref_for(0x30), 3u);
  EXPECT_EQ(a.size(), 4u);
  EXPECT_EQ(a.iref_for(0x30), 3u);
  EXPECT_EQ(a.iref_for(0xFF000001), 0xFF000001u);
  EXPECT_EQ(a.size(), 4u);
}

TEST(SaveEdit, SameSizeEditsChangeOnlyTheirBytes) {
  Layout l;
  const std::vector<std::uint8_t> before = build_save(&l);
  SaveFile s = parse(before);
  ActorEditor e(s, kPlayer);
  e.set_skill("Blade", 75);
  e.set_attribute("strength", 61);
  e.set_base_data(BaseDataField::Level, 6);
  e.set_base_data(BaseDataField::Magicka, 300);
  e.commit();
  const std::vector<std::uint8_t> after = s.to_bytes();
  ASSERT_EQ(after.size(), before.size());
  std::vector<std::size_t> changed;
  for (std::size_t i = 0; i < before.size(); ++i)
    if (before[i] != after[i]) changed.push_back(i - (l.player_at + 12));
  // Strength is byte 0 of the data, magicka 8 + 4, level 8 + 10, Blade 8 + 16 + 6 + 7 + 2.
  EXPECT_EQ(changed, (std::vector<std::size_t>{0, 12, 13, 18, 39}));
  const SaveFile again = parse(after);
  const ActorChange c = decode_actor_change(again.change_records[0].data(), again.change_records[0].flags, {});
  EXPECT_EQ((*c.skills)[2], 75);
  EXPECT_EQ((*c.attributes)[0], 61);
  EXPECT_EQ(c.base_data->level, 6);
  EXPECT_EQ(c.base_data->magicka, 300);
}

TEST(SaveEdit, GrowingTheRecordMovesFormIdsOffset) {
  Layout l;
  const std::vector<std::uint8_t> before = build_save(&l);
  SaveFile s = parse(before);
  ActorEditor e(s, kPlayer);
  e.add_spell(0x00012345);    // not in the FormID array: appended
  e.add_spell(kCreatedSpell);  // created in game: its FormID is its iref
  e.set_full_name("Nerevar");  // adds the Full Name block (flag 0x80)
  e.set_base_health(80);       // adds the Base Health block (flag 0x4)
  e.remove_spell(kFlame);
  e.commit();
  const std::vector<std::uint8_t> after = s.to_bytes();
  const SaveFile again = parse(after);  // the parser checks formIdsOffset and every size
  const ChangeRecord& r = again.change_records[0];
  EXPECT_EQ(r.flags, kPlayerFlags | 0x80 | 0x4);
  const ActorChange c = decode_actor_change(r.data(), r.flags, {});
  EXPECT_EQ(*c.spells, (std::vector<std::uint32_t>{3, kCreatedSpell}));
  EXPECT_EQ(c.full_name, "Nerevar");
  EXPECT_EQ(c.base_health, 80u);
  EXPECT_EQ(again.form_ids.ids(), (std::vector<std::uint32_t>{kFlame, kFaction, kModForm, 0x00012345}));
  const std::size_t delta = r.data().size() - l.player_data_size;
  EXPECT_EQ(delta, 4u + 8 + 4);  // two spells in, one out; the name; health
  EXPECT_EQ(again.form_ids_offset(), l.form_ids_at + delta);
  // Everything before the player record is unchanged but formIdsOffset.
  for (std::size_t i = 0; i < l.player_at; ++i) {
    const bool offset_field = i >= l.form_ids_offset_at && i < l.form_ids_offset_at + 4;
    if (!offset_field) {
      ASSERT_EQ(before[i], after[i]) << i;
    }
  }
  // The other change records and the temporary effects moved by delta, unchanged.
  const std::size_t rest = l.player_at + 12 + l.player_data_size;
  for (std::size_t i = rest; i < l.form_ids_at; ++i) ASSERT_EQ(before[i], after[i + delta]) << i;
}

TEST(SaveEdit, FactionsJoinLeaveRank) {
  SaveFile s = parse(build_save());
  ActorEditor e(s, 0x00023456);
  e.set_faction_rank(kFaction, 4);
  e.join_faction(kModForm, 0);
  e.join_faction(0x00055555, -1);
  e.leave_faction(kModForm);
  e.commit();
  const SaveFile again = parse(s.to_bytes());
  const ChangeRecord& r = again.change_records[2];
  const ActorChange c = decode_actor_change(r.data(), r.flags, {});
  ASSERT_EQ(c.factions->size(), 2u);
  EXPECT_EQ((*c.factions)[0], (FactionRank{1, 4}));
  EXPECT_EQ((*c.factions)[1], (FactionRank{3, -1}));
  EXPECT_EQ(again.form_ids.form_id(3), 0x00055555u);
}

TEST(SaveEdit, RefusedEditsChangeNothing) {
  const std::vector<std::uint8_t> before = build_save();
  SaveFile s = parse(before);
  auto refused = [&](auto&& edit, std::string_view expected) {
    ActorEditor e(s, kPlayer);
    try {
      edit(e);
      ADD_FAILURE() << "not refused: " << expected;
    } catch (const Error& err) {
      EXPECT_NE(std::string(err.what()).find(expected), std::string::npos) << err.what();
      ASSERT_TRUE(err.record());
      EXPECT_EQ(err.record()->form_id, kPlayer);
    }
  };
  refused([](ActorEditor& e) { e.set_skill("Blade", 256); }, "out of range: 0 to 255");
  refused([](ActorEditor& e) { e.set_skill("Bladez", 5); }, "'Bladez' is not a skill");
  refused([](ActorEditor& e) { e.set_attribute("Strength", -1); }, "out of range");
  refused([](ActorEditor& e) { e.set_base_data(BaseDataField::Level, 40000); }, "-32768 to 32767");
  refused([](ActorEditor& e) { e.set_full_name(std::string(256, 'x')); }, "1 to 255 bytes");
  refused([](ActorEditor& e) { e.add_spell(kFlame); }, "already in its spell list");
  refused([](ActorEditor& e) { e.remove_spell(0x000A97E0); }, "not in its spell list");
  refused([](ActorEditor& e) { e.add_spell(0xFF000801); }, "the save's created records defines no such form");
  refused([](ActorEditor& e) { e.add_spell(0x07000001); }, "belongs to no plugin of the save");
  refused([](ActorEditor& e) { e.join_faction(kFaction, 0); }, "has no Factions block");
  refused([](ActorEditor& e) { e.set_base_health(-5); }, "out of range");
  EXPECT_EQ(s.to_bytes(), before);
  EXPECT_THROW(ActorEditor(s, 0x00012345), Error);  // a REFR: no actor change record
  EXPECT_THROW(ActorEditor(s, 0x00099999), Error);
}

TEST(SaveEdit, RecordsWithUnknownBitsAreNotEdited) {
  Layout l;
  std::vector<std::uint8_t> bytes = build_save(&l);
  bytes[l.player_at + 5] |= 0x02;  // a flag bit the spec does not cover
  SaveFile s = parse(bytes);
  EXPECT_EQ(s.to_bytes(), bytes);
  const ChangeRecord& r = s.change_records[0];
  const ActorChange c = decode_actor_change(r.data(), r.flags, {});
  EXPECT_EQ(c.unknown_flags, 0x2u);
  EXPECT_EQ(c.unknown_data.size(), 0u);  // the known blocks take every byte here
  try {
    ActorEditor e(s, kPlayer);
    FAIL() << "edit allowed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bits the spec does not cover (0x00000002)"), std::string::npos) << e.what();
  }
}

TEST(SaveEdit, RecordTooLargeForItsU16Size) {
  Layout l;
  SaveFile s = parse(build_save(&l, 16350));
  ASSERT_EQ(l.player_data_size, 65458u);
  const std::vector<std::uint8_t> before = s.to_bytes();
  ActorEditor e(s, kPlayer);
  for (std::uint32_t i = 0; i < 20; ++i) e.add_spell(0x00100000 + i);  // 80 bytes more
  try {
    e.commit();
    FAIL() << "committed";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("at most 65535"), std::string::npos) << err.what();
  }
  EXPECT_EQ(s.form_ids.size(), 3u);
  EXPECT_EQ(s.to_bytes(), before);
}

TEST(SaveNames, PluginsAndCreatedForms) {
  const SaveFile s = parse(build_save());
  const SaveFormNamer names(s);
  EXPECT_EQ(names.name(kFlame), "Oblivion.esm:0A97DF");
  EXPECT_EQ(names.name(kModForm), "Mod.esp:000ABC");
  EXPECT_EQ(names.name(0x05000001), "05000001");
  const FormInfo created = names.describe(kCreatedSpell);
  EXPECT_TRUE(created.created);
  EXPECT_EQ(created.status, FormInfo::Status::Found);
  EXPECT_EQ(created.record_type, Signature("SPEL"));
  EXPECT_EQ(created.full_name, "Fire");
  EXPECT_EQ(names.describe(kFlame).status, FormInfo::Status::Unchecked);
  EXPECT_EQ(names.resolve("mod.esp:abc"), kModForm);
  EXPECT_EQ(names.resolve("Oblivion.esm:0A97DF"), kFlame);
  EXPECT_EQ(names.resolve("000A97DF"), kFlame);
  EXPECT_EQ(names.resolve("0xFF000800"), kCreatedSpell);
  EXPECT_FALSE(names.resolve("Other.esp:000001"));
  EXPECT_FALSE(names.resolve("Mod.esp:1000000"));
  EXPECT_FALSE(names.resolve("NotHex"));
}

TEST(SaveNames, DataFolderNamesAndChecksForms) {
  test::TempDir dir;
  Plugin master = Plugin::create(Game::Oblivion, "Oblivion.esm");
  master.add(Record("SPEL", kFlame, {Field::zstring("EDID", "StandardFlare"), Field::zstring("FULL", "Flare")}));
  master.add(Record("FACT", kFaction, {Field::zstring("EDID", "FightersGuild")}));
  master.add(Record("SPEL", 0x000A97E0, {Field::zstring("EDID", "StandardFrost")}));
  master.save(dir / "oblivion.esm");  // found without regard to case
  const SaveFile s = parse(build_save());
  const SaveFormNamer names(s, dir.path());
  const FormInfo flare = names.describe(kFlame);
  EXPECT_EQ(flare.status, FormInfo::Status::Found);
  EXPECT_EQ(flare.record_type, Signature("SPEL"));
  EXPECT_EQ(flare.editor_id, "StandardFlare");
  EXPECT_EQ(flare.full_name, "Flare");
  EXPECT_EQ(names.name(kFlame), "StandardFlare");
  EXPECT_EQ(names.resolve("standardfrost"), 0x000A97E0u);
  EXPECT_EQ(names.describe(0x00000999).status, FormInfo::Status::Missing);
  EXPECT_EQ(names.describe(kModForm).status, FormInfo::Status::Unchecked);  // Mod.esp is not there
  EXPECT_EQ(names.plugins_not_found(), (std::vector<std::string>{"Mod.esp"}));
  EXPECT_TRUE(names.plugins_unreadable().empty());

  SaveFile edited = parse(build_save());
  const SaveFormNamer edit_names(edited, dir.path());
  ActorEditor e(edited, kPlayer, &edit_names);
  EXPECT_THROW(e.add_spell(kFaction), Error);     // a FACT
  EXPECT_THROW(e.add_spell(0x00000999), Error);   // not in Oblivion.esm
  e.add_spell(0x000A97E0);
  e.commit();
  EXPECT_EQ(edited.form_ids.size(), 4u);
}

TEST(SaveScreenshot, PngHeaderMatchesTheSave) {
  const SaveFile s = parse(build_save());
  const std::vector<std::uint8_t> png = screenshot_png(s);
  const std::uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  ASSERT_GT(png.size(), 33u);
  EXPECT_EQ(std::memcmp(png.data(), signature, 8), 0);
  EXPECT_EQ(std::string(png.begin() + 12, png.begin() + 16), "IHDR");
  auto be32 = [&](std::size_t at) {
    return std::uint32_t(png[at]) << 24 | std::uint32_t(png[at + 1]) << 16 | std::uint32_t(png[at + 2]) << 8 | png[at + 3];
  };
  EXPECT_EQ(be32(16), 2u);
  EXPECT_EQ(png[24], 8);  // bit depth
  EXPECT_EQ(png[25], 2);  // colour type: RGB
  EXPECT_EQ(be32(20), 1u);
}
