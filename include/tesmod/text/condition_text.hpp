// Conditions as one line of text each, read back exactly, and as JSON.
//
//   [RunOn.]Function(arg, arg) op value [OR] [[annotations]]
//
//   PlayerRef.GetDistance(MQ304AlduinHideInMistSouthMarker) > 6500.0 OR
//   GetStage(MQ101) >= global MQ101StageGlobal
//   Alias(3).GetIsID(Skyrim.esm:0005C84E) < 0.0 [pad=3470]
//   GetEventData(GetIsID, K1, DSilHand_R04Keyword) == 1.0
//   GetVMQuestVariable(_Camp_Main, "::IsSkyrimVR_var") == 0.0 [p2=39058658]
//
// Run on (Skyrim): nothing for the subject, `Target`, `CombatTarget`, `LinkedRef`, `EventData`,
// a reference's name, `Alias(n)` (quest alias in param3), `PackData(n)` (package data in
// param3), `RunOn(n)` for values the game does not define. Oblivion: nothing or `Target`.
// Arguments follow the function's parameter kinds: forms by FormNamer name (`NONE` for 0,
// `@0001ABCD` for a FormID the namer cannot name unambiguously), `Alias(n)` / `PackData(n)`
// (alias ids, and form parameters under the use-aliases / use-pack-data flags), enumerations by
// name (X, Female, Left ...) or number, integers in decimal, floats with a decimal point,
// CIS1/CIS2 strings quoted ("\x41" escapes). GetEventData takes event function, member, form.
// An unknown function is `Function<index>` with both raw parameters as integers. Operators:
// == != > >= < <= (op6, op7 for the two codes without meaning). The value is a float (`0x`
// + 8 hex digits when the bits are not a plain number) or `global Name` with the use-global flag.
// AND is the default and not written. The bracketed annotations, in this order, carry what the
// plain form cannot: UseAliases UsePackData SwapSubjectTarget (Skyrim flags), flags=0x18
// (Oblivion's unnamed flag bits), CTDT (the 20-byte Oblivion layout), unused=XXXXXX (bytes 1-3),
// pad=XXXX (bytes 10-11, little-endian u16), p1= / p2= (raw hex of a parameter shown as a
// string or not shown), ref= (a reference the run-on type does not use), p3= (decimal),
// tail=XXXXXXXX (Oblivion bytes 20-23), cis1= / cis2= (a quoted CIS string the function does
// not take), cis1-unterminated / cis2-unterminated.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tesmod/fields/condition.hpp"
#include "tesmod/text/form_namer.hpp"

namespace tesmod::text {

// A condition text that does not parse: the 1-based column and what was expected there.
class ConditionSyntaxError : public std::runtime_error {
 public:
  ConditionSyntaxError(std::size_t column, std::string message);
  std::size_t column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  std::size_t column_;
  std::string message_;
};

// One line (no newline) that parse_condition reads back to the same bytes.
std::string render_condition(const fields::Condition& condition, const FormNamer& namer);
// game: Oblivion reads the 24-byte layout (20 with the CTDT annotation), Skyrim the 32-byte one.
// Raises ConditionSyntaxError for a malformed line or a name the namer does not know.
fields::Condition parse_condition(std::string_view text, Game game, const FormNamer& namer);

// The condition's parts (function, operator, value, parameters with their kinds, run on, flags,
// the raw extras) and its text.
nlohmann::ordered_json condition_json(const fields::Condition& condition, const FormNamer& namer);

}  // namespace tesmod::text
