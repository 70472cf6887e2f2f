// The lists the list-like Bash Tags merge (private to src/patch): which record types and fields
// hold them, how one record's entries read (each with its key: the form it is about) and how a
// merged list is written back in place of the old one. Entries are compared by value with their
// FormIDs known as forms, so that plugins with different master lists agree on what is the same.
//
//   family      tags (add / change / remove)                 types                   entry field
//   inventory   Invent.Add / Invent.Change / Invent.Remove   CONT NPC_ CREA (TES4),  CNTO (+ COED, COCT)
//                                                            CONT NPC_ COBJ (TES5)
//   outfits     Outfits.Add / - / Outfits.Remove             OTFT (TES5)             INAM, one FormID each
//   relations   Relations.Add / .Change / .Remove            FACT                    XNAM
//   factions    Actors.Factions (all three)                  NPC_ CREA (TES4), NPC_  SNAM
//   spells      Actors.Spells / - / Actors.Spells            NPC_ CREA (TES4), NPC_  SPLO (+ SPCT)
//   perks       NPC.Perks.Add / .Change / .Remove            NPC_ (TES5)             PRKR (+ PRKZ)
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/loadorder/resolved_record.hpp"
#include "tesmod/patch/leveled_list.hpp"

namespace tesmod::patch {

// The order Wrye Bash writes a list in (its patch re-sorts every list it writes).
enum class EntryOrder : std::uint8_t {
  Key,             // by the key form (factions, relations, perks, Skyrim spells, outfits)
  Items,           // item, count, then the COED's condition, owner and global
  OblivionSpells,  // by the spell, then leveled spells after the others (as the Construction Set does)
};

struct ListFamily {
  std::string_view noun;    // one entry: "item", "faction" ...
  std::string_view nouns;   // several
  std::string_view add_tag, change_tag, remove_tag;  // empty: the family has no such tag
  std::vector<Signature> types;
  Signature entry;          // the field of one entry (OTFT INAM: an array of entries)
  Signature counter;        // the count before the entries (COCT, SPCT, PRKZ); none: Signature()
  Signature companion;      // a field that belongs to the entry before it (Skyrim's COED)
  bool array = false;       // every 4 bytes of the entry field are one entry (a FormID)
  EntryOrder order = EntryOrder::Key;

  bool has_tag(std::string_view tag) const { return tag == add_tag || tag == change_tag || tag == remove_tag; }
  // The family's tags, each once, in the order add, change, remove.
  std::vector<std::string_view> tags() const;
};

// The list-like families of a game.
const std::vector<ListFamily>& list_families(Game game);

struct ListEntry {
  std::optional<loadorder::FormKey> key;  // none: the entry's FormID is 0
  std::vector<loadorder::ResolvedField> parts;  // the entry's field, then its COED
  std::string value;  // the parts' bytes with their forms, FormIDs left out: equal values are equal entries
};

struct EntryBlock {
  std::vector<ListEntry> entries;
  std::vector<std::size_t> fields;  // the record's fields holding the list (counter included), ascending
};

// What reading entries asks the load order.
struct EntryContext {
  const loadorder::LoadOrder& order;
  const FormTypeLookup& type_of;
};

// The family's entries among a record's fields. A COED's second value names a global only when its
// owner is an NPC_; the field layouts cannot tell without the load order, so the global is
// resolved here (else it would be written under the wrong master list).
EntryBlock read_entries(const ListFamily& family, std::span<const loadorder::ResolvedField> fields,
                        const EntryContext& context);

// Equal multisets of entries (order aside).
bool same_entries(std::span<const ListEntry> a, std::span<const ListEntry> b);

// Sorts entries as Wrye Bash writes the family's list (stable: equal keys keep their order).
void sort_entries(const ListFamily& family, std::vector<ListEntry>& entries, const EntryContext& context);

// Where the list goes in `fields`, which have none: after the field that comes before the list in
// `model` (a record that has one, as the Creation Kit or Construction Set wrote it), or the last
// field before that which `fields` has; the end when none.
std::size_t list_insertion_point(const ListFamily& family, std::span<const loadorder::ResolvedField> fields,
                                 std::span<const loadorder::ResolvedField> model);

// Replaces the list in `fields` (read as `old`) with `entries`: at the old list's place (or at
// `insert_at` when there was none), the counter first (left out when the list is empty).
void write_entries(const ListFamily& family, std::vector<loadorder::ResolvedField>& fields, const EntryBlock& old,
                   std::span<const ListEntry> entries, std::size_t insert_at, std::uint32_t source);

// "Skyrim.esm:012EB7 x3", "Mod.esp:000D62 rank 2": an entry for the report.
std::string describe_entry(const ListFamily& family, const ListEntry& entry, const loadorder::LoadOrder& order);

}  // namespace tesmod::patch
