// `tesmod esl check`: which plugins of a Skyrim SE load order can be light (ESL), and why not.
// Read from the record headers alone (FormIDs, types, where a CELL sits), plus the EditorID of
// the records a warning names.
//
// The facts (light_range.hpp; the sources are named where each rule is coded, esl_check.cpp):
//   * A light plugin's new records (FormID file index >= its number of masters: the records it
//     defines, HITMEs included, as the game reads them) may use object ids 0x800-0xFFF, or
//     0x000-0xFFF when its HEDR is 1.71 (Skyrim SE 1.6.1130 and later).
//   * The low range 0x000-0x7FF is the hardcoded range: in a plugin whose HEDR is below 1.71, or
//     that has no masters, every FormID with an object id below 0x800 is read as the game master's
//     (Skyrim.esm) form; in a 1.71 plugin, so is every FormID below 0x800 as a whole (file index
//     00 included). So the low range serves a plugin only when (a) it has at least one master
//     (else its own records are 00xxxxxx) and (b) no plugin names it as its first master (that
//     plugin's references to it are 00xxxxxx too); and every plugin that names it as a master
//     (a dependant) must have HEDR 1.71 to read references to those records (all dependants are
//     listed: which of them refer to a low-range record is in their fields, not read here).
//
// The rule, N being the plugin's new records (each record counts; a FormID used twice is
// `tesmod check`'s duplicate_form_id) and "usable" the low range per (a) and (b):
//   light_ok          every new object id is in 0x800-0xFFF and N <= 2048: the ESL flag can be
//                     set as the plugin is.
//   too_many_records  N > 4096, or N > 2048 when the low range is not usable: no renumbering
//                     makes it fit; it stays a full plugin (or is split).
//   light_ok_hedr171  otherwise, when every new object id is in 0x000-0xFFF and the low range is
//                     usable (some ids are below 0x800, or N > 2048): the flag can be set with
//                     HEDR 1.71 (set it when it is 1.70), in a game from 1.6.1130 on, and every
//                     dependant whose HEDR is not 1.71 must become 1.71.
//   needs_compaction  otherwise (some object id is outside the range it would need): renumbering
//                     the out-of-range records makes it light (`tesmod esl compact`) — into
//                     0x800-0xFFF when N <= 2048 (its HEDR and the dependants stay as they are),
//                     else into 0x000-0xFFF with HEDR 1.71 (the dependants as for light_ok_hedr171).
//   unreadable        the plugin's records do not read (error says why).
//
// A plugin that is light already (ESL flag 0x200, or a .esl file) gets the same verdict, and is
// valid when its new records fit the range its own HEDR gives (0x800-0xFFF, or 0x000-0xFFF at
// 1.71 when it has a master: (a)) and N fits that range's size; an invalid one carries the
// warning already_light_invalid with LOOT's message. A valid one whose records below 0x800 a
// dependant misreads (below HEDR 1.71, or naming it first: (b)) carries dependants_misread.
//
// Warnings (known engine bugs of light plugins; given for every verdict but too_many_records,
// and for every plugin that is light already):
//   new_cell             a new CELL (interior or exterior, by whether it sits in the CELL or a WRLD
//                        top group)
//   new_cell_overridden  a new CELL that a dependant overrides (a CELL record with its FormID)
//   new_worldspace       a new WRLD
//   new_weather          a new WTHR
//   already_light_invalid, dependants_misread  (light already; above)
//
// `others`: where esplugin (and LOOT), Wrye Bash and xEdit would each answer otherwise, from
// their rules as coded in esl_check.cpp (one small function each).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/plugin/light_range.hpp"

namespace tesmod::light {

enum class EslVerdict : std::uint8_t { light_ok, light_ok_hedr171, needs_compaction, too_many_records, unreadable };

// "light_ok", "light_ok_hedr171", "needs_compaction", "too_many_records", "unreadable".
std::string_view verdict_name(EslVerdict verdict);

// A plugin that names the checked one as a master.
struct EslDependant {
  std::uint32_t position = 0;  // in the load order
  std::string name;
  float hedr = 0;
  bool needs_171 = false;     // the verdict uses the low range and its HEDR is not 1.71
  bool first_master = false;  // names the checked plugin first: the low range cannot be used
};

struct EslWarning {
  std::string kind;                 // new_cell, new_cell_overridden, ... (see above)
  std::optional<RecordRef> record;  // type, FormID as the plugin stores it, EditorID as stored
  std::string message;
};

// Another tool's answer where it differs from tesmod's.
struct EslOtherTool {
  std::string tool;  // "esplugin", "Wrye Bash", "xEdit"
  std::string says;
};

struct EslReport {
  std::uint32_t position = 0;
  std::string name;
  EslVerdict verdict = EslVerdict::unreadable;
  std::string error;         // unreadable: why
  bool light = false;        // light already (ESL flag or .esl)
  bool valid_light = false;  // light already, and valid as it is
  float hedr = 0;
  std::uint32_t masters = 0;       // how many masters it names
  bool game_master_first = false;  // its first master is the game master (Skyrim.esm)
  bool low_range_usable = false;   // (a) and (b) above
  std::uint64_t new_records = 0;
  std::uint64_t below_800 = 0;  // new records with object ids 0x000-0x7FF
  std::uint64_t above_fff = 0;  // new records with object ids past 0xFFF
  // The range the verdict puts the new records in (needs_compaction: the one compaction fills),
  // and the new records outside it (FormIDs as stored, file order; needs_compaction only).
  LightRange range;
  std::vector<std::uint32_t> out_of_range;
  std::vector<EslDependant> dependants;  // load order
  std::vector<std::string> reasons;      // why the verdict, and what to do
  std::vector<EslWarning> warnings;
  std::vector<EslOtherTool> others;
};

// The plugins at `positions` (default: every active plugin), in that order. Throws tesmod::Error
// when the load order is not Skyrim SE's. A plugin that does not read is reported as unreadable.
// Reads the checked plugins' indices (several at once), and for a plugin with new cells its
// dependants' too.
std::vector<EslReport> esl_check(const loadorder::LoadOrder& order, std::span<const std::uint32_t> positions = {});

// Whether the report is an error: a light plugin that is not valid, or a plugin that does not read.
bool is_error(const EslReport& report);

}  // namespace tesmod::light
