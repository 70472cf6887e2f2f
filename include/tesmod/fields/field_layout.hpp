// Field layouts: how the bytes of a field (subrecord) of a given record type read as named
// values. The text layer shows fields by them (`DATA value=25 weight=9.0` instead of hex); the
// load-order checks find the FormIDs in records by them, and the record types a FormID may name
// (`race:formid/RACE`). The tables live in src/fields/layouts/<game>.layouts (format described
// there and in tools/gen/check_layouts.py); a layout is used only when a field's size fits it, so
// a missing or mismatched layout costs readability, never bytes.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod::fields {

enum class ValueType : std::uint8_t {
  U8, U16, U32, U64, I8, I16, I32, I64,  // decimal
  X8, X16, X32,                          // unsigned, in hex
  F32,
  FormId,
  ZString,  // zero-terminated, the rest of the field
  LString,  // ZString, or a u32 string id in a localized plugin; the only member
  Chars,    // text without terminator, the rest of the field
  Sig,      // four characters
  Bytes,    // raw bytes: `bytesN` (N of them) or `bytes` (the rest of the field)
};

// An enumeration or a flag set: values (flag bits) with their labels, in table order.
struct ValueNames {
  std::string name;
  bool is_flags = false;
  std::vector<std::pair<std::uint64_t, std::string>> entries;

  std::optional<std::string_view> label(std::uint64_t value) const;
  // Case-insensitive.
  std::optional<std::uint64_t> value(std::string_view label) const;
};

struct LayoutMember {
  std::string name;
  ValueType type = ValueType::U32;
  const ValueNames* names = nullptr;  // integers only
  std::uint32_t count = 1;            // elements; fixed arrays `[N]`
  bool array = false;                 // written as an array (`[]` or `[N]`)
  bool open = false;                  // `[]`, `bytes`, strings: takes the rest of the field
  std::uint32_t byte_count = 0;       // bytesN: N
  std::vector<Signature> form_types;  // formid only: the record types it may name (`formid/RACE|NPC_`); empty: any

  // Bytes of one element; 0 when the member takes the rest of the field.
  std::uint32_t element_size() const;
};

struct FieldLayout {
  std::vector<LayoutMember> members;
  std::uint32_t fixed_size = 0;  // bytes of every member but an open last one
  std::uint32_t table_line = 0;  // where it is defined, for messages

  bool single() const { return members.size() == 1; }
  // Whether a field of this size can be read with the layout (strings are checked when read).
  bool fits_size(std::size_t size) const;
  // fits_size, and the string the layout ends with is what its type says (a zstring ends with a
  // zero byte; an lstring is a 4-byte id in a localized plugin).
  bool fits(std::span<const std::uint8_t> data, bool localized) const;
};

class LayoutTable {
 public:
  // Reads a table; raises tesmod::Error naming `name:line` and what was expected.
  static LayoutTable parse(std::string_view source, std::string_view name);

  // The layouts to try for a field of this record type: the record type's own, then the ones
  // for any record type ('*'), in table order.
  std::span<const FieldLayout* const> find(Signature record_type, Signature field) const;
  // The first of find()'s layouts that fits the data, if any.
  const FieldLayout* choose(Signature record_type, Signature field, std::span<const std::uint8_t> data,
                            bool localized) const;
  const ValueNames* names(std::string_view name) const;
  std::size_t layout_count() const { return layouts_.size(); }

 private:
  static std::uint64_t key(Signature record_type, Signature field) {
    return std::uint64_t(record_type.value()) << 32 | field.value();
  }
  std::span<const FieldLayout* const> lookup(std::uint64_t key) const;
  std::deque<ValueNames> names_;
  std::deque<FieldLayout> layouts_;
  std::unordered_map<std::uint64_t, std::vector<const FieldLayout*>> by_key_;  // record type 0: '*'
  // by_key_ as an open-addressing table: find() runs for every field of every record.
  struct Slot {
    std::uint64_t key = 0;  // 0: empty (no record type and field are both 0)
    const std::vector<const FieldLayout*>* layouts = nullptr;
  };
  std::vector<Slot> slots_;
};

// The built-in table of a game (Skyrim LE and SE share one), read on first use.
const LayoutTable& layout_table(Game game);

}  // namespace tesmod::fields
