// Leveled lists as the patch merges them: Oblivion LVLC, LVLI, LVSP; Skyrim LVLI, LVLN, LVSP.
// One version of a list reads as its chance none (LVLD), flags (LVLF), the fields merged whole
// (Skyrim's global LVLG and LVLN's model; Oblivion LVLC's script and creature template) and its
// entries (LVLO, with Skyrim's COED), every FormID as the form it names across the load order.
// Oblivion's old encoding of "calculate from all levels" (LVLD of 128 or more) reads as the
// chance less 128 and flag 0x01, as the game and the tools read it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tesmod/loadorder/resolved_record.hpp"

namespace tesmod::patch {

using loadorder::FormKey;

struct LeveledCoed {
  std::optional<FormKey> owner;       // none when 0
  std::optional<FormKey> global;      // the second value names a global (the owner is no faction)
  std::uint32_t rank_or_raw = 0;      // the second value as stored when it names no form
  float condition = 0;

  bool same_as(const LeveledCoed& o) const;
};

struct LeveledEntry {
  std::int32_t level = 0;
  std::optional<FormKey> form;  // none when the entry's FormID is 0
  std::int32_t count = 1;
  std::optional<LeveledCoed> coed;
  std::uint8_t unused[4] = {};  // the LVLO's padding as stored (written back as read)

  bool same_as(const LeveledEntry& o) const;  // level, form, count and COED
};

// A field merged whole (or none): LVLG, the model, SCRI, TNAM.
struct ListAttribute {
  std::string_view name;  // "global", "model", "script", "template"
  std::vector<loadorder::ResolvedField> fields;  // empty: the version has none
  bool same_as(const ListAttribute& o) const;
};

struct LeveledList {
  loadorder::ResolvedRecord record;  // the version read (its other fields: EDID, OBND ...)
  std::uint8_t chance_none = 0;
  std::uint8_t flags = 0;
  std::vector<ListAttribute> attributes;  // the list type's attributes, in a fixed order
  std::vector<LeveledEntry> entries;

  Signature type() const { return record.header.type; }
  const FormKey& form() const { return record.form; }
};

// The leveled list types of a game.
std::span<const Signature> leveled_list_types(Game game);

// The record type of a form across the load order (nullopt: no plugin has it).
using FormTypeLookup = std::function<std::optional<Signature>(const FormKey&)>;

// The record types a list of this type holds as entries (itself among them).
std::span<const Signature> entry_types(Game game, Signature list_type);

// Reads a version. Throws tesmod::Error (naming the record) for an LVLO or COED of the wrong size.
// A COED's second value names a global unless its owner is a faction (then it is a rank).
LeveledList read_leveled_list(loadorder::ResolvedRecord record, Game game, const loadorder::LoadOrder& order);

// The fields of a list as the patch writes it: the frame's fields that are not merged (EDID,
// OBND ...) with the merged ones in the game's order; LVLD/LVLF/LLCT always written.
std::vector<loadorder::ResolvedField> leveled_list_fields(const LeveledList& list, Game game);

// The order the patch writes entries in: level, then form (in load order, which is the patch's
// master order), count, then the COED's condition, owner and global (none last).
bool entry_write_order(const LeveledEntry& a, const LeveledEntry& b);

}  // namespace tesmod::patch
