// Records that more than one active plugin of a load order has (the defining plugin and its
// overrides, or several overrides), with xEdit's conflict category:
//
//   no_conflict  every version is equal (record_equality.hpp);
//   override     two values, and the winner's differs from the defining plugin's: a change that
//                nothing else contests;
//   conflict     anything else: a change lost to a later plugin, or a change reverted.
//
// Per version: master (the first version, the defining plugin's), identical_to_master, wins (its
// value is the winner's), loses (its change is lost). itpo: versions equal to the version just
// before them but not to the defining plugin's (identical to previous override).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/loadorder/load_order.hpp"

namespace tesmod::loadorder {

enum class ConflictCategory : std::uint8_t { NoConflict, Override, Conflict };
enum class VersionState : std::uint8_t { Master, IdenticalToMaster, Wins, Loses };

std::string_view category_name(ConflictCategory category);  // no_conflict, override, conflict
std::optional<ConflictCategory> parse_category(std::string_view name);
std::string_view state_name(VersionState state);  // master, identical_to_master, wins, loses

struct ConflictVersion {
  RecordVersion version;
  VersionState state = VersionState::Master;
  bool itpo = false;
};

struct ConflictRecord {
  FormKey form;
  Signature type;
  std::string editor_id;  // as the first version stores it (code-page bytes); empty when none
  bool defining_version = true;  // the first version is the defining plugin's
  std::vector<ConflictVersion> versions;  // in load order; the last one wins
  ConflictCategory category = ConflictCategory::NoConflict;

  const ConflictVersion& winner() const { return versions.back(); }
};

struct ConflictOptions {
  std::vector<Signature> types;           // only records of these types (empty: every type)
  std::optional<std::uint32_t> plugin;    // only records this plugin (a position) has a version of
  std::vector<FormKey> forms;             // only these forms (empty: every form)
};

// Every record more than one active plugin has, ordered by load-order FormID. A plugin that does
// not read (damaged) or a record that does not inflate is left out and reported in problems
// (naming the file, offset and record); the others are still compared.
std::vector<ConflictRecord> find_conflicts(const LoadOrder& order, const ConflictOptions& options,
                                           std::vector<Problem>& problems);

}  // namespace tesmod::loadorder
