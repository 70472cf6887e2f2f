// A field's value as a tree, read through its layout (field_layout.hpp), and back: what a
// program edits instead of bytes or text. decode_field gives the tree of a field the layout
// fits; encode_field gives the bytes of a tree, and of a decoded one exactly the bytes it came
// from. No text is involved: strings are the stored code-page bytes, FormIDs the raw u32 as
// stored (the caller resolves them against the masters), localized strings their string id.
//
// How each member reads (a field is always a struct of its layout's members):
//
//   u8..u64, x8..x64       UInt (uint64)            i8..i64             Int (int64)
//   /Enum                  Enum: label, or number   /Flags              Flags: names + unnamed bits
//   f32                    Float (float, the bits as stored)
//   formid                 FormId (raw u32)         sig                 Sig (Signature)
//   zstring, chars, lstring in a plugin that is not localized, str8..str32, zstr8..zstr32
//                          Text                     lstring (localized) LStringId
//   zstringN               Text with the bytes after its zero (leftover)
//   bytesN, bytes          Bytes                    Struct, tuple       Struct (members by name)
//   [N] [] [#u8] [@count]  List of the elements (counts and prefixes are not in the tree)
//   an optional member the field ends before: None
//
// Encoding also takes what a user would write: an Int or UInt where a float goes, an enum by
// number (Int/UInt) or label (Text), flags by number or as a List of names, a tuple as a List of
// its values in order, a signature as Text of four bytes, and a missing optional member for None.
// Everything else of the wrong kind, out of range or unknown raises tesmod::Error whose detail
// starts with the member's path: "DATA.damage: 70000 does not fit u16".
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tesmod/fields/field_layout.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod::fields {

struct FieldValue;
struct NamedFieldValue;

// Text as stored (the plugin's code page; nothing here converts it).
struct TextValue {
  std::string text;
  // zstringN only: the bytes after the text's zero, up to the last that is not zero (encoding
  // fills the buffer up with zeros); empty for every other string type.
  std::vector<std::uint8_t> leftover;
  friend bool operator==(const TextValue&, const TextValue&) = default;
};

// A localized plugin's string id (an lstring member): the text is in the string tables.
struct LStringId {
  std::uint32_t id = 0;
  friend bool operator==(const LStringId&, const LStringId&) = default;
};

// A FormID as stored: its top byte indexes this plugin's masters (the plugin itself after them).
struct FormIdValue {
  std::uint32_t raw = 0;
  friend bool operator==(const FormIdValue&, const FormIdValue&) = default;
};

// An integer member with an enum. decode_field gives the label when the enum names the value
// (number holds the value too, for reading); encode_field takes the label when there is one and
// then does not look at number. Signed members' numbers are sign-extended.
struct EnumValue {
  std::string label;
  std::uint64_t number = 0;
  friend bool operator==(const EnumValue&, const EnumValue&) = default;
};

// An integer member with a flag set: the labels of the set bits in the table's order, and the
// set bits no label names. The value is every named bit or'ed with unnamed.
struct FlagsValue {
  std::vector<std::string> names;
  std::uint64_t unnamed = 0;
  friend bool operator==(const FlagsValue&, const FlagsValue&) = default;
};

struct FieldValue {
  // The alternatives of data, in order.
  enum class Kind : std::uint8_t { None, Int, UInt, Float, Text, LStringId, FormId, Bytes, Enum, Flags, Sig, List, Struct };
  using None = std::monostate;
  using Bytes = std::vector<std::uint8_t>;
  using List = std::vector<FieldValue>;
  using Struct = std::vector<NamedFieldValue>;  // a struct's members, in layout order
  using Data = std::variant<None, std::int64_t, std::uint64_t, float, TextValue, LStringId, FormIdValue, Bytes, EnumValue,
                            FlagsValue, Signature, List, Struct>;

  Data data;

  // Implicit, so that trees read as they are written: {{"damage", 7}, {"name", "Iron"}}. Signed
  // integer types give Int, unsigned ones UInt; a double is kept as a float (fields hold f32).
  // Defined below NamedFieldValue, which the variant's destructor needs complete.
  FieldValue() = default;
  template <std::integral I>
    requires(!std::same_as<I, bool>)
  FieldValue(I v);                // NOLINT(google-explicit-constructor)
  FieldValue(float v);            // NOLINT(google-explicit-constructor)
  FieldValue(double v);           // NOLINT(google-explicit-constructor)
  FieldValue(const char* text);   // NOLINT(google-explicit-constructor)
  FieldValue(std::string text);   // NOLINT(google-explicit-constructor)
  FieldValue(TextValue v);        // NOLINT(google-explicit-constructor)
  FieldValue(LStringId v);        // NOLINT(google-explicit-constructor)
  FieldValue(FormIdValue v);      // NOLINT(google-explicit-constructor)
  FieldValue(Bytes v);            // NOLINT(google-explicit-constructor)
  FieldValue(EnumValue v);        // NOLINT(google-explicit-constructor)
  FieldValue(FlagsValue v);       // NOLINT(google-explicit-constructor)
  FieldValue(Signature v);        // NOLINT(google-explicit-constructor)
  FieldValue(List v);             // NOLINT(google-explicit-constructor)
  FieldValue(Struct v);           // NOLINT(google-explicit-constructor)

  static FieldValue list(List elements);
  static FieldValue structure(Struct members);
  static FieldValue enumeration(std::string label);
  static FieldValue flags(std::vector<std::string> names, std::uint64_t unnamed = 0);
  static FieldValue form_id(std::uint32_t raw);
  static FieldValue lstring(std::uint32_t id);

  Kind kind() const { return Kind(data.index()); }
  bool is_none() const { return kind() == Kind::None; }
  // "an unsigned integer", "text", "a struct"...: for messages.
  std::string_view kind_name() const;

  // The alternative T; get raises tesmod::Error naming both kinds when the value is another.
  template <class T> const T* get_if() const { return std::get_if<T>(&data); }
  template <class T> T* get_if() { return std::get_if<T>(&data); }
  template <class T> const T& get() const {
    if (const T* v = get_if<T>()) return *v;
    wrong_kind(kind_of<T>());
  }
  template <class T> T& get() {
    if (T* v = get_if<T>()) return *v;
    wrong_kind(kind_of<T>());
  }
  // The Kind of alternative T.
  template <class T> static constexpr Kind kind_of() { return Kind(alternative_index<T>(std::type_identity<Data>())); }

  // A struct's member by name: nullptr when it has none (or this is not a struct).
  const FieldValue* find(std::string_view name) const;
  FieldValue* find(std::string_view name);
  // The same, raising tesmod::Error naming the member when it is missing.
  const FieldValue& operator[](std::string_view name) const;
  FieldValue& operator[](std::string_view name);

  // Floats compare as numbers (a NaN differs from itself): compare encoded bytes for identity.
  friend bool operator==(const FieldValue&, const FieldValue&) = default;

 private:
  template <class T, class... Ts> static constexpr std::size_t alternative_index(std::type_identity<std::variant<Ts...>>) {
    std::size_t i = 0;
    (void)((std::is_same_v<T, Ts> ? false : (++i, true)) && ...);  // stops at T
    return i;
  }
  [[noreturn]] void wrong_kind(Kind wanted) const;
};

struct NamedFieldValue {
  std::string name;
  FieldValue value;
  friend bool operator==(const NamedFieldValue&, const NamedFieldValue&) = default;
};

template <std::integral I>
  requires(!std::same_as<I, bool>)
inline FieldValue::FieldValue(I v) {
  if constexpr (std::is_signed_v<I>) data = std::int64_t(v);
  else data = std::uint64_t(v);
}
inline FieldValue::FieldValue(float v) : data(v) {}
inline FieldValue::FieldValue(double v) : data(float(v)) {}
inline FieldValue::FieldValue(const char* text) : data(TextValue{text, {}}) {}
inline FieldValue::FieldValue(std::string text) : data(TextValue{std::move(text), {}}) {}
inline FieldValue::FieldValue(TextValue v) : data(std::move(v)) {}
inline FieldValue::FieldValue(LStringId v) : data(v) {}
inline FieldValue::FieldValue(FormIdValue v) : data(v) {}
inline FieldValue::FieldValue(Bytes v) : data(std::move(v)) {}
inline FieldValue::FieldValue(EnumValue v) : data(std::move(v)) {}
inline FieldValue::FieldValue(FlagsValue v) : data(std::move(v)) {}
inline FieldValue::FieldValue(Signature v) : data(v) {}
inline FieldValue::FieldValue(List v) : data(std::move(v)) {}
inline FieldValue::FieldValue(Struct v) : data(std::move(v)) {}

inline FieldValue FieldValue::list(List elements) { return FieldValue(std::move(elements)); }
inline FieldValue FieldValue::structure(Struct members) { return FieldValue(std::move(members)); }
inline FieldValue FieldValue::enumeration(std::string label) { return EnumValue{std::move(label), 0}; }
inline FieldValue FieldValue::flags(std::vector<std::string> names, std::uint64_t unnamed) {
  return FlagsValue{std::move(names), unnamed};
}
inline FieldValue FieldValue::form_id(std::uint32_t raw) { return FormIdValue{raw}; }
inline FieldValue FieldValue::lstring(std::uint32_t id) { return LStringId{id}; }

// The value of a field read with layout, a struct of its members (optional members the field
// ends before are None). Raises tesmod::Error, naming the first member that does not read, when
// the bytes do not fit the layout (FieldLayout::fits). field: named in messages when given.
FieldValue decode_field(const FieldLayout& layout, std::span<const std::uint8_t> data, bool localized,
                        Signature field = Signature());

// The bytes of value (a struct of the layout's members, each by name) in the layout: the
// inverse of decode_field, byte for byte. Counts and string lengths are written from the values;
// a `[@count]` array must hold as many elements as its count member says. Raises tesmod::Error
// naming the member's path (field.member[index].member) and what is wrong.
std::vector<std::uint8_t> encode_field(const FieldLayout& layout, const FieldValue& value, bool localized,
                                       Signature field = Signature());

}  // namespace tesmod::fields
