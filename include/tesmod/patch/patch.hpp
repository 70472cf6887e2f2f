// The Bashed Patch, headless: one plugin, loading last, that resolves what a load order's plugins
// leave in conflict, as Wrye Bash's patch does —
//
//   leveled lists   every active plugin's version of a list merged (wryebash mode: Wrye Bash's
//                   rules with Relev and Delev; merge mode: a three-way merge that needs no tags);
//   imports         fields of the record types a Bash Tag names carried from the tagged plugins
//                   into the winning record (Names, Stats, Graphics ...), and lists of entries
//                   (inventories, factions, spells, perks, relations, outfits) merged from each
//                   tagged plugin's own changes.
//
// Planned, then written, as cleaning is: plan_patch reads the load order and decides every record
// (with its sources and reasons); write_patch writes them. The same inputs give the same bytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/loadorder/resolved_record.hpp"
#include "tesmod/patch/bash_tags.hpp"

namespace tesmod::patch {

enum class ListMode : std::uint8_t { WryeBash, Merge };
enum class RemoveEmpty : std::uint8_t { Auto, On, Off };  // Auto: on for Oblivion only (Wrye Bash's default)
enum class PatchParts : std::uint8_t { All, Lists, Imports };

// The options' names as the CLI and Python take them: wryebash|merge, auto|on|off, lists|imports.
std::optional<ListMode> parse_list_mode(std::string_view name);
std::optional<RemoveEmpty> parse_remove_empty(std::string_view name);
std::optional<PatchParts> parse_patch_parts(std::string_view name);

struct PatchOptions {
  std::string name = "Bashed Patch, 0.esp";  // the patch's file name; a plugin of that name is not read
  ListMode mode = ListMode::WryeBash;
  RemoveEmpty remove_empty = RemoveEmpty::Auto;
  PatchParts parts = PatchParts::All;
  TagOptions tags;
};

// What the patch did with a record, and from where.
struct RecordOutcome {
  std::string part;                    // "leveled list" or the import tag(s)
  std::vector<std::uint32_t> sources;  // plugins it took from, in load order
  std::vector<std::string> notes;      // what was taken from each, and why
};

struct PatchRecord {
  loadorder::FormKey form;
  RecordHeader header;                          // the winning version's (not compressed)
  std::vector<loadorder::ResolvedField> fields;  // as written, FormIDs known by form
  std::uint32_t winner = 0;                     // the plugin whose version it overrides
  std::string editor_id;                        // as stored, for the report
  RecordOutcome outcome;
};

// Whether a tagged plugin's tag was used, and why (not).
struct TagUse {
  std::uint32_t plugin = 0;
  std::string tag;
  bool used = false;
  std::string why;
};

struct PatchPlan {
  Game game = Game::Oblivion;
  std::string name;
  ListMode mode = ListMode::WryeBash;
  bool remove_empty = false;
  std::vector<std::uint32_t> sources;   // plugins read (active, in load order; the earlier patch left out)
  std::optional<std::uint32_t> skipped_patch;  // an active plugin named like the patch, not read
  std::vector<PluginTags> tags;          // every plugin of the load order
  std::vector<TagUse> tag_uses;
  std::vector<PatchRecord> records;      // in the order they are written
  std::vector<std::uint32_t> masters;    // the plugins its records and their fields name, in load order
  std::vector<std::string> warnings;
  std::size_t lists_read = 0;            // leveled lists with more than one version looked at
};

// Reads the load order and decides the patch. Throws tesmod::Error when an active plugin does not
// read, lacks a master, or a record does not read (naming file, offset and record).
PatchPlan plan_patch(const loadorder::LoadOrder& order, const PatchOptions& options);

// The patch's bytes: the TES4 header (HEDR count and next object id, the masters, Skyrim SE's
// ESL flag: the patch adds no new forms) and the records in the game's group order.
std::vector<std::uint8_t> patch_bytes(const loadorder::LoadOrder& order, const PatchPlan& plan);

// Writes the patch atomically (temporary file, then rename).
void write_patch(const loadorder::LoadOrder& order, const PatchPlan& plan, const std::filesystem::path& path);

}  // namespace tesmod::patch
