// Field layouts: how the bytes of a field (subrecord) of a given record type read as named
// values. The text layer shows fields by them (`DATA value=25 weight=9.0` instead of hex); the
// load-order checks find the FormIDs in records by them, and the record types a FormID may name
// (`race:formid/RACE`). The tables live in src/fields/layouts/<game>.layouts (the language is
// described at the top of those files); a layout is used only when the field's bytes read as it
// exactly, so a missing or mismatched layout costs readability, never bytes.
//
// A layout may hold structs, counted arrays and length-prefixed strings (its size then depends
// on the bytes, and measure_layout() walks them), fixed member values (`type:u32=0`: unions
// inside a field), and conditions that choose among the layouts of one field by the record
// around it (the EditorID's first letters, the field before it, the section it is in, a member
// of an earlier field, the type of the record a FormID names). The table also names the record
// header's flags per record type.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tesmod/io/little_endian.hpp"
#include "tesmod/fields/record_structure.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod::fields {

enum class ValueType : std::uint8_t {
  U8, U16, U32, U64, I8, I16, I32, I64,  // decimal
  X8, X16, X32, X64,                     // unsigned, in hex
  F32,
  FormId,
  ZString,  // zero-terminated, the rest of the field
  LString,  // ZString, or a u32 string id in a localized plugin; the only member
  Chars,    // text without terminator, the rest of the field
  Sig,      // four characters
  Bytes,    // raw bytes: `bytesN` (N of them) or `bytes` (the rest of the field)
  Str8, Str16, Str32,     // a length of 1/2/4 bytes, then the text (no terminator)
  ZStr8, ZStr16, ZStr32,  // the same, the length counting a final zero byte that must be there
  ZBuffer,  // `zstringN`: N bytes holding a zero-ended string, then leftover bytes (kept as they are)
  Struct,                 // members of a `struct` line
};

struct StructLayout;

// An enumeration or a flag set: values (flag bits) with their labels, in table order.
struct ValueNames {
  std::string name;
  bool is_flags = false;
  std::vector<std::pair<std::uint64_t, std::string>> entries;
  // `enum Name complete` / `flags Name complete`: the entries are every value (bit) the game
  // knows, so record_check.hpp reports others (most sets name only the values seen so far).
  bool complete = false;

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
  std::uint32_t byte_count = 0;       // bytesN, zstringN: N
  std::vector<Signature> form_types;  // formid only: the record types it may name (`formid/RACE|NPC_`); empty: any
  const StructLayout* structure = nullptr;   // Struct: its members
  std::uint8_t count_prefix = 0;             // `[#u8]` 1, `[#u16]` 2, `[#u32]` 4: the element count stored before
  // `[@count]`, `[@rows*columns]`: the element count is the value of an earlier integer member of
  // the same sequence (a layout's or a struct's members), or the product of two; their indices.
  std::int16_t count_member = -1;
  std::int16_t count_member2 = -1;
  std::optional<std::uint64_t> fixed_value;  // `name:type=VALUE`: the layout fits only this value
  bool optional = false;  // `name:type?` (a field's members only): the field may end before it

  // Bytes of one element; 0 when the member takes the rest of the field or its size depends on
  // the bytes (prefixed strings, structs holding them, a zstring not at the end). Inline: it runs
  // for every element written.
  std::uint32_t element_size() const;
  // Whether its size is read from the bytes (counted arrays, prefixed or inner strings, such structs).
  bool variable() const;
  bool is_string() const;
  // Whether every element is element_size() bytes whatever they hold (no fixed value to check).
  bool plain_elements() const;
};

struct StructLayout {
  std::string name;
  std::vector<LayoutMember> members;
  std::uint32_t size = 0;  // bytes, when none of its members is variable; else 0
  bool plain = false;      // of that size whatever the bytes: no fixed values inside (read without a walk)
  bool positional = false;  // `tuple`: written `(1 2 3)`, its values in member order without names
  bool checks_values = false;  // as FieldLayout::checks_values, for its members
};

inline std::uint32_t LayoutMember::element_size() const {
  // Indexed by ValueType: a table, not a switch, so that it inlines into the per-element loops;
  // static, or the table is built on the stack at each call.
  static constexpr std::uint8_t kScalarSize[] = {1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 4, 4, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  static_assert(std::size(kScalarSize) == std::size_t(ValueType::Struct) + 1);
  if (type == ValueType::Bytes || type == ValueType::ZBuffer) return byte_count;
  if (type == ValueType::Struct) return structure ? structure->size : 0;
  return kScalarSize[std::size_t(type)];
}

// A rule that must hold for a layout (or a header flag set) to be chosen.
struct LayoutCondition {
  enum class Kind : std::uint8_t {
    EditorIdPrefix,  // edid^=TEXT
    Previous,        // prev=SIG|SIG
    Section,         // in=SIG|SIG (in=- : before any section field)
    FieldMember,     // FIELD.member=VALUE or FIELD.member&VALUE
    RefersTo,        // member->TYPE|TYPE (header flags: NAME->TYPE, the field NAME)
    FormVersion,     // version<N or version>=N: the record's form version (text readers skip it)
  };
  Kind kind = Kind::Previous;
  std::string text;              // EditorIdPrefix: the prefix; FieldMember/RefersTo: the member
  std::vector<Signature> types;  // Previous/Section/RefersTo: the signatures (Section: 0 for '-')
  Signature field;               // FieldMember: the earlier field; RefersTo on header flags: the field
  std::uint64_t value = 0;       // FieldMember; FormVersion: N
  bool all_bits = false;         // FieldMember: `&` (all these bits) rather than `=`; FormVersion: `<`
};

struct FieldLayout {
  std::vector<LayoutMember> members;
  std::vector<LayoutCondition> conditions;
  std::uint32_t fixed_size = 0;  // bytes of every member but an open last one (simple layouts)
  std::uint32_t table_line = 0;  // where it is defined, for messages
  bool simple = true;            // no member is variable or has a fixed value: fixed_size says it all
  bool raw = false;              // every member is raw bytes: the text is hex by another name
  // Some member (inside structs too) is a float or names its values with a complete set: what
  // check_field_values (record_check.hpp) looks at; it passes over the other layouts at once.
  bool checks_values = false;

  bool single() const { return members.size() == 1; }
  // Whether a field of this size can be read with the layout (strings are checked when read).
  // For a layout that is not simple, only a lower bound: measure_layout() decides.
  bool fits_size(std::size_t size) const;
  // Whether the bytes read as the layout exactly: sizes, strings what their type says (a zstring
  // ends with a zero byte; an lstring is a 4-byte id in a localized plugin), counts, fixed values.
  // Conditions are not looked at here (LayoutTable::choose does).
  bool fits(std::span<const std::uint8_t> data, bool localized) const;
};

// The bytes a member takes at the start of data (which runs to the end of the field), or nullopt
// when they do not read as the member. `last`: it is the field's last member (open members take
// the rest). siblings: the values of the earlier integer members of its sequence, by index (for
// `[@count]` arrays).
std::optional<std::size_t> measure_member(const LayoutMember& m, std::span<const std::uint8_t> data, bool last,
                                          bool localized, std::span<const std::uint64_t> siblings = {});
// Walks a sequence of members (a layout's or a struct's) over data, giving each member's bytes to
// on(index, bytes) in order. Returns the bytes taken, or nullopt when data does not read as the
// sequence. field_end: the sequence ends the field, so its last member may take the rest, and it
// may end before an optional member (`name:type?`), leaving it and the members after it out.
std::optional<std::size_t> walk_members(std::span<const LayoutMember> members, std::span<const std::uint8_t> data,
                                        bool field_end, bool localized,
                                        const std::function<void(std::size_t, std::span<const std::uint8_t>)>& on = {});
// The values of a sequence's integer members by position, for the `[@count]` arrays after them:
// on the stack for sequences of up to 32 members (nearly all), else on the heap.
class MemberIntegers {
 public:
  explicit MemberIntegers(std::size_t members) {
    if (members > std::size(small_)) {
      large_.assign(members, 0);
      values_ = large_;
    } else {
      // Only the sequence's own: a struct of one member is measured for every array element.
      std::fill_n(small_, members, 0);
      values_ = std::span<std::uint64_t>(small_, members);
    }
  }
  MemberIntegers(const MemberIntegers&) = delete;  // values_ may point into small_
  MemberIntegers& operator=(const MemberIntegers&) = delete;
  std::span<std::uint64_t> values() { return values_; }

 private:
  std::uint64_t small_[32];
  std::vector<std::uint64_t> large_;
  std::span<std::uint64_t> values_;
};
// The element count of a `[@count]` member from its siblings' values.
std::uint64_t counted_by(const LayoutMember& m, std::span<const std::uint64_t> siblings);
// Whether a member holds one integer (a sibling count may name it).
bool is_integer_scalar(const LayoutMember& m);
// Integer types with a sign (i8..i64).
inline bool is_signed_integer(ValueType t) {
  return t == ValueType::I8 || t == ValueType::I16 || t == ValueType::I32 || t == ValueType::I64;
}
// The size of a length-prefixed string's length (str8/zstr8 1, str16/zstr16 2, str32/zstr32 4);
// 0 for every other type.
inline std::uint32_t string_prefix_size(ValueType t) {
  switch (t) {
    case ValueType::Str8: case ValueType::ZStr8: return 1;
    case ValueType::Str16: case ValueType::ZStr16: return 2;
    case ValueType::Str32: case ValueType::ZStr32: return 4;
    default: return 0;
  }
}
// Whether a length-prefixed string type counts a terminating zero in its length (zstr8..zstr32).
inline bool is_zero_ended_string(ValueType t) {
  return t == ValueType::ZStr8 || t == ValueType::ZStr16 || t == ValueType::ZStr32;
}
// The bytes one element of a member takes at the start of data (an array's element; the member
// itself when it is not an array), for members that do not take the rest of the field.
std::optional<std::size_t> measure_element(const LayoutMember& m, std::span<const std::uint8_t> data, bool localized);
// The integer a member of integer type holds at p (sign-extended for signed types).
inline std::uint64_t load_member_integer(const LayoutMember& m, const std::uint8_t* p) {
  // Inline: it runs for every integer of the long arrays (navmeshes, landscapes).
  const bool sign = is_signed_integer(m.type);
  switch (m.element_size()) {
    case 1: return sign ? std::uint64_t(std::int64_t(std::int8_t(p[0]))) : p[0];
    case 2: return sign ? std::uint64_t(std::int64_t(le::load<std::int16_t>(p))) : le::u16(p);
    case 4: return sign ? std::uint64_t(std::int64_t(le::i32(p))) : le::u32(p);
    default: return le::load<std::uint64_t>(p);
  }
}

// Calls visit(offset, member) for every FormID element in data read with layout (which fits it):
// formid members, their array elements, and those inside structs.
void for_each_form_id(const FieldLayout& layout, std::span<const std::uint8_t> data, bool localized,
                      const std::function<void(std::size_t offset, const LayoutMember& member)>& visit);

// A field of a record, as conditions look at the fields before the one being read.
struct FieldRef {
  Signature type;
  std::span<const std::uint8_t> data;
};

// The first EDID among the fields, up to its zero byte (empty when there is none).
std::string_view editor_id_of(std::span<const FieldRef> fields);

// The record around a field, for the layouts' conditions: its type, the fields before this one
// (in order; the EDID among them), and what record a FormID names when that is known.
struct FieldSite {
  Signature record_type;
  std::uint16_t form_version = 0;  // the record header's (0 in Oblivion, and where not known)
  std::span<const FieldRef> earlier;
  bool localized = false;
  // The record type of a FormID as stored in this plugin; nullopt when not at hand. May be empty.
  std::function<std::optional<Signature>(std::uint32_t form_id)> record_type_of;
  // Text readers cannot see the record a FormID names before resolving the layout: they skip
  // RefersTo conditions (the member names tell the alternatives apart).
  bool reading_text = false;
};

class LayoutTable {
 public:
  // Reads a table; raises tesmod::Error naming `name:line` and what was expected.
  static LayoutTable parse(std::string_view source, std::string_view name);

  // The layouts to try for a field of this record type: the record type's own, then the ones
  // for any record type ('*'), in table order.
  std::span<const FieldLayout* const> find(Signature record_type, Signature field) const;
  // The first of find()'s layouts whose conditions hold at the site and that fits the data, if any.
  const FieldLayout* choose(Signature field, std::span<const std::uint8_t> data, const FieldSite& site) const;
  // The same, with no record around: layouts with conditions are passed over.
  const FieldLayout* choose(Signature record_type, Signature field, std::span<const std::uint8_t> data,
                            bool localized) const;
  // Whether the layout's conditions hold for a field with these bytes at the site.
  bool applies(const FieldLayout& layout, std::span<const std::uint8_t> data, const FieldSite& site) const;
  // Whether any layout of this record type (or of any record type) has conditions: callers build
  // a FieldSite only then.
  bool has_conditions(Signature record_type) const;

  // The names of a record header's flags for this record type (`header` lines): the first set
  // whose conditions hold (site: the record's fields), else the default (`header *`). nullptr
  // when the table names none.
  const ValueNames* header_flags(Signature record_type, const FieldSite* site = nullptr) const;
  // Every set that may name this record type's header flags (for reading text, which meets the
  // flags before the fields that choose among them; a label means one bit in all of them).
  std::span<const ValueNames* const> header_flag_sets(Signature record_type) const;
  // Whether the record's fields choose among this record type's header flag sets (`if NAME->...`):
  // callers give header_flags() a site only then.
  bool header_flags_depend_on_fields(Signature record_type) const {
    const auto it = header_flags_.find(record_type.value());
    return it != header_flags_.end() &&
           std::any_of(it->second.begin(), it->second.end(), [](const HeaderFlags& h) { return !h.conditions.empty(); });
  }
  // Whether `header` lines name this record type itself (Signature(): whether there is a `header *`).
  bool has_header_flags(Signature record_type) const { return header_flag_sets_.count(record_type.value()) != 0; }

  const ValueNames* names(std::string_view name) const;
  const StructLayout* structure(std::string_view name) const;
  std::size_t layout_count() const { return layouts_.size(); }

  // The fields a record type holds and their order (`record` lines; record_structure.hpp), or
  // nullptr when the table does not say.
  const RecordStructure* record_structure(Signature record_type) const { return record_structures_.find(record_type); }
  const RecordStructures& record_structures() const { return record_structures_; }

 private:
  static std::uint64_t key(Signature record_type, Signature field) {
    return std::uint64_t(record_type.value()) << 32 | field.value();
  }
  std::span<const FieldLayout* const> lookup(std::uint64_t key) const;
  friend class LayoutTableParser;
  std::optional<std::uint64_t> member_value(Signature record_type, const FieldRef& field, std::span<const FieldRef> before,
                                            std::string_view member, const FieldSite& site) const;
  std::deque<ValueNames> names_;
  std::deque<StructLayout> structs_;
  std::deque<FieldLayout> layouts_;
  struct HeaderFlags {
    std::vector<LayoutCondition> conditions;
    const ValueNames* names = nullptr;
  };
  std::unordered_map<std::uint32_t, std::vector<HeaderFlags>> header_flags_;  // record type (0: '*')
  std::unordered_map<std::uint32_t, std::vector<const ValueNames*>> header_flag_sets_;
  std::unordered_map<std::uint32_t, std::vector<Signature>> sections_;  // record type: fields opening a section
  std::vector<std::uint32_t> conditional_types_;  // record types with conditional layouts (0: some '*' one)
  std::unordered_map<std::uint64_t, std::vector<const FieldLayout*>> by_key_;  // record type 0: '*'
  // by_key_ as an open-addressing table: find() runs for every field of every record.
  struct Slot {
    std::uint64_t key = 0;  // 0: empty (no record type and field are both 0)
    const std::vector<const FieldLayout*>* layouts = nullptr;
  };
  std::vector<Slot> slots_;
  RecordStructures record_structures_;  // `record` lines
};

// The built-in table of a game (Skyrim LE and SE share one), read on first use.
const LayoutTable& layout_table(Game game);

}  // namespace tesmod::fields
