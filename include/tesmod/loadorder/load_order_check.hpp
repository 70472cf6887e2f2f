// `tesmod check`: what xEdit's "check for errors" finds in each plugin of a load order, read
// against its masters:
//
//   missing_master        a master that is not in the data folder (or not active, or not readable)
//   master_order          masters listed in another order than they load
//   hitme                 a FormID (of a record, or in a field) whose file index is past the
//                         plugin's master list: the game reads it as the plugin's own
//   unresolved_reference  a reference (any field its layout types as a FormID, conditions, VMAD
//                         objects, package targets, script references) to a form no plugin of the
//                         load order has, checked when the plugin defining it is at hand (object
//                         ids below 0x800, the engine's own forms, are not checked)
//   wrong_reference_type  a reference to a record of another type than the layout names
//   duplicate_form_id     two records of the plugin with one FormID
//   deleted_with_fields   a deleted record that is not a reference but keeps its fields
//   light_form_id_range   a light plugin's new record outside 0x800-0xFFF (0x000-0xFFF with HEDR 1.71)
//   header_version        a HEDR version the game does not write
//   form_version          records of a form version the game does not read: past 43 in Skyrim LE,
//                         past 44 in Skyrim SE (one line per plugin)
//   unreadable            a plugin, or a record, that does not read
//   unexpected_field      a field the record type does not hold in this game
//   field_order           a field out of the order the game's editor writes (where the record
//                         type's structure says the order matters), or one that stands once given twice
//   missing_field         a required field absent (LVLD in a leveled list, a reference's NAME ...)
//   bad_size              a field whose size fits none of the layouts that apply to it
//   bad_value             a NaN float, or a flag bit or enum value a complete set does not name
//
// The last five read each record against its type's structure and each field against the layout
// chosen for it while its FormIDs are found (fields/record_check.hpp); deleted records are not
// held to a structure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/loadorder/load_order.hpp"

namespace tesmod::loadorder {

struct CheckProblem {
  std::string file;    // the plugin
  std::string check;   // one of the names above
  std::optional<RecordRef> record;  // the record: type, FormID as the plugin stores it, EditorID as stored
  std::string message;  // what is wrong
};

struct CheckOptions {
  std::vector<std::uint32_t> plugins;  // positions to check; empty: every active plugin
};

// Problems in plugin order, then record order. Never throws for bad plugins: a plugin or record
// that does not read is a problem.
std::vector<CheckProblem> check_load_order(const LoadOrder& order, const CheckOptions& options = {});

// `file: TYPE FORMID EditorID: message` (or `file: message`), the EditorID converted with codec.
std::string problem_line(const CheckProblem& problem, const TextCodec& codec);

}  // namespace tesmod::loadorder
