// The stricter checks of `tesmod check`: whether a record's fields are the ones its type holds,
// in an order the game reads, and whether each field's bytes fit its layout. The knowledge is
// data: the `record` lines of the layout tables (record_structure.hpp) and the field layouts
// (field_layout.hpp). Keys, as `tesmod check --json` writes them:
//
//   unexpected_field  a field the record type does not hold in this game (an Oblivion LVLI with
//                     Skyrim's OBND or LLCT)
//   field_order       a field out of the order the game reads, in a record type whose `record`
//                     line says `ordered` (a leveled entry's COED before its LVLO, LVLF before
//                     LVLD), or a field that stands once given twice
//   missing_field     a field the record type requires and the record lacks (LVLD in a leveled
//                     list, EDID where the game needs one), or a group instance lacking one of
//                     its required fields
//   bad_size          a field whose size fits none of the layouts that apply to it
//   bad_value         a float that is NaN, or an integer the layout names with a set marked
//                     `complete` holding a value (a flag bit) the set does not name
//
// Record types without a `record` line, fields without layouts, and sets not marked complete are
// not checked: a finding must be a real fault. Deleted records are not structure-checked (the
// caller passes over them: they keep no fields, or only an EditorID).
//
// Speed: these run for every record of a plugin. The structure check and the value check make no
// heap allocation and format no text unless there is a finding; the size check runs only for a
// field none of whose layouts fit (rare).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/fields/field_layout.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod::fields {

struct RecordFinding {
  std::string_view check;  // "unexpected_field", "field_order", "missing_field", "bad_size", "bad_value"
  std::size_t field_index = SIZE_MAX;  // the field's index in the record; SIZE_MAX when about the record as a whole
  Signature field;                     // the field (missing_field: the one missing)
  std::string message;                 // "OBND is not a field of LVLI in Oblivion"
};

inline constexpr std::string_view kUnexpectedField = "unexpected_field";
inline constexpr std::string_view kFieldOrder = "field_order";
inline constexpr std::string_view kMissingField = "missing_field";
inline constexpr std::string_view kBadSize = "bad_size";
inline constexpr std::string_view kBadValue = "bad_value";

// The structure check one field at a time, for callers that walk a record's fields anyway:
// field() for each in stored order, then finish(). XXXX size prefixes are passed over.
class RecordStructureCheck {
 public:
  // The record type's structure in the game's table; inactive (nothing checked) when it has none.
  RecordStructureCheck(Game game, Signature record_type);
  // The same against a given table; game_name names the game in messages ("Oblivion").
  RecordStructureCheck(const LayoutTable& table, std::string_view game_name, Signature record_type);

  // Whether the record type has a structure (else field() and finish() do nothing).
  bool active() const { return structure_ != nullptr; }
  void field(std::size_t index, Signature field, std::vector<RecordFinding>& out);
  void finish(std::vector<RecordFinding>& out);

 private:
  struct Bits {  // one bit per structure element (slot)
    std::uint64_t words[kMaxStructureElements / 64] = {};
    bool test(std::size_t i) const { return words[i >> 6] >> (i & 63) & 1; }
    void set(std::size_t i) { words[i >> 6] |= std::uint64_t(1) << (i & 63); }
    void clear(std::size_t from, std::size_t to);
  };
  static constexpr std::size_t kMaxDepth = 8;  // groups open at once (the tables nest two deep)

  void open_group(std::uint16_t group, std::size_t index);
  void close_group(std::uint16_t group, std::vector<RecordFinding>& out);
  void report_order(std::size_t index, Signature field, std::uint16_t first, std::vector<RecordFinding>& out) const;

  const RecordStructure* structure_ = nullptr;
  std::string_view game_name_;
  std::int32_t position_ = -1;  // the element the last field matched (-1: none yet)
  Bits seen_;                   // slots seen (in a group: since its instance opened)
  std::uint16_t open_[kMaxDepth] = {};           // groups whose instance is open, innermost last (open_[0] = 0)
  std::size_t opener_index_[kMaxDepth] = {};     // the field index that opened each
  std::size_t depth_ = 1;
  Signature last_field_;
  bool any_field_ = false;
};

// Structure: a record's field types in stored order.
void check_record_structure(Game game, Signature record_type, std::span<const Signature> fields,
                            std::vector<RecordFinding>& out);
void check_record_structure(const LayoutTable& table, std::string_view game_name, Signature record_type,
                            std::span<const Signature> fields, std::vector<RecordFinding>& out);

// bad_value: one field read with its chosen layout (non-null, as LayoutTable::choose returned it,
// so the bytes fit it).
void check_field_values(const FieldLayout& layout, std::span<const std::uint8_t> data, bool localized,
                        std::size_t field_index, Signature field, std::vector<RecordFinding>& out);

// bad_size: a field for which choose() returned nullptr. A finding only when the table has
// layouts for this field of this record type whose conditions hold at the site (conditions on
// the type a FormID names, and on the form version, are taken to hold: any of those layouts may
// be meant), each of a size that does not depend on the bytes' content, and the field's size
// fits none of them. Layouts of strings, counted arrays and the like fail on content, not size:
// no finding.
std::optional<RecordFinding> check_field_size(const LayoutTable& table, Signature record_type, Signature field,
                                              std::span<const std::uint8_t> data, const FieldSite& site,
                                              std::size_t field_index);

}  // namespace tesmod::fields
