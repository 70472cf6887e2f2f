// The layout language's v2 features, each on a table written here: structs and arrays of them
// (counted, fixed and to the end), length-prefixed and inner strings, fixed member values (unions
// inside a field), the conditions that choose a layout, header flag names per record type, form
// references inside structs, and the table's errors. Real records are in layout_corpus_test.cpp.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "tesmod/error.hpp"
#include "tesmod/fields/field_layout.hpp"
#include "tesmod/text/field_text.hpp"

namespace tesmod::text {
namespace {

using fields::FieldRef;
using fields::FieldSite;

constexpr std::string_view kTable = R"(
enum TopicType
  0 Topic
  1 Subtype
flags AliasFlags
  0x1 ReservesLocation
  0x40 Essential
flags ArmorFlags
  0x4 NonPlayable
  0x40 Shield
flags RecordFlags
  0x20 Deleted
  0x400 Persistent
flags LightRefFlags
  0x100 NeverFades
  0x400 Persistent
struct Texture name:str32 texture:formid/TXST index:i32
struct Weather weather:formid/WTHR chance:i32   # a comment after a blank
struct Nested label:zstring values:u16[#u8] point:Weather
field ARMO MO2S textures:Texture[#u32]
field CLMT WLST weathers:Weather[]
field TEST FIXD pair:Weather[2]
field TEST NEST items:Nested[#u16]
field TEST STR8 text:str8 after:u8
struct Grid columns:u8 rows:u8 cells:u16[@columns*rows]
tuple Point x:i16 y:i16
field TEST TUPL points:Point[]
field TEST CNTD count:u32 unused:u8 items:formid[@count] grid:Grid
field TEST ZS16 text:zstr16
field TEST ZBUF flags:u8 meshes:zstring8[2]
struct Lod mesh:zstring6 level:u8
field TEST ZBST lods:Lod[]
field TEST OPTL a:u8 b:u16? items:formid[]?
field DEBR DATA percent:u8 model:zstring flags:u8
field REFR PDTO type:u32/TopicType=0 topic:formid/DIAL
field REFR PDTO type:u32/TopicType=Subtype subtype:sig
field GMST DATA if edid^=f value:f32
field GMST DATA if edid^=i value:i32
field GMST DATA value:x32
sections QUST QOBJ ALST
field QUST FNAM if in=ALST flags:u32/AliasFlags
field QUST FNAM if in=QOBJ objective-flags:u32
field QUST FNAM if in=- quest-flags:u16
field LENS DNAM if prev=LFSP sprite-flags:u32
field LENS DNAM count:u32
field PERK EPFD if EPFT.type=1 value:f32
field PERK EPFD if EPFT.type&2 form:formid
field PERK EPFD raw:x32
field PERK EPFT type:u8
field FACT COED if owner->NPC_ owner:formid global:formid/GLOB condition:f32
field FACT COED if owner->FACT owner:formid rank:i32 condition:f32
field FACT COED owner:formid value:x32 condition:f32
header ARMO ArmorFlags
header REFR if NAME->LIGH LightRefFlags
header * RecordFlags
)";

class TestNamer final : public FormNamer {
 public:
  std::string name(std::uint32_t id) const override {
    if (id == 0) return "NONE";
    if (id == 0x1234) return "BlueTexture";
    if (id == 0x20) return "Player";
    return fmt_hex(id);
  }
  std::optional<std::uint32_t> resolve(std::string_view text) const override {
    if (text == "NONE") return 0;
    if (text == "BlueTexture") return 0x1234;
    if (text == "Player") return 0x20;
    if (text.starts_with("@")) return std::uint32_t(std::stoul(std::string(text.substr(1)), nullptr, 16));
    return std::nullopt;
  }
  static std::string fmt_hex(std::uint32_t id) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "@%08X", id);
    return buf;
  }
};

using Bytes = std::vector<std::uint8_t>;

void put32(Bytes& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(std::uint8_t(v >> (8 * i)));
}
void put16(Bytes& b, std::uint16_t v) {
  b.push_back(std::uint8_t(v));
  b.push_back(std::uint8_t(v >> 8));
}
void put_text(Bytes& b, std::string_view s) { b.insert(b.end(), s.begin(), s.end()); }
void putf(Bytes& b, float f) {
  std::uint32_t v;
  std::memcpy(&v, &f, 4);
  put32(b, v);
}

Signature sig(const char* s) { return Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(s)); }

struct Fixture {
  LayoutTable table = LayoutTable::parse(kTable, "test.layouts");
  TestNamer namer;
  TextCodec codec;
  FieldTextContext context{&namer, &codec, false, {}};

  // The first layout of the field that holds at the site and fits; its text, which must read back.
  std::string render(const char* record, const char* field, const Bytes& data, const FieldSite* site = nullptr) {
    FieldSite none;
    none.record_type = sig(record);
    const FieldSite& at = site ? *site : none;
    for (const FieldLayout* layout : table.find(sig(record), sig(field))) {
      if (!table.applies(*layout, data, at) || !layout->fits(data, false)) continue;
      std::string out;
      EXPECT_TRUE(append_layout_value(out, *layout, data, context));
      LineScanner line(out, 1);
      EXPECT_EQ(parse_layout_value(*layout, line, context), data) << out;
      return out;
    }
    return "(no layout)";
  }
  // Reads text as a text reader does: the first layout whose (readable) conditions hold and that parses it.
  Bytes parse(const char* record, const char* field, std::string_view text, const FieldSite* site = nullptr) {
    FieldSite none;
    none.record_type = sig(record);
    FieldSite at = site ? *site : none;
    at.reading_text = true;
    std::optional<SyntaxError> last;
    for (const FieldLayout* layout : table.find(sig(record), sig(field))) {
      if (!table.applies(*layout, {}, at)) continue;
      try {
        LineScanner line(text, 1);
        return parse_layout_value(*layout, line, context);
      } catch (const SyntaxError& e) {
        last = e;
      }
    }
    if (last) throw *last;
    throw SyntaxError(1, 1, "no layout");
  }
};

// The error reading a table gives (file t.layouts), or "(no error)".
std::string table_error(std::string_view table) {
  try {
    LayoutTable::parse(table, "t.layouts");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

Bytes texture_bytes(std::string_view name, std::uint32_t txst, std::int32_t index) {
  Bytes b;
  put32(b, std::uint32_t(name.size()));
  put_text(b, name);
  put32(b, txst);
  put32(b, std::uint32_t(index));
  return b;
}

TEST(LayoutLanguage, CountedArrayOfStructsWithPrefixedStrings) {
  Fixture f;
  Bytes data;
  put32(data, 2);
  for (const Bytes& t : {texture_bytes("Mesh01", 0x1234, 0), texture_bytes("Strap", 0x99, -1)}) data.insert(data.end(), t.begin(), t.end());
  EXPECT_EQ(f.render("ARMO", "MO2S", data),
            "[{name=\"Mesh01\" texture=BlueTexture index=0}, {name=\"Strap\" texture=@00000099 index=-1}]");
  // The count is the number of elements written: one more element, one more in the count.
  const Bytes edited = f.parse("ARMO", "MO2S",
                               "[{name=\"Mesh01\" texture=BlueTexture index=0}, {name=\"Strap\" texture=@00000099 "
                               "index=-1}, {name=\"\" texture=NONE index=3}]");
  Bytes want = data;
  want[0] = 3;
  const Bytes third = texture_bytes("", 0, 3);
  want.insert(want.end(), third.begin(), third.end());
  EXPECT_EQ(edited, want);
  EXPECT_EQ(f.render("ARMO", "MO2S", {0, 0, 0, 0}), "[]");
  // A count past the bytes, a string past the end, a byte left over: no layout, the field stays hex.
  Bytes short_count = data;
  short_count[0] = 3;
  EXPECT_EQ(f.render("ARMO", "MO2S", short_count), "(no layout)");
  Bytes long_name = data;
  long_name[4] = 200;
  EXPECT_EQ(f.render("ARMO", "MO2S", long_name), "(no layout)");
  Bytes extra = data;
  extra.push_back(0);
  EXPECT_EQ(f.render("ARMO", "MO2S", extra), "(no layout)");
  Bytes huge;
  put32(huge, 0xFFFFFFFF);  // a count no field can hold: refused at once, not walked
  EXPECT_EQ(f.render("ARMO", "MO2S", huge), "(no layout)");
}

TEST(LayoutLanguage, FixedAndToTheEndArraysOfStructs) {
  Fixture f;
  Bytes data;
  put32(data, 0x1234);
  put32(data, 30);
  put32(data, 0x20);
  put32(data, 70);
  EXPECT_EQ(f.render("CLMT", "WLST", data), "[{weather=BlueTexture chance=30}, {weather=Player chance=70}]");
  EXPECT_EQ(f.render("TEST", "FIXD", data), "[{weather=BlueTexture chance=30}, {weather=Player chance=70}]");
  Bytes odd = data;
  odd.pop_back();
  EXPECT_EQ(f.render("CLMT", "WLST", odd), "(no layout)");
  EXPECT_THROW(f.parse("TEST", "FIXD", "[{weather=Player chance=1}]"), SyntaxError);  // [2] holds two
  EXPECT_THROW(f.parse("CLMT", "WLST", "[{weather=Player}]"), SyntaxError);          // chance= missing
  EXPECT_THROW(f.parse("CLMT", "WLST", "[{chance=1 weather=Player}]"), SyntaxError); // members in order
}

TEST(LayoutLanguage, NestedStructsInnerStringsAndCounts) {
  Fixture f;
  Bytes data;
  put16(data, 1);
  put_text(data, std::string_view("top\0", 4));
  data.push_back(2);
  put16(data, 7);
  put16(data, 9);
  put32(data, 0x20);
  put32(data, 5);
  EXPECT_EQ(f.render("TEST", "NEST", data), "[{label=\"top\" values=[7, 9] point={weather=Player chance=5}}]");
  EXPECT_EQ(f.parse("TEST", "NEST", "[{label=\"top\" values=[7, 9] point={weather=Player chance=5}}]"), data);
  // An inner zstring cannot hold a zero byte in its text.
  EXPECT_THROW(f.parse("TEST", "NEST", "[{label=\"a\\x00b\" values=[] point={weather=NONE chance=0}}]"), SyntaxError);
}

TEST(LayoutLanguage, ArraysCountedByEarlierMembers) {
  Fixture f;
  Bytes data;
  put32(data, 2);
  data.push_back(0xCD);
  put32(data, 0x20);
  put32(data, 0x1234);
  data.push_back(3);  // columns
  data.push_back(2);  // rows: 6 cells
  for (std::uint16_t c = 1; c <= 6; ++c) put16(data, c);
  const std::string text = "count=2 unused=205 items=[Player, BlueTexture] grid={columns=3 rows=2 cells=[1, 2, 3, 4, 5, 6]}";
  EXPECT_EQ(f.render("TEST", "CNTD", data), text);
  EXPECT_EQ(f.parse("TEST", "CNTD", text), data);
  Bytes wrong = data;
  wrong[0] = 3;  // three items said, two there (and the rest misread): no layout
  EXPECT_EQ(f.render("TEST", "CNTD", wrong), "(no layout)");
  Bytes short_grid = data;
  short_grid.pop_back();
  EXPECT_EQ(f.render("TEST", "CNTD", short_grid), "(no layout)");
  // An edit that changes the elements but not the count is refused, at the array.
  try {
    f.parse("TEST", "CNTD", "count=2 unused=205 items=[Player] grid={columns=3 rows=2 cells=[1, 2, 3, 4, 5, 6]}");
    ADD_FAILURE() << "one item where the count says two";
  } catch (const SyntaxError& e) {
    EXPECT_NE(e.message().find("the count before it says 2"), std::string::npos) << e.message();
    EXPECT_EQ(e.column(), 26u);
  }
  EXPECT_THROW(f.parse("TEST", "CNTD", "count=1 unused=0 items=[Player] grid={columns=1 rows=2 cells=[1]}"), SyntaxError);
  // The count names an earlier integer of the same list.
  EXPECT_THROW(LayoutTable::parse("field XREC ABCD items:u8[@n] n:u8", "t"), Error);
  EXPECT_THROW(LayoutTable::parse("field XREC ABCD n:u8[2] items:u8[@n]", "t"), Error);
}

TEST(LayoutLanguage, TuplesAreWrittenByPositionAndLongArraysCompactly) {
  Fixture f;
  Bytes two;
  for (std::int16_t v : {1, -2, 3, 4}) put16(two, std::uint16_t(v));
  EXPECT_EQ(f.render("TEST", "TUPL", two), "[(1 -2), (3 4)]");
  EXPECT_EQ(f.parse("TEST", "TUPL", "[( 1  -2 ),(3 4)]"), two);
  Bytes many;
  for (int i = 0; i < 17; ++i) put16(many, std::uint16_t(i)), put16(many, 0);
  const std::string text = f.render("TEST", "TUPL", many);
  EXPECT_TRUE(text.starts_with("[(0 0),(1 0),(2 0),")) << text;  // more than 16: no blank after ','
  EXPECT_EQ(f.parse("TEST", "TUPL", text), many);
  try {
    f.parse("TEST", "TUPL", "[(1)]");
    ADD_FAILURE() << "a tuple with one value of two";
  } catch (const SyntaxError& e) {
    EXPECT_NE(e.message().find("a number"), std::string::npos) << e.message();
  }
  EXPECT_THROW(f.parse("TEST", "TUPL", "[(1 2 3)]"), SyntaxError);
  EXPECT_THROW(f.parse("TEST", "TUPL", "[{x=1 y=2}]"), SyntaxError);  // a tuple is written by position
  // Tuples hold single values of fixed size.
  EXPECT_THROW(LayoutTable::parse("tuple T a:u8[2]", "t"), Error);
  EXPECT_THROW(LayoutTable::parse("tuple T a:str8", "t"), Error);
  EXPECT_THROW(LayoutTable::parse("tuple T a:u8=1", "t"), Error);
}

// Arrays of numbers and of tuples of numbers are written and read by loops of their own (the
// millions of values of navmeshes and landscapes); they must give the text and bytes, and the
// errors, of the general path: every kind of member, blanks anywhere, and values it leaves to
// the general path (names, hex, exponents, out of range).
TEST(LayoutLanguage, ArraysOfNumbersAndTuplesOfThem) {
  const LayoutTable table = LayoutTable::parse(R"(
flags TriangleFlags
  0x1 Edge
  0x800 Water
tuple Vertex x:f32 y:f32 z:f32
tuple Color r:u8 g:u8 b:u8
tuple Triangle a:i16 b:i16 flags:u16/TriangleFlags cover:x16 form:formid
field TEST VERT vertices:Vertex[#u32]
field TEST COLR colors:Color[3]
field TEST TRIS triangles:Triangle[]
field TEST HGTS offset:f32 heights:i8[4] bits:x32[2]
tuple Cell position:u16 unused:bytes2 opacity:f32 cover:x16 tag:x8 count:i32
field TEST CELL cells:Cell[]
)", "numbers.layouts");
  TestNamer namer;
  TextCodec codec;
  const FieldTextContext context{&namer, &codec, false, {}};
  const auto layout = [&](const char* field) { return table.find(sig("TEST"), sig(field)).front(); };
  const auto render = [&](const char* field, const Bytes& data) {
    std::string out;
    EXPECT_TRUE(append_layout_value(out, *layout(field), data, context));
    return out;
  };
  const auto parse = [&](const char* field, std::string_view text) {
    LineScanner line(text, 1);
    return parse_layout_value(*layout(field), line, context);
  };

  Bytes vert;
  put32(vert, 3);
  for (float v : {1.5f, -0.0f, 3.4028235e38f, 2385.1f, 1e-7f, 0.1f}) putf(vert, v);
  put32(vert, 0x7FC00000u);  // not a number: written as its bits
  putf(vert, -16777216.0f);
  putf(vert, 0.33333334f);
  EXPECT_EQ(render("VERT", vert), "[(1.5 -0.0 3.4028235e+38), (2385.1 1e-07 0.1), (0x7FC00000 -16777216.0 0.33333334)]");
  EXPECT_EQ(parse("VERT", render("VERT", vert)), vert);
  EXPECT_EQ(parse("VERT", "[ ( 1.5 -0 3.4028235e38 ) ,(2385.1  0.0000001 .1),(0x7FC00000 -16777216 0.33333334) ]"), vert);
  Bytes empty;
  put32(empty, 0);
  EXPECT_EQ(render("VERT", empty), "[]");
  EXPECT_EQ(parse("VERT", "[ ]"), empty);

  const Bytes colors = {255, 0, 128, 1, 2, 3, 0, 0, 0};
  EXPECT_EQ(render("COLR", colors), "[(255 0 128), (1 2 3), (0 0 0)]");
  EXPECT_EQ(parse("COLR", "[(255 0 0x80),(1 2 3),(0 -0 0)]"), colors);

  Bytes tris;
  put16(tris, std::uint16_t(-1)), put16(tris, 32767), put16(tris, 0x801), put16(tris, 0xBEEF), put32(tris, 0x20);
  put16(tris, std::uint16_t(-32768)), put16(tris, 0), put16(tris, 0x4), put16(tris, 0), put32(tris, 0);
  EXPECT_EQ(render("TRIS", tris), "[(-1 32767 Edge|Water 0xBEEF Player), (-32768 0 0x4 0x0000 NONE)]");
  EXPECT_EQ(parse("TRIS", render("TRIS", tris)), tris);
  EXPECT_EQ(parse("TRIS", "[(-1 32767 Water|Edge 48879 Player), (-32768 0 4 0 @00000000)]"), tris);
  EXPECT_EQ(parse("TRIS", "[(-1 32767 wATER|EDGE 48879 Player), (-32768 0 4 0 NONE)]"), tris);  // labels: any case

  Bytes hgts;
  putf(hgts, -2048.0f);
  for (std::int8_t v : {-128, 127, 0, -1}) hgts.push_back(std::uint8_t(v));
  put32(hgts, 0xDEADBEEF), put32(hgts, 1);
  EXPECT_EQ(render("HGTS", hgts), "offset=-2048.0 heights=[-128, 127, 0, -1] bits=[0xDEADBEEF, 0x00000001]");
  EXPECT_EQ(parse("HGTS", "offset=-2048 heights=[-128,127,0,-1] bits=[3735928559, 1]"), hgts);

  // Bytes and hex in tuples (read in place too), at the edges of their ranges.
  Bytes cells;
  put16(cells, 65535), cells.push_back(0xAB), cells.push_back(0x0C), putf(cells, 0.5f), put16(cells, 0x1F), cells.push_back(0xFF),
      put32(cells, 0x80000000u);
  put16(cells, 0), cells.push_back(0), cells.push_back(0), putf(cells, 1.0f), put16(cells, 0), cells.push_back(0), put32(cells, 0x7FFFFFFF);
  EXPECT_EQ(render("CELL", cells), "[(65535 AB0C 0.5 0x001F 0xFF -2147483648), (0 0000 1.0 0x0000 0x00 2147483647)]");
  EXPECT_EQ(parse("CELL", render("CELL", cells)), cells);
  EXPECT_EQ(parse("CELL", "[(0065535 ab0c 0.5 0x1f 255 -2147483648),(0 0000 1 0X00000 0x0 2147483647)]"), cells);

  // Errors: the value, its column and what was expected, as the general path says them.
  const auto error = [&](const char* field, std::string_view text) {
    try {
      parse(field, text);
    } catch (const SyntaxError& e) {
      return std::to_string(e.column()) + ": " + e.message();
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("COLR", "[(1 2 3),(4 256 6),(7 8 9)]"), "13: expected an unsigned number that fits 8 bits, not '256'");
  EXPECT_EQ(error("COLR", "[(1 2 3),(4 -1 6),(7 8 9)]"), "13: expected an unsigned number that fits 8 bits, not '-1'");
  EXPECT_EQ(error("HGTS", "offset=0 heights=[1,128,0,0] bits=[0,0]"), "21: expected a number that fits 8 bits, not '128'");
  EXPECT_EQ(error("HGTS", "offset=0 heights=[1,-129,0,0] bits=[0,0]"), "21: expected a number that fits 8 bits, not '-129'");
  EXPECT_EQ(parse("COLR", "[(007 0255 -0),(1 +2 3),(0 0 0)]"), (Bytes{7, 255, 0, 1, 2, 3, 0, 0, 0}));
  EXPECT_EQ(parse("HGTS", "offset=-2048 heights=[-128,0127,-000,-0001] bits=[3735928559, 1]"), hgts);
  EXPECT_EQ(error("TRIS", "[(1 2 Edge|Lava 0 NONE)]"), "12: expected a flag name of TriangleFlags or a number that fits 16 bits, not 'Lava'");
  EXPECT_EQ(error("TRIS", "[(1 2 0 0 Nobody)]"), "11: unknown form 'Nobody': expected an EditorID, File.esp:00ABCDEF, @00ABCDEF or NONE");
  EXPECT_EQ(error("VERT", "[(1 2 x)]"), "7: expected a float, not 'x'");
  EXPECT_NE(error("COLR", "[(1 2 3),(4 5 6)]"), "no error");  // two of three
  EXPECT_EQ(error("COLR", "[(1 2 3),(4 5),(7 8 9)]"), "14: expected a number");
  EXPECT_EQ(error("COLR", "[(1 2 3),(4 5 6 7),(7 8 9)]"), "17: expected ')' to end colors (3 values)");
  EXPECT_NE(error("COLR", "[(1 2 3) (4 5 6),(7 8 9)]").find("expected ',' or ']'"), std::string::npos);
  EXPECT_NE(error("VERT", "[(1 2 3)"), "no error");
  EXPECT_EQ(error("CELL", "[(1 AB0 1.0 0x0 0x0 0)]"), "5: expected 2 bytes as 4 hex digits");
  EXPECT_EQ(error("CELL", "[(1 AB0G 1.0 0x0 0x0 0)]"), "5: expected 2 bytes as 4 hex digits");
  EXPECT_EQ(error("CELL", "[(1 AB00 1.0 0x10000 0x0 0)]"), "14: expected an unsigned number that fits 16 bits, not '0x10000'");
  EXPECT_EQ(error("CELL", "[(1 AB00 1.0 0x0 0x100 0)]"), "18: expected an unsigned number that fits 8 bits, not '0x100'");
  EXPECT_EQ(error("CELL", "[(1 AB00 1.0 0x0 0x0 2147483648)]"), "22: expected a number that fits 32 bits, not '2147483648'");
  EXPECT_EQ(error("CELL", "[(1 AB00 1.0 0x0 0x0 -2147483649)]"), "22: expected a number that fits 32 bits, not '-2147483649'");
  EXPECT_EQ(error("CELL", "[(-1 AB00 1.0 0x0 0x0 0)]"), "3: expected an unsigned number that fits 16 bits, not '-1'");
}

// A reader rules out layouts of a field by the text's `name=` keys before it tries any: it may
// rule out only layouts that could not read the text (keys in another order, too few or too
// many, optional members left out or not), whatever else the text holds.
TEST(LayoutLanguage, LayoutsAreRuledOutOnlyByKeysTheyCannotRead) {
  const LayoutTable table = LayoutTable::parse(R"(
struct Pair a:u8 b:u8
field TEST KEYS x:u8 y:u8 z:u8
field TEST KEYS x:u8 y:u8
field TEST KEYS x:u8 w:Pair v:u8? u:u8?
field TEST KEYS value:u32
field TEST KEYS x:u8 y:u16 z:u8
)", "keys.layouts");
  const auto layouts = table.find(sig("TEST"), sig("KEYS"));
  ASSERT_EQ(layouts.size(), 5u);
  const auto kept = [&](std::string_view text) {
    std::vector<char> holds(layouts.size(), 1);
    rule_out_layouts_by_keys(layouts, text, holds);
    std::string out;
    for (char h : holds) out += h ? '1' : '0';
    return out;
  };
  EXPECT_EQ(kept("x=1 y=2 z=3"), "10001");
  EXPECT_EQ(kept("x=1 y=2"), "01000");
  EXPECT_EQ(kept(" x=1  w={a=1 b=2}"), "00100");  // no optional members
  EXPECT_EQ(kept("x=1 w={a=1 b=2} v=3"), "00100");
  EXPECT_EQ(kept("x=1 w={a=1 b=2} v=3 u=4"), "00100");
  // Only as many keys are read as tell the layouts apart (three here): one key too many is left
  // for the parse to find.
  EXPECT_EQ(kept("x=1 w={a=1 b=2} v=3 u=4 t=5"), "00100");
  EXPECT_EQ(kept("x=1 w={a=1 b=2} u=4"), "00000");  // optional members in order only
  EXPECT_EQ(kept("7"), "00010");
  EXPECT_EQ(kept("[1, 2]"), "00010");  // a single member's value: no keys at all
  EXPECT_EQ(kept(R"(x="y=1 z=2" y=2)"), "01000");  // keys inside quotes, brackets or braces are not the field's
  EXPECT_EQ(kept("x=[(1 2) {y=3}] y=2"), "01000");
  EXPECT_EQ(kept("y=1 x=2"), "00000");
  // Layouts whose names all agree are never told apart by keys: all stay.
  const LayoutTable same = LayoutTable::parse("field TEST SAME a:u8 b:u8\nfield TEST SAME a:u16 b:u16\n", "same.layouts");
  std::vector<char> holds(2, 1);
  rule_out_layouts_by_keys(same.find(sig("TEST"), sig("SAME")), "c=1", holds);
  EXPECT_EQ(holds, std::vector<char>({1, 1}));
}

TEST(LayoutLanguage, PrefixedStringsAndMembersAfterAString) {
  Fixture f;
  Bytes s8 = {3, 'a', 'b', 'c', 9};
  EXPECT_EQ(f.render("TEST", "STR8", s8), "text=\"abc\" after=9");
  EXPECT_EQ(f.render("TEST", "STR8", {4, 'a', 'b', 'c', 9}), "(no layout)");  // the length runs past the end
  std::string long_text(300, 'x');
  try {
    f.parse("TEST", "STR8", "text=\"" + long_text + "\" after=1");
    ADD_FAILURE() << "a 300-byte text in a str8";
  } catch (const SyntaxError& e) {
    EXPECT_NE(e.message().find("at most 255"), std::string::npos) << e.message();
  }
  // zstr16: the length counts the zero byte, which must be there.
  EXPECT_EQ(f.render("TEST", "ZS16", {3, 0, 'h', 'i', 0}), "\"hi\"");
  EXPECT_EQ(f.render("TEST", "ZS16", {3, 0, 'h', 'i', 'x'}), "(no layout)");
  EXPECT_EQ(f.parse("TEST", "ZS16", "\"hey\""), (Bytes{4, 0, 'h', 'e', 'y', 0}));
  // DEBR DATA: a zstring in the middle ends at its zero; a member follows.
  Bytes debr = {50};
  put_text(debr, std::string_view("rock.nif\0", 9));
  debr.push_back(1);
  EXPECT_EQ(f.render("DEBR", "DATA", debr), "percent=50 model=\"rock.nif\" flags=1");
  Bytes unterminated = {50, 'r', 'o', 'c', 'k'};
  EXPECT_EQ(f.render("DEBR", "DATA", unterminated), "(no layout)");
}

TEST(LayoutLanguage, StringsInFixedSizeBuffersKeepTheirLeftoverBytes) {
  Fixture f;
  // zstring8: eight bytes, a zero-ended string and then leftover bytes. All zero: the text alone.
  Bytes zeros = {1};
  put_text(zeros, std::string_view("ab\0\0\0\0\0\0" "abcdefg\0", 16));
  EXPECT_EQ(f.render("TEST", "ZBUF", zeros), "flags=1 meshes=[\"ab\", \"abcdefg\"]");
  // Leftovers that are not zero follow the text as +HEX, up to the last byte that is not zero
  // (the zeros after it are put back on reading): the bytes read back exactly.
  Bytes junk = {1};
  put_text(junk, std::string_view("ab\0\x7F\0\x10\0\0" "\0\0\0\0\0\0\0\xFF", 16));
  EXPECT_EQ(f.render("TEST", "ZBUF", junk), "flags=1 meshes=[\"ab\"+7F0010, \"\"+000000000000FF]");
  EXPECT_EQ(f.parse("TEST", "ZBUF", "flags=1 meshes=[\"ab\"+7F0010, \"\"+000000000000FF]"), junk);
  // Edited text: a shorter or longer string moves the zero; the buffer stays eight bytes.
  Bytes edited = {1};
  put_text(edited, std::string_view("abcd\0\0\0\0" "x\0\0\0\0\0\0\0", 16));
  EXPECT_EQ(f.parse("TEST", "ZBUF", "flags=1 meshes=[\"abcd\", \"x\"]"), edited);
  // No zero inside a buffer, or a field of another size: no layout, the field stays hex.
  Bytes full = {1};
  put_text(full, std::string_view("abcdefgh" "x\0\0\0\0\0\0\0", 16));
  EXPECT_EQ(f.render("TEST", "ZBUF", full), "(no layout)");
  Bytes shorter(zeros.begin(), zeros.end() - 1);
  EXPECT_EQ(f.render("TEST", "ZBUF", shorter), "(no layout)");
  // Text that cannot fit the buffer (with its zero and the bytes kept after it) is an error.
  for (const char* text : {"flags=1 meshes=[\"abcdefgh\", \"\"]", "flags=1 meshes=[\"abc\"+0102030405, \"\"]",
                           "flags=1 meshes=[\"ab\"+zz, \"\"]"}) {
    try {
      f.parse("TEST", "ZBUF", text);
      ADD_FAILURE() << text;
    } catch (const SyntaxError& e) {
      EXPECT_TRUE(e.message().find("holds 8 bytes") != std::string::npos ||
                  e.message().find("hex digits after '+'") != std::string::npos)
          << e.message();
    }
  }
  // Inside structs and to-the-end arrays of them.
  Bytes lods;
  put_text(lods, std::string_view("a.n\0\x01\0" "\x02" "\0\0\0\0\0\0" "\x03", 14));
  EXPECT_EQ(f.render("TEST", "ZBST", lods), "[{mesh=\"a.n\"+01 level=2}, {mesh=\"\" level=3}]");
}

TEST(LayoutLanguage, OptionalMembersLetTheFieldEndBeforeThem) {
  Fixture f;
  // The field may end before b, or before items; b cannot be cut in half.
  EXPECT_EQ(f.render("TEST", "OPTL", {7}), "a=7");
  EXPECT_EQ(f.render("TEST", "OPTL", {7, 2, 1}), "a=7 b=258");
  EXPECT_EQ(f.render("TEST", "OPTL", {7, 2, 1, 0x34, 0x12, 0, 0}), "a=7 b=258 items=[BlueTexture]");
  EXPECT_EQ(f.render("TEST", "OPTL", {7, 2}), "(no layout)");
  EXPECT_EQ(f.render("TEST", "OPTL", {7, 2, 1, 0x34}), "(no layout)");
  // Text with fewer members is a shorter field; a member cannot be skipped in the middle.
  EXPECT_EQ(f.parse("TEST", "OPTL", "a=9"), (Bytes{9}));
  EXPECT_EQ(f.parse("TEST", "OPTL", "a=9 b=1"), (Bytes{9, 1, 0}));
  EXPECT_THROW(f.parse("TEST", "OPTL", "a=9 items=[BlueTexture]"), SyntaxError);
  // Only a field's members, and all after the first optional one.
  EXPECT_NE(table_error("field XREC ABCD a:u8 b:u8? c:u8").find("mark it optional too"), std::string::npos);
  EXPECT_NE(table_error("struct S a:u8 b:u8?").find("only a field's members"), std::string::npos);
  EXPECT_NE(table_error("field XREC ABCD a:u8?").find("first member"), std::string::npos);
}

TEST(LayoutLanguage, FixedValuesChooseAmongLayoutsOfAField) {
  Fixture f;
  Bytes topic;
  put32(topic, 0);
  put32(topic, 0x20);
  Bytes subtype;
  put32(subtype, 1);
  put_text(subtype, "HELO");
  EXPECT_EQ(f.render("REFR", "PDTO", topic), "type=Topic topic=Player");
  EXPECT_EQ(f.render("REFR", "PDTO", subtype), "type=Subtype subtype=HELO");
  EXPECT_EQ(f.parse("REFR", "PDTO", "type=Subtype subtype=HELO"), subtype);
  EXPECT_EQ(f.parse("REFR", "PDTO", "type=0 topic=Player"), topic);
  Bytes other;
  put32(other, 2);
  put32(other, 0);
  EXPECT_EQ(f.render("REFR", "PDTO", other), "(no layout)");  // neither value: hex
  EXPECT_THROW(f.parse("REFR", "PDTO", "type=Topic subtype=HELO"), SyntaxError);
}

TEST(LayoutLanguage, EditorIdPrefixDecides) {
  Fixture f;
  const std::string float_id("fJumpHeight\0", 12), int_id("iMaxLevel\0", 10), other_id("sName\0", 6);
  std::vector<FieldRef> earlier{{sig("EDID"), {reinterpret_cast<const std::uint8_t*>(float_id.data()), float_id.size()}}};
  FieldSite site;
  site.record_type = sig("GMST");
  site.earlier = earlier;
  Bytes hundred;
  putf(hundred, 100.0f);
  EXPECT_EQ(f.render("GMST", "DATA", hundred, &site), "100.0");
  EXPECT_EQ(f.parse("GMST", "DATA", "2.5", &site), ([] { Bytes b; putf(b, 2.5f); return b; })());
  earlier[0].data = {reinterpret_cast<const std::uint8_t*>(int_id.data()), int_id.size()};
  EXPECT_EQ(f.render("GMST", "DATA", {0xFF, 0xFF, 0xFF, 0xFF}, &site), "-1");
  EXPECT_EQ(f.parse("GMST", "DATA", "100", &site), (Bytes{100, 0, 0, 0}));
  earlier[0].data = {reinterpret_cast<const std::uint8_t*>(other_id.data()), other_id.size()};
  EXPECT_EQ(f.render("GMST", "DATA", hundred, &site), "0x42C80000");  // the generic layout
  EXPECT_EQ(f.render("GMST", "DATA", hundred), "0x42C80000");          // no EditorID at all
}

// The record's form version decides (Skyrim model information: the header form from 40, bare
// texture hashes in 38 and 39, nothing known before 38), and a table that says it wrong is an error.
TEST(LayoutLanguage, FormVersionDecides) {
  const LayoutTable table = LayoutTable::parse(R"(
struct Hash file:x32 extension:sig folder:x32
field * MODT header-count:u32=2 textures:u32 addons:u32 hashes:Hash[@textures] addon-list:u32[@addons]
field * MODT if version>=38 if version<40 hashes:Hash[]
)", "versions.layouts");
  Bytes bare;
  put32(bare, 0x11111111), bare.insert(bare.end(), {'d', 'd', 's', 0}), put32(bare, 0x22222222);
  Bytes header;
  put32(header, 2), put32(header, 1), put32(header, 0);
  header.insert(header.end(), bare.begin(), bare.end());
  FieldSite site;
  site.record_type = sig("ARMO");
  const auto chosen = [&](const Bytes& data, std::uint16_t version) -> int {
    site.form_version = version;
    const FieldLayout* l = table.choose(sig("MODT"), data, site);
    return l ? int(l->table_line) : 0;
  };
  const auto layouts = table.find(sig("ARMO"), sig("MODT"));
  ASSERT_EQ(layouts.size(), 2u);
  const int header_form = int(layouts[0]->table_line), bare_form = int(layouts[1]->table_line);
  EXPECT_EQ(chosen(header, 44), header_form);
  EXPECT_EQ(chosen(header, 40), header_form);
  EXPECT_EQ(chosen(bare, 44), 0);  // whole hashes in a record of form 40 or later: hex, as xEdit says
  EXPECT_EQ(chosen(bare, 40), 0);
  EXPECT_EQ(chosen(bare, 39), bare_form);
  EXPECT_EQ(chosen(bare, 38), bare_form);
  EXPECT_EQ(chosen(bare, 37), 0);  // before 38: a form nobody knows
  EXPECT_EQ(chosen(bare, 0), 0);
  // A text reader takes the bare form in any record (its key says which form it is), so text
  // written before the version decided still imports.
  site.reading_text = true;
  site.form_version = 44;
  EXPECT_TRUE(table.applies(*layouts[1], {}, site));

  EXPECT_NE(table_error("field * MODT if version<forty value:u32\n").find("expected version<N or version>=N"), std::string::npos);
  EXPECT_NE(table_error("field * MODT if version>=70000 value:u32\n").find("expected version<N or version>=N"), std::string::npos);
}

TEST(LayoutLanguage, SectionsAndThePreviousFieldDecide) {
  Fixture f;
  const Bytes four = {0x40, 0, 0, 0};
  std::vector<FieldRef> fields{{sig("EDID"), {}}, {sig("QOBJ"), {}}, {sig("FNAM"), four}, {sig("ALST"), {}}};
  FieldSite site;
  site.record_type = sig("QUST");
  site.earlier = std::span<const FieldRef>(fields).first(1);
  EXPECT_EQ(f.render("QUST", "FNAM", {1, 0}, &site), "1");  // before any section: the quest's own
  site.earlier = std::span<const FieldRef>(fields).first(2);
  EXPECT_EQ(f.render("QUST", "FNAM", four, &site), "64");  // an objective's flags
  site.earlier = fields;
  EXPECT_EQ(f.render("QUST", "FNAM", four, &site), "Essential");  // an alias's flags
  EXPECT_EQ(f.parse("QUST", "FNAM", "Essential|ReservesLocation", &site), (Bytes{0x41, 0, 0, 0}));

  std::vector<FieldRef> lens{{sig("LFSP"), {}}};
  site.record_type = sig("LENS");
  site.earlier = lens;
  EXPECT_EQ(f.render("LENS", "DNAM", {2, 0, 0, 0}, &site), "2");
  EXPECT_EQ(f.table.find(sig("LENS"), sig("DNAM")).size(), 2u);
  const FieldLayout* chosen = f.table.choose(sig("DNAM"), Bytes{2, 0, 0, 0}, site);
  ASSERT_NE(chosen, nullptr);
  EXPECT_EQ(chosen->members[0].name, "sprite-flags");
  site.earlier = {};
  chosen = f.table.choose(sig("DNAM"), Bytes{2, 0, 0, 0}, site);
  ASSERT_NE(chosen, nullptr);
  EXPECT_EQ(chosen->members[0].name, "count");
}

TEST(LayoutLanguage, AnEarlierFieldsMemberDecides) {
  Fixture f;
  Bytes data;
  putf(data, 1.5f);
  const Bytes one = {1}, two = {2}, three = {3}, zero = {0};
  std::vector<FieldRef> earlier{{sig("EPFT"), one}};
  FieldSite site;
  site.record_type = sig("PERK");
  site.earlier = earlier;
  EXPECT_EQ(f.render("PERK", "EPFD", data, &site), "1.5");
  earlier[0].data = two;  // type&2: a form
  EXPECT_EQ(f.render("PERK", "EPFD", {0x20, 0, 0, 0}, &site), "Player");
  earlier[0].data = three;  // 3 is not 1, and has bit 2: the form layout
  EXPECT_EQ(f.render("PERK", "EPFD", {0x20, 0, 0, 0}, &site), "Player");
  earlier[0].data = zero;
  EXPECT_EQ(f.render("PERK", "EPFD", {0x20, 0, 0, 0}, &site), "0x00000020");
  // The last EPFT before the field decides, not an earlier one.
  std::vector<FieldRef> two_types{{sig("EPFT"), two}, {sig("EPFD"), {}}, {sig("EPFT"), one}};
  site.earlier = two_types;
  EXPECT_EQ(f.render("PERK", "EPFD", data, &site), "1.5");
}

TEST(LayoutLanguage, TheTypeOfANamedRecordDecidesWhenKnown) {
  Fixture f;
  auto coed = [](std::uint32_t owner, std::uint32_t second) {
    Bytes b;
    put32(b, owner);
    put32(b, second);
    putf(b, 1.0f);
    return b;
  };
  FieldSite site;
  site.record_type = sig("FACT");
  site.record_type_of = [](std::uint32_t id) -> std::optional<Signature> {
    if (id == 0x20) return sig("NPC_");
    if (id == 0x1234) return sig("FACT");
    return std::nullopt;
  };
  EXPECT_EQ(f.render("FACT", "COED", coed(0x20, 0x1234), &site), "owner=Player global=BlueTexture condition=1.0");
  EXPECT_EQ(f.render("FACT", "COED", coed(0x1234, 2), &site), "owner=BlueTexture rank=2 condition=1.0");
  EXPECT_EQ(f.render("FACT", "COED", coed(0x77, 2), &site), "owner=@00000077 value=0x00000002 condition=1.0");
  EXPECT_EQ(f.render("FACT", "COED", coed(0x20, 0x1234)), "owner=Player value=0x00001234 condition=1.0");  // not at hand
  // Text readers cannot ask; the member names tell the alternatives apart.
  EXPECT_EQ(f.parse("FACT", "COED", "owner=BlueTexture rank=2 condition=1.0"), coed(0x1234, 2));
  EXPECT_EQ(f.parse("FACT", "COED", "owner=Player global=BlueTexture condition=1.0"), coed(0x20, 0x1234));
}

TEST(LayoutLanguage, HeaderFlagsPerRecordType) {
  Fixture f;
  const fields::ValueNames* armor = f.table.header_flags(sig("ARMO"));
  ASSERT_NE(armor, nullptr);
  EXPECT_EQ(armor->name, "ArmorFlags");
  EXPECT_EQ(f.table.header_flags(sig("WEAP"))->name, "RecordFlags");  // the default
  // REFR: by the type of its base object, when that is at hand.
  const Bytes base = {0x20, 0, 0, 0};
  std::vector<FieldRef> fields{{sig("NAME"), base}};
  FieldSite site;
  site.record_type = sig("REFR");
  site.earlier = fields;
  site.record_type_of = [](std::uint32_t id) -> std::optional<Signature> {
    return id == 0x20 ? std::optional(sig("LIGH")) : std::nullopt;
  };
  EXPECT_EQ(f.table.header_flags(sig("REFR"), &site)->name, "LightRefFlags");
  site.record_type_of = {};
  EXPECT_EQ(f.table.header_flags(sig("REFR"), &site)->name, "RecordFlags");
  EXPECT_EQ(f.table.header_flags(sig("REFR"))->name, "RecordFlags");
  // Reading text: every set the type may use.
  EXPECT_EQ(f.table.header_flag_sets(sig("REFR")).size(), 1u);
  EXPECT_TRUE(f.table.has_header_flags(sig("ARMO")));
  EXPECT_FALSE(f.table.has_header_flags(sig("WEAP")));
}

TEST(LayoutLanguage, FormIdsInsideStructsAreFound) {
  Fixture f;
  Bytes data;
  put32(data, 2);
  for (const Bytes& t : {texture_bytes("A", 0x1234, 0), texture_bytes("Bee", 0x99, 1)}) data.insert(data.end(), t.begin(), t.end());
  const FieldLayout* layout = f.table.choose(sig("ARMO"), sig("MO2S"), data, false);
  ASSERT_NE(layout, nullptr);
  std::vector<std::size_t> offsets;
  fields::for_each_form_id(*layout, data, false, [&](std::size_t at, const LayoutMember& m) {
    offsets.push_back(at);
    EXPECT_EQ(m.name, "texture");
    ASSERT_EQ(m.form_types.size(), 1u);
    EXPECT_EQ(m.form_types[0], sig("TXST"));
  });
  // count (4) + length (4) + "A" (1) = 9; the first element is 13 bytes, so the second starts at
  // 17: length (4) + "Bee" (3) -> 24.
  EXPECT_EQ(offsets, (std::vector<std::size_t>{9, 24}));
}

TEST(LayoutLanguage, TableMistakesAreErrorsWithTheirLine) {
  EXPECT_NE(table_error("field XREC ABCD a:Missing[]").find("t.layouts:1"), std::string::npos);
  EXPECT_NE(table_error("field XREC ABCD a:Missing[]").find("no struct named 'Missing'"), std::string::npos);
  EXPECT_NE(table_error("struct S a:u8 rest:bytes").find("cannot take the rest"), std::string::npos);
  EXPECT_NE(table_error("struct S a:u8[]").find("cannot take the rest"), std::string::npos);
  EXPECT_NE(table_error("field QUST FNAM if in=ALST a:u8").find("sections QUST"), std::string::npos);
  EXPECT_NE(table_error("field XREC ABCD if a->NPC_ a:u32").find("formid member"), std::string::npos);
  EXPECT_NE(table_error("field XREC ABCD if EPFT.type=1 a:u32").find("integer member 'type'"), std::string::npos);
  EXPECT_NE(table_error("field XREC ABCD if wat a:u32").find("unknown condition"), std::string::npos);
  EXPECT_NE(table_error("field XREC ABCD a:u32=zz").find("fixed value"), std::string::npos);
  EXPECT_NE(table_error("header XREC NoSuchFlags").find("no flags named"), std::string::npos);
  EXPECT_NE(table_error("field XREC ABCD a:zstring1").find("zstringN with N from 2"), std::string::npos);
  // A label meaning two bits among the sets one record type may use.
  EXPECT_NE(table_error("flags A\n  0x1 Same\nflags B\n  0x2 Same\nheader REFR if NAME->LIGH A\nheader REFR B\n")
                .find("'Same' names"),
            std::string::npos);
  // '#' starts a comment only at the start of a line or after a blank.
  const LayoutTable t = LayoutTable::parse("field XREC ABCD items:u16[#u32]  # a comment\n", "t.layouts");
  const auto found = t.find(sig("XREC"), sig("ABCD"));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->members[0].count_prefix, 4);
  EXPECT_FALSE(found[0]->simple);
}

}  // namespace
}  // namespace tesmod::text
