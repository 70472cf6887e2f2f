// The condition functions of both games: index (the script opcode minus 0x1000), names, and the
// kinds of their parameters, which say how the raw u32 parameters of a CTDA are read. Skyrim's
// come from tools/gen/gen_condition_table.py; Oblivion's from the script command table.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "tesmod/plugin/game.hpp"

namespace tesmod::fields {

// How a condition parameter's four bytes are read.
enum class ParamKind : std::uint8_t {
  None,            // unused: stored as 0
  Integer,         // i32
  Float,           // f32 (Skyrim GetWithinDistance)
  FormId,          // a form (keyword, quest, reference ...), see ParamSpec::type_name
  ActorValue,      // actor value index
  Axis,            // 'X', 'Y', 'Z' as i32
  Sex,             // 0 male, 1 female
  CrimeType,       // 0 steal ... (Skyrim adds escape jail, werewolf transformation)
  FormType,        // engine form type code
  AnimationGroup,  // Oblivion animation group code
  QuestStage,      // i32 stage index
  VariableName,    // Oblivion: the variable's index in the script; Skyrim: the name is in CIS1/CIS2
  Alias,           // quest alias id (i32)
  PackageData,     // package data index
  Event,           // GetEventData: u16 event function + 2-character event member
  CastingSource,   // left, right, voice, instant
  WardState,       // none, absorb, break
  Alignment,       // good, neutral ...
  CriticalStage,   // none, goo start ...
  MiscStat,        // hash of the misc stat name
  AdvanceAction,   // normal usage, power attack ...
  FurnitureAnim,   // sit, lay, lean
  FurnitureEntry,  // entry point bit << 16
  VatsValueFunction,
  VatsValueParam,
};

// A short stable name for the kind ("FormId", "ActorValue" ...), as JSON writes it.
std::string_view param_kind_name(ParamKind kind);

struct ParamSpec {
  ParamKind kind = ParamKind::None;
  // What the parameter is, in the words of the source table ("ObjectReference", "Keyword",
  // "Quest" ...); empty for unused parameters.
  std::string_view type_name;
};

struct ConditionFunction {
  std::uint16_t index = 0;
  std::string_view name;
  std::string_view short_name;  // empty when the function has none
  // Parameter 1 and 2 (Skyrim's third is never used by a vanilla function).
  std::array<ParamSpec, 2> params;
};

// The function of a CTDA function index, if the game's table knows it.
const ConditionFunction* find_condition_function(Game game, std::uint16_t index);
// A function by name or short name, case-insensitive.
const ConditionFunction* find_condition_function(Game game, std::string_view name);

// Names of enumerated parameter values (identifiers, no spaces) and their codes. Unknown codes
// have no name; unknown names no code.
std::optional<std::string_view> param_value_name(Game game, ParamKind kind, std::uint32_t code);
std::optional<std::uint32_t> param_value_code(Game game, ParamKind kind, std::string_view name);

}  // namespace tesmod::fields
