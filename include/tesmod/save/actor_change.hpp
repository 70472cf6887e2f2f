// The data of an NPC_ or CREA change record (types 35 and 36, one layout): which sub-blocks it
// holds is told by the record's flags, and they come in a fixed order that is not the order of
// the bits (spec: Oblivion Mod:Save File Format/NPC, "relative location"):
//
//   bit  0 form flags         u32
//   bit  3 base attributes    u8[8]     (attribute_names())
//   bit  4 base data          16 bytes  (as the ACBS field of mod files)
//   bit  6 factions           u16 n, {iref faction, i8 rank}[n]
//   bit  5 spell list         u16 n, iref[n]
//   bit  8 AI data            u8[4]
//   bit  2 base health        u32
//   bit 28 base modifiers     u16 n, {u8 actor value, f32 value}[n]
//   bit  7 full name          bstring (u8 length, no terminator)
//   bit  9 skills             u8[21]    (skill_names())
//   bit 10 combat style       iref
//
// The spec covers no other bit and no record in the corpus sets one. When one is set, its bytes
// cannot be placed: the known blocks are read in their order and whatever follows them is kept
// as unknown_data (with the bits in unknown_flags), written back as found and reported.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/save/change_record.hpp"

namespace tesmod::save {

namespace actor_flags {
inline constexpr std::uint32_t kFormFlags = 0x00000001;
inline constexpr std::uint32_t kBaseHealth = 0x00000004;
inline constexpr std::uint32_t kAttributes = 0x00000008;
inline constexpr std::uint32_t kBaseData = 0x00000010;
inline constexpr std::uint32_t kSpells = 0x00000020;
inline constexpr std::uint32_t kFactions = 0x00000040;
inline constexpr std::uint32_t kFullName = 0x00000080;
inline constexpr std::uint32_t kAiData = 0x00000100;
inline constexpr std::uint32_t kSkills = 0x00000200;
inline constexpr std::uint32_t kCombatStyle = 0x00000400;
inline constexpr std::uint32_t kModifiers = 0x10000000;
inline constexpr std::uint32_t kKnown = kFormFlags | kBaseHealth | kAttributes | kBaseData | kSpells | kFactions |
                                        kFullName | kAiData | kSkills | kCombatStyle | kModifiers;
}  // namespace actor_flags

// Layout of the ACBS field of NPC_ and CREA records.
struct ActorBaseData {
  std::uint32_t flags = 0;
  std::uint16_t magicka = 0;  // player: magicka at Intelligence 0
  std::uint16_t fatigue = 0;  // player: 0 (computed from attributes)
  std::uint16_t barter_gold = 0;
  std::int16_t level = 0;     // or the offset to the player's level when auto-calculated
  std::uint16_t calc_min = 0;
  std::uint16_t calc_max = 0;
  friend bool operator==(const ActorBaseData&, const ActorBaseData&) = default;
};

struct FactionRank {
  std::uint32_t faction = 0;  // iref
  std::int8_t rank = 0;       // -1: expelled or suspended
  friend bool operator==(const FactionRank&, const FactionRank&) = default;
};

struct ActorValueModifier {
  std::uint8_t actor_value = 0;  // actor_value_name()
  std::uint32_t value_bits = 0;  // f32, kept as bits so that any pattern writes back unchanged
  float value() const;
  friend bool operator==(const ActorValueModifier&, const ActorValueModifier&) = default;
};

struct ActorChange {
  std::optional<std::uint32_t> form_flags;
  std::optional<std::array<std::uint8_t, 8>> attributes;
  std::optional<ActorBaseData> base_data;
  std::optional<std::vector<FactionRank>> factions;
  std::optional<std::vector<std::uint32_t>> spells;  // irefs
  std::optional<std::array<std::uint8_t, 4>> ai_data;
  std::optional<std::uint32_t> base_health;  // player: health at Endurance 0
  std::optional<std::vector<ActorValueModifier>> modifiers;
  std::optional<std::string> full_name;  // code-page bytes
  std::optional<std::array<std::uint8_t, 21>> skills;
  std::optional<std::uint32_t> combat_style;  // iref
  std::uint32_t unknown_flags = 0;            // bits the spec does not cover
  std::vector<std::uint8_t> unknown_data;     // the bytes after the known blocks (see above)

  // The flags these blocks call for (unknown_flags included).
  std::uint32_t flags() const;
  friend bool operator==(const ActorChange&, const ActorChange&) = default;
};

// Decodes the data of an NPC_/CREA change record. where names the file and record;
// data_offset is the file offset of data[0] (or Error::kNoOffset). Throws tesmod::Error when the
// data is shorter or longer than the flags call for.
ActorChange decode_actor_change(std::span<const std::uint8_t> data, std::uint32_t flags, const ErrorContext& where,
                                std::uint64_t data_offset = Error::kNoOffset);
// Decodes a change record's data; errors name file, the record and the offset.
ActorChange decode_actor_change(const ChangeRecord& record, const std::string& file);
// The bytes decode_actor_change read (the flags to store with them are change.flags()).
std::vector<std::uint8_t> encode_actor_change(const ActorChange& change);

}  // namespace tesmod::save
