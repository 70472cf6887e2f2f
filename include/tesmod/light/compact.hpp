// FormID compaction for light (ESL) plugins: a Skyrim SE plugin's new records renumbered into the
// light range, and every reference to them rewritten — in the plugin itself and in every plugin
// of the load order that has it as a master — so that the plugin can be flagged light.
//
//   plan_compaction     which records move where (from the plugins' indices alone): the records
//                       already in the range keep their ids; the others take the lowest free ids,
//                       in FormID order — from 0x800 up, and with --hedr 1.71 below 0x800 only
//                       when 0x800-0xFFF is full (the low range needs HEDR 1.71 in the plugin and
//                       in every dependant, a game from 1.6.1130 on, a master of the plugin's own
//                       and no dependant naming it first: see esl_check.hpp). Object id 0 is
//                       never given.
//   compact_files       the new bytes of the plugin and of each dependant that changes: record
//                       FormIDs, every FormID field the layouts type (conditions, VMAD, packages
//                       included), child group labels, interior cells moved to the block and
//                       sub-block of their new id, the dependants' ONAM, and the plugin's HEDR
//                       next object id (and version and ESL flag when asked). Records that hold
//                       no reference to a renumbered record keep their stored bytes.
//
// Compacting a compacted plugin plans nothing and changes nothing.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tesmod/light/loose_files.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/plugin/light_range.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod::light {

struct CompactOptions {
  bool hedr171 = false;  // set HEDR 1.71 (and use 0x000-0x7FF when 0x800-0xFFF is full)
  bool flag = false;     // set the ESL flag
};

// One record renumbered (FormIDs as the plugin stores them).
struct Renumbered {
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  Signature type;
  std::string editor_id;  // as stored; empty when none
};

struct CompactPlan {
  std::uint32_t position = 0;  // the plugin, in the load order
  std::string plugin;          // its file name
  std::uint32_t own_index = 0;  // the file index of its own records (its number of masters)
  float hedr_before = 0;
  bool set_hedr171 = false;  // the plugin's HEDR becomes 1.71 (asked for, and not 1.71 already)
  bool set_flag = false;     // the ESL flag is set (asked for, and not set already)
  LightRange range;          // the range the records are renumbered into
  std::size_t new_records = 0;  // records the plugin defines
  std::vector<Renumbered> renumbered;  // by old FormID
  std::map<std::uint32_t, std::uint32_t> object_map;  // old object id -> new (24-bit ids)
  // HEDR's next object id after compaction (the highest object id the plugin defines + 1); equal
  // to the current one when nothing is renumbered.
  std::uint32_t next_object_id = 0;
  std::uint32_t next_object_id_before = 0;
  // Every plugin of the load order (active or not) that names this one as a master, in load
  // order, and which of them must have HEDR 1.71 (the plugin uses ids below 0x800 after
  // compaction and they are not 1.71 yet: set with --hedr 1.71, else a warning).
  std::vector<std::uint32_t> dependants;
  std::vector<std::uint32_t> dependants_to_171;
  std::vector<std::string> warnings;

  // Whether anything is written.
  bool changes() const { return !renumbered.empty() || set_hedr171 || set_flag || !dependants_to_171.empty(); }
};

// Plans the compaction of the plugin at `position`. Throws tesmod::Error when the order is not
// Skyrim SE's, the plugin or a dependant does not read, or the new records do not fit the range.
CompactPlan plan_compaction(const loadorder::LoadOrder& order, std::uint32_t position, const CompactOptions& options = {});

// A plugin file as compaction writes it.
struct CompactedFile {
  std::uint32_t position = 0;  // in the load order
  std::string name;
  std::filesystem::path source;      // the file read
  std::vector<std::uint8_t> bytes;   // the new file
  std::size_t records_changed = 0;   // records whose FormID or fields changed
  std::size_t references = 0;        // FormIDs rewritten (record headers, fields, group labels, ONAM)
};

// The files the plan changes: the plugin first (when it changes), then the dependants that hold a
// reference to a renumbered record or need HEDR 1.71, in load order. Throws tesmod::Error (nothing
// is returned) when a file does not read, or when a plugin refers to an id of this plugin that no
// record has and compaction would give that id to a record.
std::vector<CompactedFile> compact_files(const loadorder::LoadOrder& order, const CompactPlan& plan);

// Writes what compaction changes: into output (the plugins under their names, the loose files
// under their paths relative to data) or, without output, over the files in data. The plugins are
// each written to a temporary file beside their target first and renamed only once all are
// written; the loose files follow. Throws tesmod::Error before writing anything when the loose
// file plan has errors.
void write_compaction(std::span<const CompactedFile> files, const LooseFilePlan& loose, const std::filesystem::path& data,
                      const std::optional<std::filesystem::path>& output);

}  // namespace tesmod::light
