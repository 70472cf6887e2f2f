#include "tesmod/text/field_text.hpp"

#include <gtest/gtest.h>

#include <bit>

#include "tesmod/error.hpp"

namespace tesmod::text {
namespace {

constexpr std::string_view kTable = R"(
# a small table in the format of src/fields/layouts/*.layouts
enum WeaponType
  0 BladeOneHand
  1 BladeTwoHand
  -1 None
flags NpcFlags
  0x1 Female
  0x2 Essential
field * EDID name:zstring
field * FULL name:lstring
field * KWDA keywords:formid[]
field WEAP DATA value:u32 weight:f32 damage:u16
field WEAP DNAM type:i8/WeaponType speed:f32 color:x32 unused:bytes3
field NPC_ ACBS flags:u32/NpcFlags level:i16 pad:u16[2]
field * XSIG code:sig
field * DATA anything:bytes
)";

// Names FormIDs by a tiny table; 0 is NONE.
class TestNamer final : public FormNamer {
 public:
  std::string name(std::uint32_t id) const override {
    if (id == 0) return "NONE";
    if (id == 0x12EB7) return "IronSword";
    return "0x" + std::to_string(id);  // decimal digits after 0x are fine for the test
  }
  std::optional<std::uint32_t> resolve(std::string_view text) const override {
    if (text == "NONE") return 0;
    if (text == "IronSword") return 0x12EB7;
    if (text.starts_with("0x")) return std::uint32_t(std::stoul(std::string(text.substr(2))));
    return std::nullopt;
  }
};

struct Fixture {
  LayoutTable table = LayoutTable::parse(kTable, "test.layouts");
  TestNamer namer;
  TextCodec codec;
  FieldTextContext context{&namer, &codec, false, {}};

  std::string render(const char* record, const char* field, std::vector<std::uint8_t> data) {
    for (const FieldLayout* layout : table.find(Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(record)),
                                                Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(field)))) {
      std::string out;
      if (append_layout_value(out, *layout, data, context)) {
        // Whatever is written reads back to the same bytes.
        LineScanner line(out, 1);
        EXPECT_EQ(parse_layout_value(*layout, line, context), data) << out;
        return out;
      }
    }
    return "(no layout)";
  }
  std::vector<std::uint8_t> parse(const char* record, const char* field, std::string_view text) {
    const auto layouts = table.find(Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(record)),
                                    Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(field)));
    LineScanner line(text, 1);
    return parse_layout_value(*layouts.front(), line, context);
  }
};

std::vector<std::uint8_t> bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

TEST(FieldText, RendersByLayoutAndReadsBack) {
  Fixture f;
  EXPECT_EQ(f.render("WEAP", "EDID", bytes_of(std::string_view("IronSword\0", 10))), "\"IronSword\"");
  EXPECT_EQ(f.render("WEAP", "FULL", bytes_of(std::string_view("Iron Sword\0", 11))), "\"Iron Sword\"");
  // value 25, weight 9.0, damage 7
  EXPECT_EQ(f.render("WEAP", "DATA", {25, 0, 0, 0, 0, 0, 0x10, 0x41, 7, 0}), "value=25 weight=9.0 damage=7");
  EXPECT_EQ(f.render("WEAP", "DNAM", {0xFF, 0, 0, 0x80, 0x3F, 0x78, 0x56, 0x34, 0x12, 0xCD, 0xCD, 0xCD}),
            "type=None speed=1.0 color=0x12345678 unused=CDCDCD");
  EXPECT_EQ(f.render("WEAP", "DNAM", {5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}),
            "type=5 speed=0.0 color=0x00000000 unused=000000");
  EXPECT_EQ(f.render("NPC_", "ACBS", {0x03, 0x01, 0, 0, 0xFE, 0xFF, 1, 0, 2, 0}),
            "flags=Female|Essential|0x100 level=-2 pad=[1, 2]");
  EXPECT_EQ(f.render("NPC_", "ACBS", {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), "flags=0 level=0 pad=[0, 0]");
  EXPECT_EQ(f.render("NPC_", "KWDA", {0xB7, 0x2E, 1, 0, 0, 0, 0, 0}), "[IronSword, NONE]");
  EXPECT_EQ(f.render("NPC_", "KWDA", {}), "[]");
  EXPECT_EQ(f.render("NPC_", "XSIG", bytes_of("NPC_")), "NPC_");
  EXPECT_EQ(f.render("NPC_", "XSIG", {'A', 0, 'B', 'C'}), "\"A\\x00BC\"");
  EXPECT_EQ(f.render("NPC_", "DATA", {0xDE, 0xAD}), "DEAD");
  // Floats keep their bits, NaN payloads included.
  EXPECT_EQ(f.render("WEAP", "DATA", {0, 0, 0, 0, 1, 0, 0xC0, 0x7F, 0, 0}), "value=0 weight=0x7FC00001 damage=0");
}

TEST(FieldText, FieldsThatDoNotFitAreLeftToHex) {
  Fixture f;
  EXPECT_EQ(f.render("WEAP", "DATA", {1, 2, 3}), "010203");  // the WEAP layout is 10 bytes: the '*' one
  EXPECT_EQ(f.render("WEAP", "EDID", bytes_of("abc")), "(no layout)");    // no terminator
  EXPECT_EQ(f.render("WEAP", "EDID", {}), "(no layout)");
  EXPECT_EQ(f.render("NPC_", "KWDA", {1, 2, 3}), "(no layout)");          // not a whole number of FormIDs
  EXPECT_EQ(f.render("MISC", "DATA", {1, 2, 3}), "010203");               // the '*' layout
}

TEST(FieldText, HandWrittenValuesAndErrors) {
  Fixture f;
  EXPECT_EQ(f.parse("WEAP", "DATA", "value=0x10 weight=2 damage=+3"), (std::vector<std::uint8_t>{16, 0, 0, 0, 0, 0, 0, 0x40, 3, 0}));
  EXPECT_EQ(f.parse("NPC_", "ACBS", "flags=essential|female level=-1 pad=[0,0]"),
            (std::vector<std::uint8_t>{3, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0}));
  // Flag names as written, numbers and names in another case, in one value.
  EXPECT_EQ(f.parse("NPC_", "ACBS", "flags=Female|256|ESSENTIAL|0x4000 level=0 pad=[0,0]"),
            (std::vector<std::uint8_t>{3, 0x41, 0, 0, 0, 0, 0, 0, 0, 0}));
  auto error = [&](const char* record, const char* field, std::string_view text) -> SyntaxError {
    try {
      f.parse(record, field, text);
    } catch (const SyntaxError& e) {
      return e;
    }
    ADD_FAILURE() << "no error for " << text;
    return SyntaxError(0, 0, "");
  };
  auto e = error("WEAP", "DATA", "value=25 weight=9.0 dmg=7");
  EXPECT_EQ(e.column(), 21u);
  EXPECT_EQ(e.message(), "expected 'damage='");
  e = error("WEAP", "DATA", "value=-1 weight=9.0 damage=7");
  EXPECT_EQ(e.column(), 7u);
  e = error("WEAP", "DATA", "value=1 weight=9.0 damage=70000");
  EXPECT_EQ(e.column(), 27u);
  e = error("NPC_", "KWDA", "[IronSword, SteelSword]");
  EXPECT_EQ(e.column(), 13u);
  EXPECT_NE(e.message().find("unknown form 'SteelSword'"), std::string::npos);
  e = error("NPC_", "ACBS", "flags=Female|Mortal level=1 pad=[0, 0]");
  EXPECT_EQ(e.column(), 14u);
  e = error("NPC_", "ACBS", "flags=0 level=1 pad=[0]");
  EXPECT_NE(e.message().find("exactly 2"), std::string::npos);
  e = error("WEAP", "DATA", "value=1 weight=1.0 damage=1 extra");
  EXPECT_NE(e.message().find("end of the line"), std::string::npos);
}

TEST(FieldText, LocalizedStringsAreIds) {
  Fixture f;
  f.context.localized = true;
  f.context.string_text = [](Signature, std::uint32_t id) -> std::optional<std::string> {
    if (id == 0x1234) return std::string("Iron Sword");
    return std::nullopt;
  };
  EXPECT_EQ(f.render("WEAP", "FULL", {0x34, 0x12, 0, 0}), "lstring 0x00001234 \"Iron Sword\"");
  EXPECT_EQ(f.render("WEAP", "FULL", {0x35, 0x12, 0, 0}), "lstring 0x00001235");
  EXPECT_THROW(f.parse("WEAP", "FULL", "\"Iron Sword\""), SyntaxError);
}

TEST(FieldText, TablesAreCheckedWhenRead) {
  auto fails = [](std::string_view table, std::string_view expected) {
    try {
      LayoutTable::parse(table, "t.layouts");
      ADD_FAILURE() << "accepted: " << table;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  fails("field * DATA a:u33", "t.layouts:1");
  fails("\nfield * DATA a:u8 a:u8", "t.layouts:2");
  fails("field * DATA a:bytes b:u8", "follows a member");
  fails("field * DATA a:u8/Missing", "no enum or flags named 'Missing'");
  fails("field * DATA a:x8/Flags\nflags Flags\n  0x1 A", "only decimal integer");
  fails("field * FULL a:u8 b:lstring", "only member");
  fails("enum E\n  0 A\n  1 A", "already in E");
  fails("banana", "unknown line");
  // Every built-in table reads.
  EXPECT_NO_THROW(layout_table(Game::Oblivion));
  EXPECT_NO_THROW(layout_table(Game::SkyrimSE));
}

}  // namespace
}  // namespace tesmod::text
