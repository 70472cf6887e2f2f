// Skyrim AI packages (PACK records) as plain structs, section by section as the record stores
// them: the header (PKDT flags, PSDT schedule, conditions, idles, PKCU), the public data inputs
// (ANAM + value, UNAM, XNAM), the procedure tree and data input names of template packages, and
// the On Begin / On End / On Change actions. Every byte of a PACK record has a place here, so
// that decoding and encoding again gives the record back exactly (fields/package_codec.hpp).
//
// Layouts follow the UESP page "Skyrim Mod:Mod File Format/PACK"; where the corpus bytes say
// more (field order, sizes), the bytes were followed and the comment says so.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tesmod/plugin/field.hpp"

namespace tesmod::fields {

// ---- header ---------------------------------------------------------------------------------

// PKDT general flags the CK shows (spec page). Other bits occur and are kept as read.
enum class PackageFlag : std::uint32_t {
  MustComplete = 0x04,
  MaintainSpeedAtGoal = 0x08,
  UnlockDoorsAtStart = 0x40,
  UnlockDoorsOnChange = 0x80,
  OncePerDay = 0x400,
  PreferredSpeed = 0x2000,  // the speed itself is PackageData::preferred_speed
  AlwaysSneak = 0x20000,
  AllowSwimming = 0x40000,
  IgnoreCombat = 0x100000,
  WeaponsUnequipped = 0x200000,
  WeaponDrawn = 0x800000,
  NoCombatAlert = 0x8000000,
  WearSleepOutfit = 0x20000000,
};

// The spec page: only bit 0 matters (template or not); 0x12 is always set.
enum class PackageType : std::uint8_t { Package = 0x12, Template = 0x13 };

// The spec page names only these two values (the only ones observed).
enum class InterruptOverride : std::uint8_t { None = 0, Combat = 4 };

enum class PreferredSpeed : std::uint8_t { Walk = 0, Jog = 1, Run = 2, FastWalk = 3 };

// Interrupt flags the CK shows. "Set all" in the CK sets 0xFFFF, so bits 0x100 and 0xFC00 occur
// too and are kept as read.
enum class InterruptFlag : std::uint16_t {
  HellosToPlayer = 0x01,
  RandomConversations = 0x02,
  ObserveCombatBehavior = 0x04,
  GreetCorpseBehavior = 0x08,
  ReactionToPlayerActions = 0x10,
  FriendlyFireComments = 0x20,
  AggroRadiusBehavior = 0x40,
  AllowIdleChatter = 0x80,
  WorldInteractions = 0x200,
};

// PKDT, 12 bytes. The spec page gives the interrupt flags as a uint32; the corpus holds them in
// bytes 8-9 (the CK's "set all" writes 0xFFFF there) while bytes 10-11 hold 0 or 4, which is no
// interrupt flag, so the two halves are kept apart.
struct PackageData {
  std::uint32_t flags = 0;  // PackageFlag bits
  PackageType type = PackageType::Package;
  InterruptOverride interrupt_override = InterruptOverride::None;
  PreferredSpeed preferred_speed = PreferredSpeed::Walk;  // used when PackageFlag::PreferredSpeed is set
  std::uint8_t unused = 0;  // byte 7: not cleared by the CK (often a stray text byte), kept as read
  std::uint16_t interrupt_flags = 0;  // InterruptFlag bits
  std::uint16_t unknown = 0;          // bytes 10-11

  bool has(PackageFlag f) const { return (flags & std::uint32_t(f)) != 0; }
  void set(PackageFlag f, bool on = true);
  bool has(InterruptFlag f) const { return (interrupt_flags & std::uint16_t(f)) != 0; }
  void set(InterruptFlag f, bool on = true);
  bool is_template() const { return (std::uint8_t(type) & 1) != 0; }
};

enum class DayOfWeek : std::int8_t {
  Any = -1,
  Sundas = 0,
  Morndas = 1,
  Tirdas = 2,
  Middas = 3,
  Turdas = 4,
  Fredas = 5,
  Loredas = 6,
  Weekdays = 7,             // Morndas to Fredas
  Weekends = 8,             // Loredas, Sundas
  MorndasMiddasFredas = 9,
  TirdasTurdas = 10,
};

// PSDT, 12 bytes: when the package may run.
struct Schedule {
  std::int8_t month = -1;  // -1: any (the only value Skyrim uses)
  DayOfWeek day_of_week = DayOfWeek::Any;
  std::uint8_t date = 0;   // day of the month; 0: any
  std::int8_t hour = -1;   // start hour 0-23; -1: any
  std::int8_t minute = -1; // start minute 0-59; -1: any
  std::array<std::uint8_t, 3> unused{};  // not cleared by the CK (stray text bytes), kept as read
  std::int32_t duration_minutes = 0;     // the CK shows it in hours
};

// One condition as stored: its CTDA field and the CIS1/CIS2 fields after it. The condition
// codec (fields/condition.hpp) reads them; packages only carry them, unchanged.
struct PackageCondition {
  std::vector<Field> fields;  // fields[0] is the CTDA

  const Field& ctda() const { return fields.front(); }
};

// IDLF bits (spec page). Without RunInSequence the idles play in random order.
enum class IdleFlag : std::uint8_t { RunInSequence = 0x01, DoOnce = 0x04 };

// IDLF, IDLC, IDLT, IDLA. The spec page lists them as IDLC IDLA IDLF IDLT; every corpus record
// stores IDLF IDLC IDLT IDLA, which is the order written here.
struct IdleAnimations {
  std::optional<std::uint8_t> flags;  // IDLF, IdleFlag bits
  std::vector<std::uint8_t> count_padding;  // IDLC bytes after its count byte (none in the corpus)
  float timer = 0;                    // IDLT
  std::vector<std::uint32_t> idles;   // IDLA: IDLE FormIDs; IDLC holds how many
};

// PKCU, 12 bytes.
struct PackageCounter {
  std::uint32_t data_input_count = 0;  // equals the number of public data inputs in every corpus record
  std::uint32_t template_package = 0;  // FormID of the template PACK (0: none)
  std::uint32_t version = 0;           // meaning unknown (spec page: values 0 to 29)
};

struct PackageHeader {
  PackageData data;                            // PKDT
  Schedule schedule;                           // PSDT
  std::vector<PackageCondition> conditions;    // CTDA (CIS1 CIS2)
  std::optional<IdleAnimations> idles;         // IDLF IDLC IDLT IDLA
  // CNAM: not on the spec page; a FormID in the four corpus records that have one (xEdit calls
  // it the combat style).
  std::optional<std::uint32_t> combat_style;
  std::optional<std::uint32_t> owner_quest;    // QNAM, a QUST FormID
  PackageCounter counter;                      // PKCU
};

// ---- public package data --------------------------------------------------------------------

enum class LocationType : std::int32_t {
  NearReference = 0,        // value: FormID of a reference
  InCell = 1,               // value: FormID of a cell
  NearPackageStart = 2,     // value unused
  NearEditorLocation = 3,   // value unused
  NearLinkedReference = 6,  // value: FormID of a KYWD
  ReferenceAlias = 8,       // value: alias id
  LocationAlias = 9,        // value: FormID (spec page)
  NearSelf = 12,            // value unused
};

// PLDT, 12 bytes.
struct Location {
  LocationType type = LocationType::NearSelf;
  std::uint32_t value = 0;  // what it is depends on type
  std::int32_t radius = 0;

  friend bool operator==(const Location&, const Location&) = default;
};

enum class TargetType : std::int32_t {
  SpecificReference = 0,  // value: FormID
  ObjectId = 1,           // value: FormID
  ObjectType = 2,         // value: a number (11: any weapon)
  LinkedReference = 3,    // value: FormID
  ReferenceAlias = 4,     // value: alias id
  Self = 6,               // value unused
};

// PTDA, 12 bytes.
struct Target {
  TargetType type = TargetType::Self;
  std::uint32_t value = 0;
  std::int32_t count = 0;

  friend bool operator==(const Target&, const Target&) = default;
};

enum class TopicType : std::int32_t {
  Dialogue = 0,  // value: DIAL FormID
  Subtype = 1,   // value: four characters ("HELO")
};

// PDTO, 8 bytes.
struct Topic {
  TopicType type = TopicType::Dialogue;
  std::uint32_t value = 0;

  friend bool operator==(const Topic&, const Topic&) = default;
};

// The value fields a data input can have. Bool/Int/Float/Raw are CNAM (read by the ANAM type:
// "Bool" 1 byte, "Int" int32, "Float" and "ObjectList" float; anything else stays bytes).
struct BoolValue {
  std::uint8_t value = 0;
  friend bool operator==(const BoolValue&, const BoolValue&) = default;
};
struct IntValue {
  std::int32_t value = 0;
  friend bool operator==(const IntValue&, const IntValue&) = default;
};
struct FloatValue {
  float value = 0;
  friend bool operator==(const FloatValue&, const FloatValue&) = default;
};
struct RawValue {
  std::vector<std::uint8_t> bytes;
  friend bool operator==(const RawValue&, const RawValue&) = default;
};
struct TopicForm {  // TPIC: a DIAL FormID
  std::uint32_t dial = 0;
  friend bool operator==(const TopicForm&, const TopicForm&) = default;
};
// monostate: an ANAM with no value field after it.
using DataValue = std::variant<std::monostate, BoolValue, IntValue, FloatValue, RawValue, Location, Target, Topic, TopicForm>;

// ANAM and its value field.
struct DataInput {
  std::string type;  // "Bool", "Float", "Int", "Location", "ObjectList", "SingleRef", "TargetSelector", "Topic" ...
  DataValue value;
};

struct PublicData {
  std::vector<DataInput> inputs;
  // UNAM: one per input, in order: the id of the template data input each one sets.
  std::vector<std::uint8_t> input_ids;
  std::int8_t xnam = 0;  // XNAM: always present, meaning unknown
};

// ---- template packages: procedure tree and data input names ---------------------------------

// FNAM bits of a procedure.
enum class BranchFlag : std::uint32_t { SuccessCompletesPackage = 0x01 };

// PRCB, 8 bytes (spec page: two uint32). In every corpus tree the first is the number of
// branches directly below this one, which follow it in order.
struct BranchRoot {
  std::uint32_t child_count = 0;
  std::uint32_t flags = 0;
};

// One ANAM of the procedure tree and the fields after it, in this order.
struct Branch {
  std::string type;                          // ANAM: Procedure, Sequence, Random, Simultaneous, Stacked
  std::vector<PackageCondition> conditions;  // CTDA (CIS1 CIS2); CITC holds how many
  std::optional<BranchRoot> root;            // PRCB
  std::optional<std::string> procedure;      // PNAM: Travel, Sit, Sandbox ...
  std::optional<std::uint32_t> flags;        // FNAM, BranchFlag bits
  std::vector<std::uint8_t> input_ids;       // PKC2: data input ids used (0xFF: none)
  std::vector<std::array<std::uint8_t, 16>> pfo2;  // PFO2 (layout unknown)
  std::vector<std::array<std::uint8_t, 12>> pfor;  // PFOR (layout unknown)
};

// Depth of each branch of a procedure tree (for indentation): a branch with a PRCB has that many
// children right after it, each with its own subtree. Counts that run past the end simply stop.
std::vector<std::size_t> branch_depths(const std::vector<Branch>& tree);

// UNAM BNAM PNAM after the procedure tree: the name of one data input id.
struct DataInputName {
  std::uint8_t id = 0;
  std::string name;         // BNAM, as shown in the CK
  std::uint32_t flags = 0;  // PNAM (spec page: probably a flag, 0 or 1)
};

// ---- On Begin / On End / On Change ----------------------------------------------------------

enum class PackageEventKind : std::uint8_t { Begin, End, Change };

// POBA / POEA / POCA (empty marker fields) and what follows, in this order.
struct PackageEvent {
  std::optional<std::uint32_t> idle;  // INAM: IDLE FormID, 0 for none
  // SCHR SCDA SCTX SLSD SCVR SCRO SCRV QNAM: leftovers of the older script format, kept raw.
  std::vector<Field> old_script;
  std::optional<std::int32_t> tnam;   // TNAM (spec page: one vanilla record, always 0)
  std::optional<Topic> topic;         // PDTO
};

// ---- the record -----------------------------------------------------------------------------

// A field tesmod does not know in a PACK record, with its index in the record's field list:
// it is written back at that index.
struct UnknownField {
  std::size_t index = 0;
  Field field;
};

struct Package {
  std::optional<std::string> editor_id;  // EDID, as stored (the file's code page)
  std::optional<Field> vmad;             // VMAD, raw (fields/vmad.hpp decodes it)
  PackageHeader header;
  PublicData public_data;
  std::vector<Branch> procedure_tree;      // template packages only
  std::vector<DataInputName> input_names;  // template packages only
  std::optional<PackageEvent> on_begin;    // POBA
  std::optional<PackageEvent> on_end;      // POEA
  std::optional<PackageEvent> on_change;   // POCA
  std::vector<UnknownField> unknown_fields;

  std::optional<PackageEvent>& event(PackageEventKind kind);
  const std::optional<PackageEvent>& event(PackageEventKind kind) const;
};

// ---- names (lower case, for text and JSON) --------------------------------------------------

struct FlagName {
  std::uint32_t bit;
  std::string_view name;
};
std::span<const FlagName> package_flag_names();
std::span<const FlagName> interrupt_flag_names();
std::span<const FlagName> idle_flag_names();
std::span<const FlagName> branch_flag_names();

// The name of a known value, or nullopt.
std::optional<std::string_view> name_of(PackageType v);
std::optional<std::string_view> name_of(InterruptOverride v);
std::optional<std::string_view> name_of(PreferredSpeed v);
std::optional<std::string_view> name_of(DayOfWeek v);
std::optional<std::string_view> name_of(LocationType v);
std::optional<std::string_view> name_of(TargetType v);
std::optional<std::string_view> name_of(TopicType v);
std::string_view name_of(PackageEventKind v);  // "on begin", "on end", "on change"

// Whether the value of a location / target of this type is a FormID (else a number or unused).
bool holds_form_id(LocationType type);
bool holds_form_id(TargetType type);
// Whether the value is not used at all.
bool value_unused(LocationType type);
bool value_unused(TargetType type);

}  // namespace tesmod::fields
