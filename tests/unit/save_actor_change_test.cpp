// NPC_/CREA change-record data laid out by hand from the spec page (Oblivion Mod:Save File
// Format/NPC): blocks chosen by flag bits, in their relative order, not the order of the bits.
#include <gtest/gtest.h>

#include <cstring>

#include "tesmod/save/actor_change.hpp"
#include "tesmod/save/actor_names.hpp"

using namespace tesmod;
using namespace tesmod::save;

namespace {

struct Builder {
  std::vector<std::uint8_t> b;
  Builder& u8(std::uint8_t v) {
    b.push_back(v);
    return *this;
  }
  Builder& u16(std::uint16_t v) { return u8(v & 0xFF).u8(v >> 8); }
  Builder& u32(std::uint32_t v) { return u16(v & 0xFFFF).u16(v >> 16); }
  Builder& f32(float v) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return u32(bits);
  }
  Builder& text(std::string_view s) {
    b.insert(b.end(), s.begin(), s.end());
    return *this;
  }
};

const ErrorContext kWhere{"test.ess", 0x100, RecordRef{"NPC_", 0x00000007, {}}};

// Every block the spec lists, in relative-location order 1-11.
std::vector<std::uint8_t> every_block() {
  Builder x;
  x.u32(0x00000009);                                           // 1 form flags
  x.u8(40).u8(41).u8(42).u8(43).u8(44).u8(45).u8(46).u8(47);   // 2 attributes
  x.u32(0x00000001).u16(50).u16(0).u16(300).u16(0xFFFE).u16(1).u16(30);  // 3 base data, level -2
  x.u16(2).u32(0x10).u8(3).u32(0x11).u8(0xFF);                 // 4 factions: rank 3, rank -1
  x.u16(3).u32(0x20).u32(0x21).u32(0xFF000800);                // 5 spells (one created in game)
  x.u8(5).u8(100).u8(80).u8(80);                               // 6 AI data
  x.u32(120);                                                  // 7 base health
  x.u16(2).u8(63).f32(75.0f).u8(69).f32(0.5f);                 // 8 modifiers: ResistDisease, Vampirism
  x.u8(6).text("Martin");                                      // 9 full name, no terminator
  for (std::uint8_t s = 0; s < 21; ++s) x.u8(static_cast<std::uint8_t>(10 + s));  // 10 skills
  x.u32(0x30);                                                 // 11 combat style
  return x.b;
}

constexpr std::uint32_t kEveryFlag = 0x100007FD;

}  // namespace

TEST(SaveActorChange, EveryBlockOfTheSpecDecodes) {
  const std::vector<std::uint8_t> data = every_block();
  ASSERT_EQ(data.size(), 4u + 8 + 16 + (2 + 10) + (2 + 12) + 4 + 4 + (2 + 10) + 7 + 21 + 4);
  const ActorChange c = decode_actor_change(data, kEveryFlag, kWhere, 0x10C);
  EXPECT_EQ(c.form_flags, 9u);
  ASSERT_TRUE(c.attributes);
  EXPECT_EQ((*c.attributes)[0], 40);  // Strength
  EXPECT_EQ((*c.attributes)[7], 47);  // Luck
  ASSERT_TRUE(c.base_data);
  EXPECT_EQ(c.base_data->flags, 1u);
  EXPECT_EQ(c.base_data->magicka, 50);
  EXPECT_EQ(c.base_data->barter_gold, 300);
  EXPECT_EQ(c.base_data->level, -2);
  EXPECT_EQ(c.base_data->calc_min, 1);
  EXPECT_EQ(c.base_data->calc_max, 30);
  ASSERT_TRUE(c.factions);
  ASSERT_EQ(c.factions->size(), 2u);
  EXPECT_EQ((*c.factions)[0], (FactionRank{0x10, 3}));
  EXPECT_EQ((*c.factions)[1], (FactionRank{0x11, -1}));
  ASSERT_TRUE(c.spells);
  EXPECT_EQ(*c.spells, (std::vector<std::uint32_t>{0x20, 0x21, 0xFF000800}));
  EXPECT_EQ(c.ai_data, (std::array<std::uint8_t, 4>{5, 100, 80, 80}));
  EXPECT_EQ(c.base_health, 120u);
  ASSERT_TRUE(c.modifiers);
  ASSERT_EQ(c.modifiers->size(), 2u);
  EXPECT_EQ((*c.modifiers)[0].actor_value, 63);
  EXPECT_EQ((*c.modifiers)[0].value(), 75.0f);
  EXPECT_EQ(actor_value_name((*c.modifiers)[0].actor_value), "ResistDisease");
  EXPECT_EQ(actor_value_name((*c.modifiers)[1].actor_value), "Vampirism");
  EXPECT_EQ(c.full_name, "Martin");
  ASSERT_TRUE(c.skills);
  EXPECT_EQ((*c.skills)[*skill_index("Blade")], 12);
  EXPECT_EQ((*c.skills)[*skill_index("hand to hand")], 15);
  EXPECT_EQ((*c.skills)[*skill_index("Speechcraft")], 30);
  EXPECT_EQ(c.combat_style, 0x30u);
  EXPECT_EQ(c.unknown_flags, 0u);
  EXPECT_EQ(c.flags(), kEveryFlag);
  EXPECT_EQ(encode_actor_change(c), data);
}

// The player records of the corpus set 0x238 / 0x27C with 0x10000000: base health (bit 2) is
// 7th, after factions (bit 6, 4th) and spells (bit 5, 5th), though its bit is the lowest.
TEST(SaveActorChange, RelativeOrderIsNotBitOrder) {
  Builder x;
  x.u8(1).u8(2).u8(3).u8(4).u8(5).u8(6).u8(7).u8(8);  // attributes (bit 3)
  x.u16(1).u32(0x44).u8(2);                            // factions (bit 6)
  x.u16(1).u32(0x55);                                  // spells (bit 5)
  x.u32(0x12345678);                                   // base health (bit 2)
  const ActorChange c = decode_actor_change(x.b, 0x0000006C, kWhere);
  EXPECT_EQ(c.base_health, 0x12345678u);
  EXPECT_EQ((*c.factions)[0].faction, 0x44u);
  EXPECT_EQ((*c.spells)[0], 0x55u);
  EXPECT_EQ(encode_actor_change(c), x.b);
}

TEST(SaveActorChange, EmptyListsAndNoBlocks) {
  const ActorChange none = decode_actor_change({}, 0, kWhere);
  EXPECT_EQ(none.flags(), 0u);
  EXPECT_TRUE(encode_actor_change(none).empty());
  Builder x;
  x.u16(0).u16(0).u8(0);  // no factions, no spells, empty name
  const ActorChange c = decode_actor_change(x.b, 0xE0, kWhere);
  EXPECT_TRUE(c.factions && c.factions->empty());
  EXPECT_TRUE(c.spells && c.spells->empty());
  EXPECT_EQ(c.full_name, "");
  EXPECT_EQ(encode_actor_change(c), x.b);
}

TEST(SaveActorChange, FloatBitsAreKept) {
  Builder x;
  x.u16(1).u8(61).u32(0x7FA00001);  // a signalling NaN
  const ActorChange c = decode_actor_change(x.b, 0x10000000, kWhere);
  EXPECT_EQ((*c.modifiers)[0].value_bits, 0x7FA00001u);
  EXPECT_EQ(encode_actor_change(c), x.b);
}

// Bits the spec does not cover: the known blocks are read, the rest is kept as found.
TEST(SaveActorChange, UnknownBitsKeepTheirBytes) {
  Builder x;
  x.u32(0x00000001).u8(0xAA).u8(0xBB).u8(0xCC);
  const ActorChange c = decode_actor_change(x.b, 0x00000003, kWhere);
  EXPECT_EQ(c.form_flags, 1u);
  EXPECT_EQ(c.unknown_flags, 0x2u);
  EXPECT_EQ(c.unknown_data, (std::vector<std::uint8_t>{0xAA, 0xBB, 0xCC}));
  EXPECT_EQ(c.flags(), 0x3u);
  EXPECT_EQ(encode_actor_change(c), x.b);
}

TEST(SaveActorChange, ShortDataNamesTheBlockAndOffset) {
  std::vector<std::uint8_t> data = every_block();
  data.resize(30);  // inside the factions list
  try {
    decode_actor_change(data, kEveryFlag, kWhere, 0x10C);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), "test.ess");
    ASSERT_TRUE(e.record());
    EXPECT_EQ(e.record()->form_id, 7u);
    EXPECT_EQ(e.offset(), 0x10Cu + 30);
    EXPECT_NE(e.detail().find("Factions"), std::string::npos) << e.what();
  }
}

TEST(SaveActorChange, CountsPastTheDataFailBeforeReading) {
  Builder x;
  x.u16(0xFFFF).u32(1);
  try {
    decode_actor_change(x.b, 0x20, kWhere, 0);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(e.detail().find("65535 spells"), std::string::npos) << e.what();
  }
}

TEST(SaveActorChange, TrailingBytesAreAnError) {
  std::vector<std::uint8_t> data = every_block();
  data.push_back(0);
  try {
    decode_actor_change(data, kEveryFlag, kWhere, 0x10C);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(e.detail().find("1 byte follows the last block"), std::string::npos) << e.what();
    EXPECT_EQ(e.offset(), 0x10Cu + data.size() - 1);
  }
}

TEST(SaveActorNames, AttributesSkillsActorValues) {
  ASSERT_EQ(attribute_names().size(), 8u);
  ASSERT_EQ(skill_names().size(), 21u);
  EXPECT_EQ(attribute_index("strength"), 0u);
  EXPECT_EQ(attribute_index("Luck"), 7u);
  EXPECT_EQ(skill_index("Armorer"), 0u);
  EXPECT_EQ(skill_index("Heavy Armor"), 6u);
  EXPECT_EQ(skill_index("light_armor"), 15u);
  EXPECT_EQ(skill_index("Speechcraft"), 20u);
  EXPECT_FALSE(skill_index("Strength"));
  // Actor value indices 12-32 are the skills in the same order (tes4_actor_values.tsv).
  for (std::size_t i = 0; i < 21; ++i) EXPECT_EQ(*skill_index(actor_value_name(static_cast<std::uint8_t>(12 + i))), i);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(actor_value_name(static_cast<std::uint8_t>(i)), attribute_names()[i]);
  EXPECT_EQ(actor_value_name(38), "Fame");
  EXPECT_EQ(actor_value_name(71), "ResistWaterDamage");
  EXPECT_EQ(actor_value_name(200), "ActorValue200");
}
