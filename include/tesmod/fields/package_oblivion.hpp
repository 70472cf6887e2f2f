// Oblivion AI packages (PACK records of TES4 plugins): the package data, location, schedule, target
// and conditions, as the UESP page "Oblivion Mod:Mod File Format/PACK" lays them out. Much simpler
// than Skyrim's (fields/package.hpp); the conditions and the day-of-week enumeration are shared.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tesmod/fields/package.hpp"
#include "tesmod/fields/package_codec.hpp"

namespace tesmod::fields {

// PKDT general flags (UESP page).
enum class OblivionPackageFlag : std::uint32_t {
  OffersServices = 0x01,
  MustReachLocation = 0x02,
  MustComplete = 0x04,
  LockDoorsAtStart = 0x08,
  LockDoorsAtEnd = 0x10,
  LockDoorsAtLocation = 0x20,
  UnlockDoorsAtStart = 0x40,
  UnlockDoorsAtEnd = 0x80,
  UnlockDoorsAtLocation = 0x100,
  ContinueIfPcNear = 0x200,
  OncePerDay = 0x400,
  SkipFalloutBehavior = 0x1000,
  AlwaysRun = 0x2000,
  AlwaysSneak = 0x20000,
  AllowSwimming = 0x40000,
  AllowFalls = 0x80000,
  ArmorUnequipped = 0x100000,
  WeaponsUnequipped = 0x200000,
  DefensiveCombat = 0x400000,
  UseHorse = 0x800000,
  NoIdleAnims = 0x1000000,
};

enum class OblivionPackageType : std::uint8_t {
  Find = 0,
  Follow = 1,
  Escort = 2,
  Eat = 3,
  Sleep = 4,
  Wander = 5,
  Travel = 6,
  Accompany = 7,
  UseItemAt = 8,
  Ambush = 9,
  FleeNotCombat = 10,
  CastMagic = 11,
};

// PKDT. The spec page gives the type as a long; in the corpus only its first byte varies and the
// other three hold 0xCD (uninitialised memory of the editor) or 0, so they are kept apart as read.
// Early plugins store a 4-byte PKDT: u16 flags, u8 type, one unused byte.
struct OblivionPackageData {
  std::uint32_t flags = 0;  // OblivionPackageFlag bits
  OblivionPackageType type = OblivionPackageType::Find;
  std::array<std::uint8_t, 3> unused{};  // only unused[0] in the 4-byte form
  bool short_form = false;               // the 4-byte PKDT

  bool has(OblivionPackageFlag f) const { return (flags & std::uint32_t(f)) != 0; }
  void set(OblivionPackageFlag f, bool on = true);
};

enum class OblivionLocationType : std::int32_t {
  NearReference = 0,        // value: FormID
  InCell = 1,               // value: FormID
  NearCurrentLocation = 2,  // value unused
  NearEditorLocation = 3,   // value unused
  ObjectId = 4,             // value: FormID
  ObjectType = 5,           // value: a number
};

// PLDT, 12 bytes.
struct OblivionLocation {
  OblivionLocationType type = OblivionLocationType::NearReference;
  std::uint32_t value = 0;
  std::int32_t radius = 0;
  friend bool operator==(const OblivionLocation&, const OblivionLocation&) = default;
};

// PSDT, 8 bytes.
struct OblivionSchedule {
  std::int8_t month = -1;  // 0-11, 12-15 seasons; -1 (255): any
  DayOfWeek day_of_week = DayOfWeek::Any;
  std::uint8_t date = 0;   // 0: any
  std::int8_t hour = -1;   // -1 (255): any
  std::int32_t duration = 0;  // hours, as the Construction Set shows it
};

enum class OblivionTargetType : std::int32_t {
  SpecificReference = 0,  // value: FormID
  ObjectId = 1,           // value: FormID
  ObjectType = 2,         // value: a number
};

// PTDT, 12 bytes.
struct OblivionTarget {
  OblivionTargetType type = OblivionTargetType::SpecificReference;
  std::uint32_t value = 0;
  std::int32_t count = 0;
  friend bool operator==(const OblivionTarget&, const OblivionTarget&) = default;
};

// Fields in the order the Construction Set writes them: EDID PKDT PLDT PSDT PTDT CTDA...
struct OblivionPackage {
  std::optional<std::string> editor_id;
  OblivionPackageData data;
  std::optional<OblivionLocation> location;
  OblivionSchedule schedule;
  std::optional<OblivionTarget> target;
  std::vector<PackageCondition> conditions;  // CTDA (or the older CTDT), each alone
  std::vector<UnknownField> unknown_fields;
};

// Decodes / encodes the fields of an Oblivion PACK record. Errors as decode_package's: wrong sizes,
// fields out of order or repeated, PKDT or PSDT missing, strings without their terminator.
OblivionPackage decode_oblivion_package(std::span<const Field> fields, const ErrorContext& where,
                                        const FieldLocations& locations = {});
std::vector<Field> encode_oblivion_package(const OblivionPackage& package);

// read_record_fields + decode_oblivion_package.
OblivionPackage read_oblivion_package(const PluginFile& file, const IndexEntry& entry, Inflater& inflater);

std::span<const FlagName> oblivion_package_flag_names();
std::optional<std::string_view> name_of(OblivionPackageType v);
std::optional<std::string_view> name_of(OblivionLocationType v);
std::optional<std::string_view> name_of(OblivionTargetType v);
bool holds_form_id(OblivionLocationType type);
bool holds_form_id(OblivionTargetType type);

}  // namespace tesmod::fields
