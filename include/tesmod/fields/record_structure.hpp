// Record structures: which fields a record type holds, in the order the game's editor writes
// them, which of them are required, which repeat, and which repeat together as a group (a
// leveled list entry and its extra data, a condition and its parameter strings, a quest stage
// and its log entries). They come from the `record` lines of the layout tables
// (src/fields/layouts/<game>.layouts) and are what the structure checks of `tesmod check`
// compare each record with (record_check.hpp).
//
// A structure is a flat list of elements in written order; groups are ranges of it. The lookups
// the checks make for every field of every record are flat tables: record type to structure,
// field type to its elements.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/plugin/signature.hpp"

namespace tesmod::fields {

// One field of a structure (`LVLD!`, `CTDA*`). `A|B` (either field in one place) is several
// elements side by side that share a slot.
struct StructureElement {
  Signature field;
  std::uint16_t slot = 0;        // the first element of its `A|B`: required fields are counted by slot
  std::uint16_t group = 0;       // the innermost group holding it: an index into groups (0: the record itself)
  std::uint16_t next_same = 0;   // the next element of the same field type; kNone when none
  bool required = false;         // `!` or `+`: the record (or each instance of its group) holds it
  bool repeats = false;          // `*` or `+`: it may stand several times in a row
  static constexpr std::uint16_t kNone = 0xFFFF;
};

// `( ... )`: fields that stand together, opened by the first (which starts each instance).
struct StructureGroup {
  std::uint16_t first = 0;   // its first element (the opener)
  std::uint16_t end = 0;     // one past its last element
  std::uint16_t parent = 0;  // the group holding it (0: the record itself)
  bool repeats = false;      // `)*` or `)+`
  bool required = false;     // `)!` or `)+`: its parent holds at least one instance
};

struct RecordStructure {
  Signature record_type;
  bool ordered = false;  // `ordered`: fields out of the written order are reported (`unordered`: only which fields)
  std::vector<StructureElement> elements;
  // groups[0] is the record itself (first 0, end the element count); nested groups follow.
  std::vector<StructureGroup> groups;
  // Per group: the slots an instance of it must hold (its required elements, and the openers of
  // its required inner groups), for the missing-field check when the instance ends.
  std::vector<std::vector<std::uint16_t>> required_slots;
  std::uint32_t table_line = 0;

  // The first element of this field type, or StructureElement::kNone; next_same chains the rest
  // (in written order). Inline: it runs for every field of every checked record.
  std::uint16_t first_of(Signature field) const {
    const std::size_t mask = lookup.size() - 1;
    for (std::size_t at = hash(field) & mask;; at = (at + 1) & mask) {
      if (lookup[at].element == StructureElement::kNone) return StructureElement::kNone;
      if (lookup[at].field == field) return lookup[at].element;
    }
  }

  // Open addressing over the distinct field types (a power of two, at least twice their number).
  struct Slot {
    Signature field;
    std::uint16_t element = StructureElement::kNone;
  };
  std::vector<Slot> lookup;
  static std::size_t hash(Signature s) { return std::size_t((std::uint64_t(s.value()) * 0x9E3779B97F4A7C15ull) >> 40); }
};

// A structure's elements may number at most this many (the checks keep one bit per element).
inline constexpr std::size_t kMaxStructureElements = 256;

// The record structures of one table, by record type.
class RecordStructures {
 public:
  // nullptr when the table has no `record` line for this record type. Inline: it runs for every record.
  const RecordStructure* find(Signature record_type) const {
    if (slots_.empty()) return nullptr;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t at = RecordStructure::hash(record_type) & mask;; at = (at + 1) & mask) {
      if (!slots_[at]) return nullptr;
      if (slots_[at]->record_type == record_type) return slots_[at];
    }
  }
  std::size_t size() const { return structures_.size(); }
  const std::deque<RecordStructure>& all() const { return structures_; }

  // Reads the words of a `record` line after `record` (RECORDS ordered|unordered ELEMENT...), one
  // structure per record type listed. Returns an error message, or an empty string.
  std::string add(std::span<const std::string_view> words, std::uint32_t table_line);
  // Builds the lookup once every line is read.
  void finish();

 private:
  std::deque<RecordStructure> structures_;
  std::vector<const RecordStructure*> slots_;
};

}  // namespace tesmod::fields
