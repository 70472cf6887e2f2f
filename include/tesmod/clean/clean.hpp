// Cleaning a plugin against its masters, as xEdit's Quick Auto Clean does, headless and byte-exact.
// Every record of the plugin that overrides a master's record is classified:
//
//   itm            equal (loadorder/record_equality.hpp) to the version its masters give it (the
//                  last of its masters that has it): removed. A CELL, WRLD or DIAL equal to it is
//                  removed only once nothing is left under it (then with its children group).
//   itm_kept       equal to the defining master's version, not to a later master's change of it
//                  ("identical to master, conflict winner"): kept, since removing it would let the
//                  change win.
//   itpo           equal to a later master's change (identical to previous override): kept.
//   udr            a deleted placed reference (REFR, ACHR, ACRE, PGRE, PMIS, PARW, PBAR, PBEA, PCON,
//                  PFLA, PHZD) overriding a master's: undeleted and disabled (see udr_edit.hpp).
//   nav            a deleted navmesh (NAVM): counted, left alone.
//   deleted_other  any other deleted record: reported, left alone.
//   skipped        a deleted reference that cannot be undeleted (why is in the decision).
//
// Cleaning writes only what it must: records not cleaned keep their stored bytes (compressed ones
// too); the records removed and the groups they leave empty are dropped; group sizes and the HEDR
// count follow. The same input gives the same bytes; cleaning a cleaned plugin changes nothing.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/clean/master_records.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/plugin/field.hpp"
#include "tesmod/plugin/plugin.hpp"

namespace tesmod::clean {

enum class CleanKind : std::uint8_t { Itm, ItmKept, Itpo, Udr, Nav, DeletedOther, Skipped };
inline constexpr CleanKind kCleanKinds[] = {CleanKind::Itm, CleanKind::ItmKept,      CleanKind::Itpo,   CleanKind::Udr,
                                            CleanKind::Nav, CleanKind::DeletedOther, CleanKind::Skipped};

// The JSON key: itm, itm_kept, itpo, udr, nav, deleted_other, skipped.
std::string_view kind_key(CleanKind kind);
// The reason as the report gives it: ITM, ITM kept: conflict winner, ITPO, UDR, NAV, deleted record, skipped.
std::string_view kind_reason(CleanKind kind);

struct CleanOptions {
  bool itm = true;  // remove ITMs (they are reported either way)
  bool udr = true;  // undelete deleted references (reported either way)
};

struct CleanDecision {
  CleanKind kind = CleanKind::Itm;
  Signature type;
  std::uint32_t form_id = 0;  // as the plugin stores it
  std::string editor_id;      // as stored (code-page bytes); empty when none
  std::uint32_t entry = 0;    // the record's index in the plugin's full index
  std::string detail;         // why, in words: the master compared with, the first field that differs, ...
};

// A deleted reference rewritten: its new header flags and fields.
struct UdrEdit {
  std::uint32_t entry = 0;
  std::uint32_t form_id = 0;  // as stored (checked when the plan is applied)
  std::uint32_t flags = 0;
  std::vector<Field> fields;
};

struct CleanReport {
  std::string plugin;                // file name
  std::vector<std::string> masters;  // as the header names them
  std::uint32_t crc_before = 0;      // CRC-32 of the file as read
  std::uint32_t crc_after = 0;       // of the file as cleaning writes it (crc_before when nothing changes)
  std::vector<CleanDecision> decisions;  // in file order
  // What cleaning changes (what the options allow): entries (records and groups) dropped, in
  // index order, and references rewritten.
  std::vector<std::uint32_t> removed;
  std::vector<UdrEdit> undeleted;
  std::size_t entry_count = 0;  // the plugin's index entries, the TES4 record included

  bool changes() const { return !removed.empty() || !undeleted.empty(); }
  std::size_t count(CleanKind kind) const;
};

// The load order cleaning reads: the plugin's masters, found in data (case-insensitive, a .ghost
// counting), then the plugin, all active. Throws tesmod::Error naming the plugin and the first
// master that is not there.
loadorder::LoadOrder open_with_masters(const std::filesystem::path& plugin, const std::filesystem::path& data,
                                       unsigned threads = 0);

// Classifies every record of the plugin at `position` against its masters and plans the changes.
// Throws tesmod::Error when the plugin or a master does not read, or a master is missing. The
// report's crc_after is not set (see clean_bytes). masters: the masters' versions collected for
// this plugin (with others); when not given, they are collected for this plugin alone.
CleanReport plan_cleaning(const loadorder::LoadOrder& order, std::uint32_t position, const CleanOptions& options = {},
                          const MasterRecords* masters = nullptr);

// Applies a plan to the plugin's model, which must be the plugin the plan was made for, unedited
// (Plugin::from_file of the same file): throws tesmod::Error otherwise.
void apply_cleaning(Plugin& model, const CleanReport& report);

// The cleaned plugin's bytes (the input's when nothing changes), and crc_after set from them.
std::vector<std::uint8_t> clean_bytes(const loadorder::LoadOrder& order, std::uint32_t position, CleanReport& report);

// Sets report.crc_after: crc_before when nothing changes, else the CRC of clean_bytes' output.
void set_crc_after(const loadorder::LoadOrder& order, std::uint32_t position, CleanReport& report);

// A plan for one plugin of plan_cleaning_all: the report (crc_after set), or why there is none.
struct PluginCleanPlan {
  std::uint32_t position = 0;
  std::optional<CleanReport> report;
  std::string error;  // when report is empty
};

// `clean --all --dry-run`: plan_cleaning and set_crc_after for every active plugin, in load order,
// plugins on the order's threads (each reads its own records and its masters', read once and
// shared). A plugin that cannot be planned has its error instead; the others still are.
std::vector<PluginCleanPlan> plan_cleaning_all(const loadorder::LoadOrder& order, const CleanOptions& options = {});

// CRC-32 of bytes (zlib's crc32, computed with libdeflate): what LOOT keys its dirty info on.
std::uint32_t crc32_of(std::span<const std::uint8_t> bytes);

}  // namespace tesmod::clean
