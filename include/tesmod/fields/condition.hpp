// Conditions: a CTDA field (Skyrim 32 bytes, Oblivion 24, Oblivion's older CTDT 20) and the
// CIS1/CIS2 string parameters that follow it. Every stored byte has a place here, the unused
// and padding bytes included, so that encoding a decoded condition gives its bytes back.
//
// Skyrim CTDA (UESP Skyrim Mod:Mod File Format/CTDA Field):
//   u8 type (operator << 5 | flags), u8[3] unused, f32/FormID comparison value,
//   u16 function, u16 padding, u32 param1, u32 param2, u32 run on, FormID reference, i32 param3
// Oblivion CTDA: the same up to param2, then u32 unused (absent in CTDT).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/fields/condition_functions.hpp"
#include "tesmod/plugin/field.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace tesmod::fields {

inline constexpr Signature kCTDA{"CTDA"}, kCTDT{"CTDT"}, kCIS1{"CIS1"}, kCIS2{"CIS2"};

enum class ConditionLayout : std::uint8_t {
  Skyrim,        // CTDA, 32 bytes
  Oblivion,      // CTDA, 24 bytes
  OblivionCtdt,  // CTDT, 20 bytes (older plugins)
};

std::size_t layout_size(ConditionLayout layout);

// The upper three bits of the type byte. 6 and 7 mean nothing to the game but are kept.
enum class CompareOp : std::uint8_t { Equal, NotEqual, Greater, GreaterOrEqual, Less, LessOrEqual };

// "==", "!=", ">", ">=", "<", "<="; empty for 6 and 7.
std::string_view compare_op_symbol(CompareOp op);

// Who the function runs on (Skyrim).
enum class RunOn : std::uint32_t {
  Subject,
  Target,
  Reference,  // the reference field
  CombatTarget,
  LinkedReference,
  QuestAlias,   // the alias in param3
  PackageData,  // the package data in param3
  EventData,
};

// "Subject", "Target", "Reference", "CombatTarget", "LinkedReference", "QuestAlias",
// "PackageData", "EventData"; empty for other values.
std::string_view run_on_name(RunOn run_on);

// The flag bits of the type byte.
namespace condition_flag {
inline constexpr std::uint8_t kOr = 0x01;                 // OR with the next condition (else AND)
inline constexpr std::uint8_t kRunOnTarget = 0x02;        // Oblivion
inline constexpr std::uint8_t kUseAliases = 0x02;         // Skyrim: form parameters are quest alias ids
inline constexpr std::uint8_t kUseGlobal = 0x04;          // the comparison value is a GLOB FormID
inline constexpr std::uint8_t kUsePackData = 0x08;        // Skyrim: form parameters are package data ids
inline constexpr std::uint8_t kSwapSubjectTarget = 0x10;  // Skyrim
inline constexpr std::uint8_t kMask = 0x1F;
}  // namespace condition_flag

struct Condition {
  ConditionLayout layout = ConditionLayout::Skyrim;
  CompareOp op = CompareOp::Equal;
  std::uint8_t flags = 0;                // condition_flag bits (Oblivion's 0x08 and 0x10 have no known meaning)
  std::array<std::uint8_t, 3> unused{};  // bytes 1-3, often left-over memory in Skyrim plugins
  std::uint32_t value = 0;               // f32 bits, or a GLOB FormID with kUseGlobal
  std::uint16_t function = 0;            // index into the game's condition functions
  std::uint16_t padding = 0;             // bytes 10-11
  std::uint32_t param1 = 0, param2 = 0;  // as stored; ParamKind says how to read them
  // Skyrim only.
  RunOn run_on = RunOn::Subject;
  std::uint32_t reference = 0;  // FormID with RunOn::Reference
  std::int32_t param3 = -1;     // alias or package data with RunOn::QuestAlias / PackageData
  // Oblivion CTDA only: bytes 20-23.
  std::array<std::uint8_t, 4> tail{};
  // The CIS1 / CIS2 fields after the CTDA, data as stored (normally a zero-terminated string).
  std::optional<std::string> cis1, cis2;

  bool is_or() const { return flags & condition_flag::kOr; }
  bool uses_global() const { return flags & condition_flag::kUseGlobal; }
  bool has(std::uint8_t flag) const { return (flags & flag) == flag; }
  void set(std::uint8_t flag, bool on) { flags = std::uint8_t(on ? flags | flag : flags & ~flag); }
  bool is_skyrim() const { return layout == ConditionLayout::Skyrim; }

  // The comparison value as a float (meaningful without kUseGlobal).
  float value_float() const;
  void set_value_float(float v);
  // The function's entry in the game's table, if known.
  const ConditionFunction* function_info() const;
  // How parameter 1 / 2 are read: the table's kinds; both Integer for an unknown function.
  std::array<ParamSpec, 2> param_specs() const;

  // GetEventData packs param1 as u16 event function + two characters of event member.
  std::uint16_t event_function() const { return std::uint16_t(param1 & 0xFFFF); }
  std::uint16_t event_member() const { return std::uint16_t(param1 >> 16); }

  friend bool operator==(const Condition&, const Condition&) = default;
};

// The game whose function tables read this layout (Skyrim LE and SE share theirs: SkyrimSE).
Game condition_game(ConditionLayout layout);

// Decodes one CTDA/CTDT field's data (without CIS1/CIS2). game decides between the Skyrim and
// the Oblivion layouts; errors name the field's file offset (field_offset: of its header).
Condition decode_condition(Game game, Signature type, std::span<const std::uint8_t> data, const ErrorContext& context,
                           std::uint64_t field_offset = Error::kNoOffset);
// The CTDA/CTDT field, then CIS1 and CIS2 when present.
std::vector<Field> encode_condition(const Condition& condition);
// The CTDA/CTDT bytes alone.
std::vector<std::uint8_t> encode_condition_data(const Condition& condition);

// A condition found among a record's fields: the CTDA/CTDT at index first and the CIS fields that
// follow it, up to index last (exclusive).
struct LocatedCondition {
  Condition condition;
  std::size_t first = 0, last = 0;
};

// Every condition in a record's fields, in order. body_offset: file offset of the body (for errors),
// or Error::kNoOffset when it was inflated.
std::vector<LocatedCondition> read_conditions(Game game, std::span<const SubrecordView> fields,
                                              const ErrorContext& context,
                                              std::uint64_t body_offset = Error::kNoOffset);

// A condition kept as its fields by a record model: the CTDA/CTDT, then CIS1 and/or CIS2.
Condition decode_condition_fields(Game game, std::span<const Field> fields, const ErrorContext& context);

}  // namespace tesmod::fields
