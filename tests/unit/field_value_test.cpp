// Field values read through a layout and written back (fields/field_value.hpp): every value type
// and member feature on a table written here, the convenient forms encoding takes, the errors
// naming the member's path, and every layout-typed field of the corpus decoded and encoded back
// byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>
#include <unordered_map>

#include "tesmod/error.hpp"
#include "tesmod/fields/field_layout.hpp"
#include "tesmod/fields/field_value.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "test_support.hpp"

namespace tesmod::fields {
namespace {

constexpr std::string_view kTable = R"(
enum Kind
  0 Zero
  1 One
  -1 None
flags Bits
  0x1 A
  0x2 B
  0x10 E
struct Point3 x:f32 y:f32 z:f32
tuple Pair a:i16 b:u8
struct Entry name:zstring counts:u16[#u8] pair:Pair
struct Grid columns:u8 rows:u8 cells:u16[@columns*rows]
field TEST INTS a:u8 b:u16 c:u32 d:u64 e:i8 f:i16 g:i32 h:i64
field TEST HEXS a:x8 b:x16 c:x32 d:x64
field TEST FLTS value:f32 values:f32[2]
field TEST FORM id:formid ids:formid[]
field TEST ZSTR text:zstring
field TEST LSTR name:lstring
field TEST CHRS source:chars
field TEST INNR name:zstring value:u8
field TEST SIGS kind:sig raw:bytes4 rest:bytes
field TEST PSTR a:str8 b:str16 c:str32 d:zstr8 e:zstr16 f:zstr32
field TEST ZBUF flags:u8 meshes:zstring8[2]
field TEST STRU point:Point3 entries:Entry[#u16]
field TEST TUPL pairs:Pair[]
field TEST CNTD count:u32 unused:u8 items:formid[@count] grid:Grid
field TEST CNTP a:u8[#u8] b:u16[#u32]
field TEST OPTL a:u8 b:u16? items:formid[]?
field TEST FIXD type:u32/Kind=One value:i32
field TEST FIXN type:u8=3 form:formid=0x14
field TEST ENUM kind:i8/Kind wide:u32/Kind flags:u16/Bits
field TEST DATA value:u32 damage:u16
)";

using Bytes = std::vector<std::uint8_t>;

const LayoutTable& table() {
  static const LayoutTable t = LayoutTable::parse(kTable, "test.layouts");
  return t;
}

const FieldLayout& layout(const char* field, const char* record = "TEST") {
  const auto found = table().find(Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(record)),
                                  Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(field)));
  EXPECT_EQ(found.size(), 1u) << field;
  return *found.front();
}

void put(Bytes& b, std::uint64_t v, int size) {
  for (int i = 0; i < size; ++i) b.push_back(std::uint8_t(v >> (8 * i)));
}
void put_text(Bytes& b, std::string_view s) { b.insert(b.end(), s.begin(), s.end()); }
void put_float(Bytes& b, float f) {
  std::uint32_t v;
  std::memcpy(&v, &f, 4);
  put(b, v, 4);
}

// Decodes data, checks that it encodes back to the same bytes, and gives the value.
FieldValue round_trip(const char* field, const Bytes& data, bool localized = false) {
  const FieldLayout& l = layout(field);
  EXPECT_TRUE(l.fits(data, localized)) << field;
  FieldValue v = decode_field(l, data, localized);
  EXPECT_EQ(encode_field(l, v, localized), data) << field;
  return v;
}

// The detail of the error encoding value gives, or "(no error)".
std::string encode_error(const char* field, const FieldValue& value, bool localized = false) {
  try {
    encode_field(layout(field), value, localized, Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(field)));
  } catch (const Error& e) {
    return e.detail();
  }
  return "(no error)";
}

std::string decode_error(const char* field, const Bytes& data, bool localized = false) {
  try {
    decode_field(layout(field), data, localized, Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(field)));
  } catch (const Error& e) {
    return e.detail();
  }
  return "(no error)";
}

TEST(FieldValueTypes, IntegersSignedAndUnsigned) {
  Bytes data;
  put(data, 0xFE, 1);
  put(data, 0xBEEF, 2);
  put(data, 0xDEADBEEF, 4);
  put(data, 0xFFFFFFFFFFFFFFFFull, 8);
  put(data, 0x80, 1);
  put(data, 0xFFFE, 2);
  put(data, 0x80000000, 4);
  put(data, 0x8000000000000000ull, 8);
  const FieldValue v = round_trip("INTS", data);
  ASSERT_EQ(v.kind(), FieldValue::Kind::Struct);
  EXPECT_EQ(v["a"].get<std::uint64_t>(), 0xFEu);
  EXPECT_EQ(v["b"].get<std::uint64_t>(), 0xBEEFu);
  EXPECT_EQ(v["c"].get<std::uint64_t>(), 0xDEADBEEFu);
  EXPECT_EQ(v["d"].get<std::uint64_t>(), 0xFFFFFFFFFFFFFFFFull);
  EXPECT_EQ(v["e"].get<std::int64_t>(), -128);
  EXPECT_EQ(v["f"].get<std::int64_t>(), -2);
  EXPECT_EQ(v["g"].get<std::int64_t>(), std::int64_t(INT32_MIN));
  EXPECT_EQ(v["h"].get<std::int64_t>(), INT64_MIN);
  // Members in layout order, by name.
  const auto& members = v.get<FieldValue::Struct>();
  ASSERT_EQ(members.size(), 8u);
  EXPECT_EQ(members[0].name, "a");
  EXPECT_EQ(members[7].name, "h");

  // Built by hand: a signed value given as unsigned and the other way round, when they fit.
  const FieldValue built = FieldValue::structure({{"a", 254}, {"b", 0xBEEF}, {"c", 0xDEADBEEFu}, {"d", ~std::uint64_t(0)},
                                                  {"e", -128}, {"f", -2}, {"g", INT32_MIN}, {"h", INT64_MIN}});
  EXPECT_EQ(encode_field(layout("INTS"), built, false), data);
  FieldValue edited = v;
  edited["e"] = std::uint64_t(5);
  edited["a"] = std::int64_t(7);
  const Bytes out = encode_field(layout("INTS"), edited, false);
  EXPECT_EQ(out[0], 7);
  EXPECT_EQ(out[15], 5);
}

TEST(FieldValueTypes, HexIntegersAreUnsigned) {
  Bytes data;
  put(data, 0x7F, 1);
  put(data, 0x1234, 2);
  put(data, 0x00FF8040, 4);
  put(data, 0x0123456789ABCDEFull, 8);
  const FieldValue v = round_trip("HEXS", data);
  EXPECT_EQ(v["a"].kind(), FieldValue::Kind::UInt);
  EXPECT_EQ(v["c"].get<std::uint64_t>(), 0x00FF8040u);
  EXPECT_EQ(v["d"].get<std::uint64_t>(), 0x0123456789ABCDEFull);
}

TEST(FieldValueTypes, FloatsKeepTheirBits) {
  Bytes data;
  put_float(data, 1.5f);
  put(data, 0x7FA00001, 4);  // a signaling NaN with a payload
  put(data, 0x80000000, 4);  // -0.0
  const FieldValue v = round_trip("FLTS", data);
  EXPECT_EQ(v["value"].get<float>(), 1.5f);
  const auto& values = v["values"].get<FieldValue::List>();
  ASSERT_EQ(values.size(), 2u);
  std::uint32_t bits;
  const float nan = values[0].get<float>();
  std::memcpy(&bits, &nan, 4);
  EXPECT_EQ(bits, 0x7FA00001u);
  EXPECT_TRUE(std::signbit(values[1].get<float>()));
  // An integer where a float goes; a double is kept as a float.
  FieldValue edited = v;
  edited["value"] = 3;
  edited["values"] = FieldValue::list({0.25, std::uint64_t(2)});
  Bytes want;
  put_float(want, 3.0f);
  put_float(want, 0.25f);
  put_float(want, 2.0f);
  EXPECT_EQ(encode_field(layout("FLTS"), edited, false), want);
}

TEST(FieldValueTypes, FormIdsAreTheStoredNumbers) {
  Bytes data;
  put(data, 0x01000ABC, 4);
  put(data, 0x14, 4);
  put(data, 0, 4);
  const FieldValue v = round_trip("FORM", data);
  EXPECT_EQ(v["id"].get<FormIdValue>().raw, 0x01000ABCu);
  EXPECT_EQ(v["ids"], FieldValue::list({FieldValue::form_id(0x14), FieldValue::form_id(0)}));
  const Bytes just_one(data.begin(), data.begin() + 4);
  EXPECT_EQ(round_trip("FORM", just_one)["ids"], FieldValue::list({}));
  // A number is no FormID: the caller says which plugin's it is.
  EXPECT_EQ(encode_error("FORM", FieldValue::structure({{"id", 20}, {"ids", FieldValue::list({})}})),
            "FORM.id: expected a FormID, not a signed integer");
}

TEST(FieldValueTypes, ZeroEndedStringsLocalizedStringsAndChars) {
  const Bytes text = {'I', 'r', 'o', 'n', 0};
  EXPECT_EQ(round_trip("ZSTR", text)["text"].get<TextValue>().text, "Iron");
  // A last zstring takes the rest of the field: a zero inside reads back as it is.
  const Bytes inner_zero = {'a', 0, 'b', 0};
  EXPECT_EQ(round_trip("ZSTR", inner_zero)["text"].get<TextValue>().text, std::string("a\0b", 3));
  EXPECT_EQ(round_trip("ZSTR", {0})["text"].get<TextValue>().text, "");

  EXPECT_EQ(round_trip("LSTR", text)["name"].get<TextValue>().text, "Iron");
  const Bytes id = {0x34, 0x12, 0, 0};
  EXPECT_EQ(round_trip("LSTR", id, true)["name"], FieldValue::lstring(0x1234));
  EXPECT_EQ(encode_error("LSTR", FieldValue::structure({{"name", "Iron"}}), true),
            "LSTR.name: this localized plugin stores a string id here: expected an lstring id, not text");
  EXPECT_EQ(encode_error("LSTR", FieldValue::structure({{"name", FieldValue::lstring(1)}}), false),
            "LSTR.name: this plugin is not localized: expected the text, not an lstring id");

  const Bytes source = {'x', ' ', '=', ' ', '1', 0, 0};  // chars keep every byte
  EXPECT_EQ(round_trip("CHRS", source)["source"].get<TextValue>().text, std::string("x = 1\0\0", 7));
  EXPECT_EQ(round_trip("CHRS", {})["source"].get<TextValue>().text, "");

  // A zstring before other members ends at its zero, so its text cannot hold one.
  const Bytes inner = {'a', 'b', 0, 9};
  const FieldValue v = round_trip("INNR", inner);
  EXPECT_EQ(v["name"].get<TextValue>().text, "ab");
  EXPECT_EQ(v["value"].get<std::uint64_t>(), 9u);
  EXPECT_EQ(encode_error("INNR", FieldValue::structure({{"name", std::string("a\0b", 3)}, {"value", 1}})),
            "INNR.name: the text ends at its first zero byte: it cannot hold one");
}

TEST(FieldValueTypes, SignaturesAndBytes) {
  Bytes data;
  put_text(data, "NPC_");
  put(data, 0x04030201, 4);
  put(data, 0xAABB, 2);
  const FieldValue v = round_trip("SIGS", data);
  EXPECT_EQ(v["kind"].get<Signature>(), Signature("NPC_"));
  EXPECT_EQ(v["raw"].get<FieldValue::Bytes>(), (Bytes{1, 2, 3, 4}));
  EXPECT_EQ(v["rest"].get<FieldValue::Bytes>(), (Bytes{0xBB, 0xAA}));
  // A signature may be given as four characters of text.
  FieldValue edited = v;
  edited["kind"] = "CREA";
  EXPECT_EQ(encode_field(layout("SIGS"), edited, false)[0], 'C');
  edited["kind"] = "CRE";
  EXPECT_EQ(encode_error("SIGS", edited), "SIGS.kind: a signature is four characters, not 3");
  edited["kind"] = Signature("CREA");
  edited["raw"] = FieldValue::Bytes{1, 2, 3};
  EXPECT_EQ(encode_error("SIGS", edited), "SIGS.raw: bytes4 holds 4 bytes, not 3");
}

TEST(FieldValueTypes, LengthPrefixedStrings) {
  Bytes data;
  for (int prefix : {1, 2, 4}) {
    put(data, 3, prefix);
    put_text(data, "abc");
  }
  for (int prefix : {1, 2, 4}) {
    put(data, 3, prefix);
    put_text(data, "xy");
    data.push_back(0);
  }
  const FieldValue v = round_trip("PSTR", data);
  for (const char* name : {"a", "b", "c"}) EXPECT_EQ(v[name].get<TextValue>().text, "abc");
  for (const char* name : {"d", "e", "f"}) EXPECT_EQ(v[name].get<TextValue>().text, "xy");
  FieldValue edited = v;
  edited["a"] = std::string(255, 'x');
  EXPECT_EQ(encode_field(layout("PSTR"), edited, false)[0], 255);
  edited["a"] = std::string(256, 'x');
  EXPECT_EQ(encode_error("PSTR", edited), "PSTR.a: str8 holds at most 255 bytes, not 256");
  edited["a"] = "";
  edited["d"] = std::string(255, 'x');  // and its zero
  EXPECT_EQ(encode_error("PSTR", edited), "PSTR.d: zstr8 holds at most 255 bytes, not 256");
}

TEST(FieldValueTypes, ZeroEndedBuffersKeepTheirLeftovers) {
  Bytes data = {7};
  put_text(data, "ab");
  data.insert(data.end(), {0, 0xCC, 0, 0xDD, 0, 0});  // leftover bytes after the zero, zeros last
  put_text(data, "1234567");
  data.push_back(0);
  const FieldValue v = round_trip("ZBUF", data);
  const auto& meshes = v["meshes"].get<FieldValue::List>();
  ASSERT_EQ(meshes.size(), 2u);
  EXPECT_EQ(meshes[0].get<TextValue>().text, "ab");
  EXPECT_EQ(meshes[0].get<TextValue>().leftover, (Bytes{0xCC, 0, 0xDD}));
  EXPECT_EQ(meshes[1].get<TextValue>(), (TextValue{"1234567", {}}));
  // A new text keeps the leftover bytes after its zero; the buffer is filled up with zeros.
  FieldValue edited = v;
  edited["meshes"].get<FieldValue::List>()[0].get<TextValue>().text = "abcd";
  Bytes want = {7, 'a', 'b', 'c', 'd', 0, 0xCC, 0, 0xDD};
  want.insert(want.end(), data.begin() + 9, data.end());
  EXPECT_EQ(encode_field(layout("ZBUF"), edited, false), want);
  edited["meshes"].get<FieldValue::List>()[1] = "12345678";
  EXPECT_EQ(encode_error("ZBUF", edited),
            "ZBUF.meshes[1]: zstring8 holds 8 bytes (the text, its zero and the leftover bytes), not 9");
  edited["meshes"].get<FieldValue::List>()[1] = std::string("a\0b", 3);
  EXPECT_EQ(encode_error("ZBUF", edited), "ZBUF.meshes[1]: the text ends at its first zero byte: it cannot hold one");
  // Leftover bytes belong to zstringN only.
  EXPECT_EQ(encode_error("ZSTR", FieldValue::structure({{"text", TextValue{"a", {1}}}})),
            "ZSTR.text: only a zstringN keeps leftover bytes after its text");
}

Bytes entry_bytes(std::string_view name, std::initializer_list<std::uint16_t> counts, std::int16_t a, std::uint8_t b) {
  Bytes out;
  put_text(out, name);
  out.push_back(0);
  out.push_back(std::uint8_t(counts.size()));
  for (std::uint16_t c : counts) put(out, c, 2);
  put(out, std::uint16_t(a), 2);
  out.push_back(b);
  return out;
}

TEST(FieldValueMembers, StructsAndCountedArraysOfThem) {
  Bytes data;
  put_float(data, 1);
  put_float(data, 2);
  put_float(data, -3);
  put(data, 2, 2);
  for (const Bytes& e : {entry_bytes("first", {1, 2}, -5, 9), entry_bytes("", {}, 0, 0)})
    data.insert(data.end(), e.begin(), e.end());
  const FieldValue v = round_trip("STRU", data);
  EXPECT_EQ(v["point"], FieldValue::structure({{"x", 1.0f}, {"y", 2.0f}, {"z", -3.0f}}));
  const auto& entries = v["entries"].get<FieldValue::List>();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0], FieldValue::structure({{"name", "first"},
                                               {"counts", FieldValue::list({std::uint64_t(1), std::uint64_t(2)})},
                                               {"pair", FieldValue::structure({{"a", -5}, {"b", std::uint64_t(9)}})}}));
  // The count prefix is written from the list: one element more, one more in the count.
  FieldValue edited = v;
  edited["entries"].get<FieldValue::List>().push_back(
      FieldValue::structure({{"name", "x"}, {"counts", FieldValue::list({7})}, {"pair", FieldValue::list({1, 2})}}));
  Bytes want = data;
  want[12] = 3;
  const Bytes third = entry_bytes("x", {7}, 1, 2);
  want.insert(want.end(), third.begin(), third.end());
  EXPECT_EQ(encode_field(layout("STRU"), edited, false), want);
  // Errors name the path down to the element.
  edited["entries"].get<FieldValue::List>()[2]["counts"] = FieldValue::list({70000});
  EXPECT_EQ(encode_error("STRU", edited), "STRU.entries[2].counts[0]: 70000 does not fit u16");
  edited["entries"].get<FieldValue::List>()[2]["counts"] = FieldValue(FieldValue::List(256, FieldValue(1)));
  EXPECT_EQ(encode_error("STRU", edited), "STRU.entries[2].counts: holds at most 255 elements, not 256");
  edited["entries"].get<FieldValue::List>()[2] = FieldValue::structure({{"name", "x"}, {"pair", FieldValue::list({1, 2})}});
  EXPECT_EQ(encode_error("STRU", edited), "STRU.entries[2].counts: is missing");
  edited["entries"].get<FieldValue::List>()[2] = FieldValue::structure(
      {{"name", "x"}, {"counts", FieldValue::list({})}, {"pair", FieldValue::list({1, 2})}, {"colour", 3}});
  EXPECT_EQ(encode_error("STRU", edited), "STRU.entries[2]: has no member 'colour' (its members: name counts pair)");
  edited["entries"].get<FieldValue::List>()[2] = 5;
  EXPECT_EQ(encode_error("STRU", edited), "STRU.entries[2]: expected a struct of name counts pair, not a signed integer");
  edited["point"] = FieldValue::structure({{"x", 1}, {"y", 2}, {"y", 3}});
  EXPECT_EQ(encode_error("STRU", edited), "STRU.point.y: is given twice");
}

TEST(FieldValueMembers, TuplesByNameOrInOrder) {
  Bytes data;
  for (int i = 0; i < 3; ++i) {
    put(data, std::uint16_t(-i), 2);
    data.push_back(std::uint8_t(i * 10));
  }
  const FieldValue v = round_trip("TUPL", data);
  const auto& pairs = v["pairs"].get<FieldValue::List>();
  ASSERT_EQ(pairs.size(), 3u);
  EXPECT_EQ(pairs[2], FieldValue::structure({{"a", -2}, {"b", std::uint64_t(20)}}));
  EXPECT_EQ(encode_field(layout("TUPL"), FieldValue::structure({{"pairs", FieldValue::list({FieldValue::list({0, 0}),
                                                                                             FieldValue::list({-1, 10}),
                                                                                             FieldValue::list({-2, 20})})}}),
                         false),
            data);
  EXPECT_EQ(round_trip("TUPL", {})["pairs"], FieldValue::list({}));
  EXPECT_EQ(encode_error("TUPL", FieldValue::structure({{"pairs", FieldValue::list({FieldValue::list({1})})}})),
            "TUPL.pairs[0]: holds 2 values in order (a b), not 1");
  // Only a tuple takes a list for its members.
  EXPECT_EQ(encode_error("STRU", FieldValue::structure({{"point", FieldValue::list({1, 2, 3})}, {"entries", FieldValue::list({})}})),
            "STRU.point: expected a struct of x y z, not a list");
}

TEST(FieldValueMembers, ArraysCountedByEarlierMembers) {
  Bytes data;
  put(data, 2, 4);
  data.push_back(0xEE);  // unused: kept as it is
  put(data, 0x11, 4);
  put(data, 0x22, 4);
  data.insert(data.end(), {3, 2});  // columns, rows
  for (int i = 0; i < 6; ++i) put(data, std::uint16_t(i), 2);
  const FieldValue v = round_trip("CNTD", data);
  EXPECT_EQ(v["count"].get<std::uint64_t>(), 2u);
  EXPECT_EQ(v["unused"].get<std::uint64_t>(), 0xEEu);
  EXPECT_EQ(v["items"].get<FieldValue::List>().size(), 2u);
  EXPECT_EQ(v["grid"]["cells"].get<FieldValue::List>().size(), 6u);
  // The count is a member of its own: an edit changes both.
  FieldValue edited = v;
  edited["items"].get<FieldValue::List>().push_back(FieldValue::form_id(0x33));
  EXPECT_EQ(encode_error("CNTD", edited), "CNTD.items: holds 3 elements, but count says 2 (change both)");
  edited["count"] = 3u;
  const Bytes out = encode_field(layout("CNTD"), edited, false);
  EXPECT_EQ(out.size(), data.size() + 4);
  EXPECT_EQ(decode_field(layout("CNTD"), out, false), edited);
  edited["grid"]["rows"] = 1;
  EXPECT_EQ(encode_error("CNTD", edited), "CNTD.grid.cells: holds 6 elements, but columns*rows says 3 (change both)");

  // [#u8] and [#u32] prefixes: written from the lists.
  const Bytes prefixed = {2, 5, 6, 1, 0, 0, 0, 0x34, 0x12};
  const FieldValue p = round_trip("CNTP", prefixed);
  EXPECT_EQ(p["a"], FieldValue::list({std::uint64_t(5), std::uint64_t(6)}));
  EXPECT_EQ(p["b"], FieldValue::list({std::uint64_t(0x1234)}));
  EXPECT_EQ(encode_field(layout("CNTP"), FieldValue::structure({{"a", FieldValue::list({})}, {"b", FieldValue::list({})}}), false),
            (Bytes{0, 0, 0, 0, 0}));
}

TEST(FieldValueMembers, FixedArraysHoldExactlyTheirCount) {
  Bytes data;
  for (int i = 0; i < 3; ++i) put_float(data, float(i));
  FieldValue v = round_trip("FLTS", data);
  v["values"].get<FieldValue::List>().push_back(1.0f);
  EXPECT_EQ(encode_error("FLTS", v), "FLTS.values: holds exactly 2 elements, not 3");
  v["values"] = 1.0f;
  EXPECT_EQ(encode_error("FLTS", v), "FLTS.values: expected a list of f32, not a float");
}

TEST(FieldValueMembers, OptionalMembersTheFieldEndsBefore) {
  const FieldValue one = round_trip("OPTL", {5});
  EXPECT_EQ(one, FieldValue::structure({{"a", std::uint64_t(5)}, {"b", {}}, {"items", {}}}));
  EXPECT_TRUE(one["b"].is_none());
  const FieldValue three = round_trip("OPTL", {5, 1, 2});
  EXPECT_EQ(three["b"].get<std::uint64_t>(), 0x201u);
  EXPECT_TRUE(three["items"].is_none());
  const FieldValue seven = round_trip("OPTL", {5, 1, 2, 9, 0, 0, 0});
  EXPECT_EQ(seven["items"], FieldValue::list({FieldValue::form_id(9)}));
  // Left out by leaving the members out, or as nothing.
  EXPECT_EQ(encode_field(layout("OPTL"), FieldValue::structure({{"a", 5}}), false), (Bytes{5}));
  EXPECT_EQ(encode_field(layout("OPTL"), FieldValue::structure({{"a", 5}, {"b", 0x201}, {"items", {}}}), false),
            (Bytes{5, 1, 2}));
  // An empty list is a member given: the field holds it, and ends after b all the same.
  EXPECT_EQ(encode_field(layout("OPTL"), FieldValue::structure({{"a", 5}, {"b", 0x201}, {"items", FieldValue::list({})}}), false),
            (Bytes{5, 1, 2}));
  EXPECT_EQ(encode_error("OPTL", FieldValue::structure({{"a", 5}, {"items", FieldValue::list({})}})),
            "OPTL.items: is given, but b before it is left out (the field ends before its first optional member left out)");
  EXPECT_EQ(encode_error("OPTL", FieldValue::structure({{"b", 1}})), "OPTL.a: is missing");
  EXPECT_EQ(encode_error("OPTL", FieldValue::structure({{"a", {}}})),
            "OPTL.a: is left out (nothing), but only optional members may be");
  EXPECT_EQ(decode_error("OPTL", {5, 1}), "OPTL.b: the bytes from byte 1 of 2 do not read as u16");
}

TEST(FieldValueMembers, FixedValues) {
  Bytes data;
  put(data, 1, 4);
  put(data, std::uint32_t(-7), 4);
  const FieldValue v = round_trip("FIXD", data);
  EXPECT_EQ(v["type"], (FieldValue(EnumValue{"One", 1})));
  EXPECT_EQ(v["value"].get<std::int64_t>(), -7);
  FieldValue edited = v;
  edited["type"] = FieldValue::enumeration("Zero");
  EXPECT_EQ(encode_error("FIXD", edited), "FIXD.type: is 1 in this layout, not 0");
  edited["type"] = 1;
  EXPECT_EQ(encode_field(layout("FIXD"), edited, false), data);
  Bytes other = data;
  other[0] = 0;
  EXPECT_EQ(decode_error("FIXD", other), "FIXD.type: the bytes from byte 0 of 8 do not read as u32");

  const Bytes fixn = {3, 0x14, 0, 0, 0};
  const FieldValue n = round_trip("FIXN", fixn);
  EXPECT_EQ(n["form"], FieldValue::form_id(0x14));
  EXPECT_EQ(encode_error("FIXN", FieldValue::structure({{"type", 4}, {"form", FieldValue::form_id(0x14)}})),
            "FIXN.type: is 3 in this layout, not 4");
  EXPECT_EQ(encode_error("FIXN", FieldValue::structure({{"type", 3}, {"form", FieldValue::form_id(0x15)}})),
            "FIXN.form: is 00000014 in this layout, not 00000015");
}

TEST(FieldValueMembers, EnumsAndFlags) {
  // i8 -1 (a negative label), u32 7 (no label), flags A|E with 0x100 no label names.
  const Bytes data = {0xFF, 7, 0, 0, 0, 0x11, 0x01};
  const FieldValue v = round_trip("ENUM", data);
  EXPECT_EQ(v["kind"], FieldValue(EnumValue{"None", ~std::uint64_t(0)}));
  EXPECT_EQ(v["wide"], FieldValue(EnumValue{"", 7}));
  EXPECT_EQ(v["flags"], FieldValue::flags({"A", "E"}, 0x100));

  // By label, by number, by label as text; flags by names (a list), by number.
  const FieldValue built = FieldValue::structure(
      {{"kind", FieldValue::enumeration("none")},  // labels are matched without regard to case
       {"wide", 7},
       {"flags", FieldValue::list({"E", "A", FieldValue("A")})}});
  Bytes want = data;
  want[6] = 0;
  EXPECT_EQ(encode_field(layout("ENUM"), built, false), want);
  FieldValue edited = v;
  edited["kind"] = "One";
  edited["wide"] = FieldValue::enumeration("None");  // -1 in 32 bits
  edited["flags"] = 0x8003;
  EXPECT_EQ(encode_field(layout("ENUM"), edited, false), (Bytes{1, 0xFF, 0xFF, 0xFF, 0xFF, 0x03, 0x80}));
  edited["kind"] = EnumValue{"", std::uint64_t(-128)};  // a number, sign-extended
  EXPECT_EQ(encode_field(layout("ENUM"), edited, false)[0], 0x80);

  edited["kind"] = FieldValue::enumeration("Two");
  EXPECT_EQ(encode_error("ENUM", edited), "ENUM.kind: 'Two' is not a value of Kind");
  edited["kind"] = 128;
  EXPECT_EQ(encode_error("ENUM", edited), "ENUM.kind: 128 does not fit i8");
  edited["kind"] = 0;
  edited["flags"] = FieldValue::flags({"A", "C"});
  EXPECT_EQ(encode_error("ENUM", edited), "ENUM.flags: 'C' is not a flag of Bits");
  edited["flags"] = FieldValue::flags({"A"}, 0x10000);
  EXPECT_EQ(encode_error("ENUM", edited), "ENUM.flags: 0x10000 does not fit u16");
  edited["flags"] = FieldValue::list({"A", 2});
  EXPECT_EQ(encode_error("ENUM", edited), "ENUM.flags[1]: expected a flag name of Bits, not a signed integer");
  edited["flags"] = 1.0f;
  EXPECT_EQ(encode_error("ENUM", edited), "ENUM.flags: expected flags of Bits (or a number), not a float");
}

TEST(FieldValueErrors, NameTheMemberPath) {
  const FieldValue v = FieldValue::structure({{"value", 10}, {"damage", 70000}});
  EXPECT_EQ(encode_error("DATA", v), "DATA.damage: 70000 does not fit u16");
  // Without the field's type the path starts at the member; what() names the layout's line.
  try {
    encode_field(layout("DATA"), v, false);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.detail(), "damage: 70000 does not fit u16");
    EXPECT_NE(std::string(e.what()).find("table line"), std::string::npos) << e.what();
  }
  EXPECT_EQ(encode_error("DATA", FieldValue::structure({{"value", -1}, {"damage", 1}})), "DATA.value: -1 does not fit u32");
  EXPECT_EQ(encode_error("DATA", FieldValue::structure({{"value", "ten"}, {"damage", 1}})),
            "DATA.value: expected an integer (u32), not text");
  EXPECT_EQ(encode_error("DATA", 5), "DATA: expected a struct of value damage, not a signed integer");
  EXPECT_EQ(encode_error("INTS", FieldValue::structure({{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}, {"e", -129}, {"f", 1},
                                                        {"g", 1}, {"h", 1}})),
            "INTS.e: -129 does not fit i8");
  EXPECT_EQ(encode_error("INTS", FieldValue::structure({{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}, {"e", 1}, {"f", 1},
                                                        {"g", 1}, {"h", 0x8000000000000000ull}})),
            "INTS.h: 9223372036854775808 does not fit i64");

  // Bytes that do not fit the layout: the first member that does not read.
  EXPECT_EQ(decode_error("DATA", {1, 2, 3, 4}), "DATA.damage: the field ends before it (4 bytes in all)");
  EXPECT_EQ(decode_error("DATA", {1, 2, 3, 4, 5, 6, 7}), "DATA: 1 byte left after the last member");
  EXPECT_EQ(decode_error("CNTD", {9, 0, 0, 0, 0, 1, 0, 0, 0}), "CNTD.items: the bytes from byte 5 of 9 do not read as formid elements");
  EXPECT_EQ(decode_error("LSTR", {1, 2, 3}, true), "LSTR.name: the bytes from byte 0 of 3 do not read as lstring");
}

TEST(FieldValueAccess, KindsAndMembers) {
  FieldValue v = FieldValue::structure({{"a", 1}, {"b", "text"}});
  EXPECT_EQ(v.kind(), FieldValue::Kind::Struct);
  EXPECT_EQ(v.kind_name(), "a struct");
  EXPECT_EQ(v["a"].kind(), FieldValue::Kind::Int);
  EXPECT_EQ(FieldValue(1u).kind(), FieldValue::Kind::UInt);
  EXPECT_EQ(v.find("c"), nullptr);
  EXPECT_EQ(FieldValue::kind_of<FlagsValue>(), FieldValue::Kind::Flags);
  EXPECT_EQ(FieldValue::kind_of<FieldValue::Struct>(), FieldValue::Kind::Struct);
  try {
    (void)v["b"].get<std::int64_t>();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.detail(), "expected a signed integer, not text");
  }
  try {
    (void)v["c"];
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.detail(), "the struct has no member 'c'");
  }
  v["b"].get<TextValue>().text = "other";
  EXPECT_EQ(v["b"], FieldValue("other"));
}

// ---- the corpus -------------------------------------------------------------------------------

TEST(FieldValueCorpus, EveryLayoutFieldDecodesAndEncodesBack) {
  TESMOD_REQUIRE_CORPUS();
  const auto started = std::chrono::steady_clock::now();
  std::uint64_t fields = 0, checked = 0, plugins = 0;
  Inflater inflater;
  std::vector<FieldRef> refs;
  for (const auto& path : test::corpus_plugins()) {
    SCOPED_TRACE(path.string());
    const PluginFile file = PluginFile::open(path);
    ++plugins;
    const LayoutTable& layouts = layout_table(file.game());
    const bool localized = file.game() != Game::Oblivion && file.header().is_localized();
    // The record type of each FormID of the plugin (the first record of an id), for the
    // conditions on what a FormID names, as the text layer gives them.
    std::unordered_map<std::uint32_t, Signature> types;
    for (const IndexEntry& e : file.entries())
      if (!e.is_group()) types.emplace(e.id, e.type);
    FieldSite site;
    site.localized = localized;
    site.record_type_of = [&types](std::uint32_t id) -> std::optional<Signature> {
      const auto it = types.find(id);
      if (it == types.end()) return std::nullopt;
      return it->second;
    };
    std::uint64_t failures = 0;
    for (const IndexEntry& e : file.entries()) {
      if (e.is_group()) continue;
      const ErrorContext context = file.context(e);
      const auto subrecords = read_subrecords(file.body(e, inflater), context);
      refs.clear();
      for (const SubrecordView& f : subrecords) refs.push_back({f.type, f.data});
      site.record_type = e.type;
      site.form_version = file.record_header(e).form_version;
      for (std::size_t i = 0; i < subrecords.size(); ++i) {
        ++fields;
        const SubrecordView& f = subrecords[i];
        site.earlier = std::span<const FieldRef>(refs).first(i);
        const FieldLayout* layout = layouts.choose(f.type, f.data, site);
        if (!layout) continue;
        ++checked;
        try {
          const FieldValue value = decode_field(*layout, f.data, localized, f.type);
          const std::vector<std::uint8_t> bytes = encode_field(*layout, value, localized, f.type);
          if (!std::equal(bytes.begin(), bytes.end(), f.data.begin(), f.data.end()) && failures++ < 10)
            ADD_FAILURE() << describe(*context.record) << " " << f.type.str() << " (table line " << layout->table_line
                          << "): encoded bytes differ";
        } catch (const Error& error) {
          if (failures++ < 10) ADD_FAILURE() << describe(*context.record) << " " << f.type.str() << ": " << error.what();
        }
      }
    }
    EXPECT_EQ(failures, 0u);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_GT(checked, 100000u);
  std::cout << "[ field values ] " << plugins << " plugins, " << checked << " of " << fields
            << " fields read by a layout, all decoded and encoded back byte-identical (" << seconds << " s)\n";
}

}  // namespace
}  // namespace tesmod::fields
