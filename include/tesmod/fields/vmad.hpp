// Skyrim's VMAD field: the Papyrus scripts attached to a record with the initial values of their
// properties and, on INFO, PACK, PERK, QUST and SCEN records, the script fragments (and, on
// quests, the scripts attached to aliases). Every VMAD version (2 to 5) and both object formats
// (1 and 2) are modelled; whatever the bytes hold is kept, so decode then encode gives the same
// bytes back. Layouts follow the UESP page "Skyrim Mod:Mod File Format/VMAD Field".
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod::fields {

inline constexpr Signature kVmadSignature{"VMAD"};

// A form, or a quest alias: the value of an object property and the owner of alias scripts.
// Object format 1 stores `form_id alias unused`, format 2 `unused alias form_id`.
struct VmadObject {
  std::uint32_t form_id = 0;
  std::int16_t alias = -1;   // -1: the form itself; else the alias of the quest form_id names
  std::uint16_t unused = 0;  // zero in what the Creation Kit writes; kept for exact re-encoding

  static VmadObject form(std::uint32_t form_id) { return {form_id, -1, 0}; }
  static VmadObject quest_alias(std::uint32_t quest, std::int16_t alias) { return {quest, alias, 0}; }
  friend bool operator==(const VmadObject&, const VmadObject&) = default;
};

// The type byte of a property. Arrays (11-15) exist from version 5 on.
enum class PropertyType : std::uint8_t {
  Object = 1,
  String = 2,
  Int = 3,
  Float = 4,
  Bool = 5,
  ObjectArray = 11,
  StringArray = 12,
  IntArray = 13,
  FloatArray = 14,
  BoolArray = 15,
};

// "object", "string", "int", "float", "bool", and "object[]" ... "bool[]" for the arrays.
std::string_view to_string(PropertyType type);
bool is_array(PropertyType type);

// The value of a property; its alternative is its type (in PropertyType order). Strings are the
// stored code-page bytes. Bools are stored as one byte, 0 or 1.
using PropertyValue =
    std::variant<VmadObject, std::string, std::int32_t, float, bool, std::vector<VmadObject>, std::vector<std::string>,
                 std::vector<std::int32_t>, std::vector<float>, std::vector<bool>>;

PropertyType type_of(const PropertyValue& value);

struct Property {
  // Property status from version 4 on (older versions store none and read as 1).
  static constexpr std::uint8_t kEdited = 1;
  static constexpr std::uint8_t kRemoved = 3;

  std::string name;
  std::uint8_t status = kEdited;
  PropertyValue value;

  PropertyType type() const { return type_of(value); }
  friend bool operator==(const Property&, const Property&) = default;
};

struct Script {
  // Script status from version 4 on (older versions store none and read as 0).
  static constexpr std::uint8_t kLocal = 0;
  static constexpr std::uint8_t kInheritedAltered = 1;
  static constexpr std::uint8_t kInheritedRemoved = 3;

  std::string name;  // without extension
  std::uint8_t status = kLocal;
  std::vector<Property> properties;

  friend bool operator==(const Script&, const Script&) = default;
};

// What every fragment ends with: a function in a fragment script.
struct Fragment {
  std::uint8_t unknown = 1;   // 1 in every corpus fragment
  std::string script_name;    // normally the section's file_name
  std::string function_name;  // e.g. "Fragment_5"

  friend bool operator==(const Fragment&, const Fragment&) = default;
};

// INFO, PACK and SCEN store a flags byte with one fragment per set bit, lowest bit first.
inline constexpr std::uint8_t kBeginFragment = 0x1;   // INFO, PACK (On Begin), SCEN
inline constexpr std::uint8_t kEndFragment = 0x2;     // INFO, PACK (On End), SCEN
inline constexpr std::uint8_t kChangeFragment = 0x4;  // PACK (On Change)

struct FlaggedFragment {
  std::uint8_t flag = kBeginFragment;  // a single bit
  Fragment fragment;

  friend bool operator==(const FlaggedFragment&, const FlaggedFragment&) = default;
};

struct PerkFragment {
  std::uint16_t index = 0;
  std::int16_t unknown = 0;
  Fragment fragment;

  friend bool operator==(const PerkFragment&, const PerkFragment&) = default;
};

struct QuestFragment {
  std::uint16_t stage = 0;  // the stage's INDX
  std::int16_t unknown = 0;
  std::int32_t log_entry = 0;  // within the stage
  Fragment fragment;

  friend bool operator==(const QuestFragment&, const QuestFragment&) = default;
};

struct ScenePhaseFragment {
  std::uint8_t unknown = 0;  // 0, 1 or 2 in the corpus
  std::uint32_t phase = 0;   // 0-based (the Creation Kit shows it 1-based)
  Fragment fragment;

  friend bool operator==(const ScenePhaseFragment&, const ScenePhaseFragment&) = default;
};

// Scripts attached to one alias of a quest, with their own version and object format.
struct AliasScripts {
  VmadObject object;  // the quest and the alias id, in the VMAD's object format
  std::int16_t version = 5;
  std::int16_t object_format = 2;
  std::vector<Script> scripts;

  friend bool operator==(const AliasScripts&, const AliasScripts&) = default;
};

// Fragment sections, one per record type that has them. `unknown` is 2 in every corpus VMAD.
struct InfoFragments {  // INFO: begin, end
  std::uint8_t unknown = 2;
  std::string file_name;
  std::vector<FlaggedFragment> fragments;  // in flag bit order

  friend bool operator==(const InfoFragments&, const InfoFragments&) = default;
};

struct PackageFragments {  // PACK: begin, end, change
  std::uint8_t unknown = 2;
  std::string file_name;
  std::vector<FlaggedFragment> fragments;  // in flag bit order

  friend bool operator==(const PackageFragments&, const PackageFragments&) = default;
};

struct PerkFragments {
  std::uint8_t unknown = 2;
  std::string file_name;
  std::vector<PerkFragment> fragments;

  friend bool operator==(const PerkFragments&, const PerkFragments&) = default;
};

struct QuestFragments {
  std::uint8_t unknown = 2;
  std::string file_name;
  std::vector<QuestFragment> fragments;
  std::vector<AliasScripts> aliases;

  friend bool operator==(const QuestFragments&, const QuestFragments&) = default;
};

struct SceneFragments {
  std::uint8_t unknown = 2;
  std::string file_name;
  std::vector<FlaggedFragment> fragments;  // begin, end; in flag bit order
  std::vector<ScenePhaseFragment> phases;  // in stored order

  friend bool operator==(const SceneFragments&, const SceneFragments&) = default;
};

using FragmentSection = std::variant<InfoFragments, PackageFragments, PerkFragments, QuestFragments, SceneFragments>;

// The record type a fragment section belongs to.
Signature record_type_of(const FragmentSection& section);
// True for INFO, PACK, PERK, QUST and SCEN.
bool has_fragment_section(Signature record_type);

struct Vmad {
  std::int16_t version = 5;        // 2 to 5
  std::int16_t object_format = 2;  // 1 or 2
  std::vector<Script> scripts;
  // Present only when stored (records of the five types above may still have none).
  std::optional<FragmentSection> fragments;

  friend bool operator==(const Vmad&, const Vmad&) = default;
};

// Decodes a VMAD field of a record of record_type. Anything that does not fit the layout (an
// unknown version, object format or property type, a bool byte other than 0 or 1, a count or
// length running past the end, bytes left over, a fragment section on a record type that has
// none) raises tesmod::Error naming the file and record of `where` and an offset: data_offset +
// the position when data_offset is the field's file offset; else (inflated records) where.offset,
// with the position in the message.
Vmad decode_vmad(std::span<const std::uint8_t> bytes, Signature record_type, const ErrorContext& where,
                 std::uint64_t data_offset = Error::kNoOffset);

// Encodes the model. A model the layout cannot hold (a version or object format out of range,
// an array or a non-default status before the version that stores it, a count or string too long
// for its size field, a flag that is not a single bit or appears twice) raises tesmod::Error
// through where.
std::vector<std::uint8_t> encode_vmad(const Vmad& vmad, const ErrorContext& where = ErrorContext{"VMAD", Error::kNoOffset, std::nullopt});

}  // namespace tesmod::fields
