// A plugin of one's own on top of a load order, as a patcher makes it (Mutagen's Synthesis, an
// xEdit script): overrides of records of any plugin of the order, copied with their FormIDs
// remapped, edited, and new records; saved with exactly the masters its records name, in load
// order.
//
// While it is edited the patch holds FormIDs in its own numbering ("held" FormIDs): the top byte
// indexes the plugins in the order the patch first named them, and kOwnIndex (0xFF) is the patch
// itself. Masters are only put in load order when it is saved (every FormID its fields hold, as
// the field layouts, conditions, VMAD and packages locate them, is renumbered then), so adding a
// master costs nothing while editing. Records the format nests in cells, worlds and topics are
// not taken (a top-level group is where add_override puts a record).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/strings_file.hpp"

namespace tesmod::patch {

// What a save wrote.
struct PatchPluginSaved {
  std::vector<std::string> masters;  // in load order
  std::size_t records = 0;           // overrides + new records
  std::size_t overrides = 0;
  std::size_t new_records = 0;
  std::uint32_t next_object_id = 0;
  bool light = false;  // Skyrim SE: flagged ESL (its new records fit the light range)
  // Overrides identical to the version they were copied from (xEdit's ITPO: the patch changes
  // nothing there). Not removed: a patcher may mean it; it is told.
  struct Unchanged {
    loadorder::FormKey form;
    Signature type;
    std::string editor_id;     // as stored
    std::uint32_t copied_from;  // the plugin (position) whose version it equals
  };
  std::vector<Unchanged> unchanged;
};

class PatchPlugin {
 public:
  static constexpr std::uint32_t kOwnIndex = 0xFF;

  // An empty plugin named name that loads after every plugin of order. Throws tesmod::Error when
  // a plugin of the order has that name (a patch is made from the plugins before it: read the
  // order without an earlier copy of it).
  PatchPlugin(const loadorder::LoadOrder& order, std::string name);

  const std::string& name() const { return model_.name(); }
  Game game() const { return order_.game(); }
  const loadorder::LoadOrder& order() const { return order_; }
  // The patch itself as a FormKey's plugin: one past the order's plugins.
  std::uint32_t own_position() const { return std::uint32_t(order_.plugins().size()); }
  // A FormKey plugin's file name (the patch's own name for own_position()).
  const std::string& plugin_name(std::uint32_t position) const;

  // The form a held FormID names, and the held FormID of a form (its plugin becomes one of the
  // patch's masters when first named; tesmod::Error past 255).
  loadorder::FormKey form_of(std::uint32_t held) const;
  std::uint32_t held_form_id(const loadorder::FormKey& form);

  // The records, with held FormIDs (edit their fields in place; do not save this directly).
  Plugin& plugin() { return model_; }
  const Plugin& plugin() const { return model_; }

  // Copies a version of a record of the order into the patch (its FormIDs held) and returns the
  // patch's copy. A form the patch holds already is returned as it is. Throws tesmod::Error for a
  // record the format keeps in a cell, world or topic, or one that does not read.
  Record& add_override(const loadorder::RecordVersion& version, Inflater& inflater);
  // The same for the form's winning version among the order's active plugins.
  Record& add_override(const loadorder::FormKey& form, Inflater& inflater);
  // A new record with the next free FormID of the patch (from 0x800); fields' FormIDs held.
  Record& add_record(Signature type, std::vector<Field> fields, std::uint32_t flags = 0);
  Record* find(const loadorder::FormKey& form);
  bool remove(const loadorder::FormKey& form);
  std::size_t size() const { return copied_.size() + new_records_; }
  // What copying met that a patcher should know (a string id no string table holds ...).
  const std::vector<std::string>& warnings() const { return warnings_; }

  // The plugin's bytes: masters the records name in load order, FormIDs renumbered, records in
  // the game's group order then by FormID, uncompressed; HEDR count and next object id; Skyrim
  // SE's ESL flag when every new record's object id is in 0x800..0xFFF. The same edits give the
  // same bytes.
  std::vector<std::uint8_t> bytes(PatchPluginSaved* saved = nullptr) const;
  // Writes them atomically. Throws tesmod::Error (nothing written) for a path that is a plugin of
  // the order.
  PatchPluginSaved save(const std::filesystem::path& path) const;

 private:
  struct Copied {
    std::uint32_t from;          // the plugin whose version was copied
    std::vector<Field> fields;   // as first held: an override still equal to them is unchanged
    std::uint32_t flags;
  };
  const loadorder::LoadOrder& order_;
  Plugin model_;
  std::vector<std::uint32_t> held_;                       // held index -> plugin position
  std::unordered_map<std::uint32_t, std::uint32_t> index_of_;  // plugin position -> held index
  std::unordered_map<std::uint32_t, Copied> copied_;      // held FormID of each override
  std::unordered_set<std::uint32_t> held_records_;        // held FormIDs of every record (Plugin::find walks the tree)
  std::map<std::uint32_t, std::unique_ptr<LocalizedStrings>> strings_;  // by plugin, on first use
  std::vector<std::string> warnings_;
  std::size_t new_records_ = 0;
  std::uint32_t next_object_id_ = 0x800;
};

}  // namespace tesmod::patch
