// Records and groups as text: hand-written text to bytes, bytes to text and back, and the
// errors a user sees for bad text.
#include "tesmod/text/record_text.hpp"

#include <gtest/gtest.h>

#include "byte_builder.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/compressed_body.hpp"
#include "tesmod/plugin/field.hpp"
#include "tesmod/text/text_namer.hpp"

namespace tesmod::text {
namespace {

struct Fixture {
  TextNamer namer{{"Skyrim.esm", "My Mod.esp"}};
  TextCodec codec;
  RecordTextOptions options;
  Inflater inflater;

  explicit Fixture(Game game = Game::SkyrimSE) {
    namer.add(0x00012EB7, "IronSword", TextNamer::Source::Master);
    namer.add(0x01000800, "MyCoin", TextNamer::Source::Plugin);
    namer.finish();
    options.game = game;
    options.namer = &namer;
    options.codec = &codec;
    options.default_form_version = 44;
  }

  std::vector<std::uint8_t> read(std::string_view text) {
    std::vector<std::uint8_t> out;
    read_entries_text(text, options, out);
    return out;
  }
  std::string write(const RecordHeader& h, std::span<const std::uint8_t> body) {
    std::string out;
    append_record_text(out, h, body, options, inflater);
    return out;
  }
  SyntaxError error(std::string_view text) {
    try {
      read(text);
    } catch (const SyntaxError& e) {
      return e;
    }
    ADD_FAILURE() << "no error for:\n" << text;
    return SyntaxError(0, 0, "");
  }
};

std::vector<std::uint8_t> body_of(const std::vector<Field>& fields) {
  std::vector<std::uint8_t> out;
  encode_fields(fields, out);
  return out;
}

std::vector<std::uint8_t> record_bytes(RecordHeader h, std::span<const std::uint8_t> body, Game game) {
  std::vector<std::uint8_t> out(header_size(game));
  h.data_size = std::uint32_t(body.size());
  h.write(out.data(), game);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

TEST(RecordText, HandWrittenRecordBecomesItsBytes) {
  Fixture f;
  const auto bytes = f.read(R"(
record MISC 01000800 flags=Persistent vc=0x00001234
  EDID "MyCoin"
  # a comment, and blank lines, are ignored

  DATA value=25 weight=0.5
  KWDA [IronSword, Skyrim.esm:00013794, NONE]
  ZZZZ hex 0A0b 0C
  MARK
)");
  RecordHeader h;
  h.type = Signature("MISC");
  h.form_id = 0x01000800;
  h.flags = 0x400;
  h.version_control = 0x1234;
  h.form_version = 44;
  const std::uint8_t data[] = {25, 0, 0, 0, 0, 0, 0, 0x3F};
  const std::uint8_t kwda[] = {0xB7, 0x2E, 1, 0, 0x94, 0x37, 1, 0, 0, 0, 0, 0};
  const std::uint8_t hex[] = {0x0A, 0x0B, 0x0C};
  const auto body = body_of({Field::zstring("EDID", "MyCoin"), Field::bytes("DATA", data), Field::bytes("KWDA", kwda),
                             Field::bytes("ZZZZ", hex), Field::bytes("MARK", {})});
  EXPECT_EQ(bytes, record_bytes(h, body, Game::SkyrimSE));
}

TEST(RecordText, WrittenTextReadsBackExactly) {
  Fixture f;
  RecordHeader h;
  h.type = Signature("MISC");
  h.form_id = 0x01000800;
  h.flags = 0x420;
  h.form_version = 43;
  h.version_control_2 = 7;
  const std::uint8_t data[] = {25, 0, 0, 0, 0, 0, 0xC0, 0x7F};  // weight NaN
  std::vector<std::uint8_t> big(70000, 0xAB);
  Field small_prefixed = Field::bytes("NVNM", std::vector<std::uint8_t>{1, 2});
  small_prefixed.oversize = true;
  Field big_with_size = Field::bytes("NVNM", big);
  big_with_size.oversize = true;
  big_with_size.stored_size = 12;
  const auto body = body_of({Field::zstring("EDID", "MyCoin"), Field::bytes("DATA", data), Field::bytes("NVNM", big),
                             small_prefixed, big_with_size, Field::bytes("\x01\x02zz", {})});
  const std::string text = f.write(h, body);
  EXPECT_NE(text.find("record MISC 01000800 flags=Deleted|Persistent form-version=43 vc2=7\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  DATA value=25 weight=0x7FC00000\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  XXXX\n  NVNM hex 0102\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  XXXX stored-size=12\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  0x7A7A0201\n"), std::string::npos) << text;
  EXPECT_EQ(f.read(text), record_bytes(h, body, Game::SkyrimSE));
  EXPECT_TRUE(record_text_reads_back(text, h, body, f.options));
}

// Header flags are named per record type by the game's layout table (its `header` lines).
TEST(RecordText, HeaderFlagsAreNamedPerRecordType) {
  auto header_line = [](Game game, const char* type, std::uint32_t flags) {
    Fixture f(game);
    RecordHeader h;
    h.type = Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(type));
    h.form_id = 0x01000800;
    h.flags = flags;
    h.form_version = game == Game::Oblivion ? 0 : 44;
    const std::string text = f.write(h, body_of({Field::zstring("EDID", "Thing")}));
    EXPECT_EQ(f.read(text), record_bytes(h, body_of({Field::zstring("EDID", "Thing")}), game)) << text;
    return text.substr(0, text.find('\n'));
  };
  // Oblivion: 0x400 is a quest item on base objects, persistence on references.
  EXPECT_EQ(header_line(Game::Oblivion, "BOOK", 0x400), "record BOOK 01000800 flags=QuestItem");
  EXPECT_EQ(header_line(Game::Oblivion, "REFR", 0x400), "record REFR 01000800 flags=Persistent");
  // Skyrim: ARMO's own bits, and the general names for the bits its set leaves out.
  EXPECT_EQ(header_line(Game::SkyrimSE, "ARMO", 0x44), "record ARMO 01000800 flags=NonPlayable|Shield");
  EXPECT_EQ(header_line(Game::SkyrimSE, "MISC", 0x420), "record MISC 01000800 flags=Deleted|Persistent");
  EXPECT_EQ(header_line(Game::SkyrimSE, "GLOB", 0x40), "record GLOB 01000800 flags=Constant");
  // The file header keeps its own names.
  EXPECT_EQ(header_line(Game::SkyrimSE, "TES4", 0x81), "record TES4 01000800 flags=ESM|Localized");
  // Text written before the names were per type still reads: `Persistent` on an Oblivion book.
  Fixture old(Game::Oblivion);
  const auto bytes = old.read("record BOOK 01000800 flags=Persistent\n  EDID \"Thing\"\n");
  RecordHeader h;
  h.type = Signature("BOOK");
  h.form_id = 0x01000800;
  h.flags = 0x400;
  EXPECT_EQ(bytes, record_bytes(h, body_of({Field::zstring("EDID", "Thing")}), Game::Oblivion));
}

TEST(RecordText, CompressedRecordKeepsItsStreamWhileUnchanged) {
  Fixture f;
  RecordHeader h;
  h.type = Signature("MISC");
  h.form_id = 0x01000800;
  h.flags = 0x40000;
  h.form_version = 44;
  const auto raw = body_of({Field::zstring("EDID", "MyCoin"), Field::zstring("MODL", "clutter\\coin.nif")});
  // A stream no compressor of ours writes (stored blocks), so reuse is visible.
  std::vector<std::uint8_t> stored(4);
  le::store(stored.data(), std::uint32_t(raw.size()));
  const std::uint8_t zlib_head[] = {0x78, 0x01, 0x01};
  stored.insert(stored.end(), zlib_head, zlib_head + 3);
  stored.push_back(std::uint8_t(raw.size()));
  stored.push_back(0);
  stored.push_back(std::uint8_t(~raw.size()));
  stored.push_back(0xFF);
  stored.insert(stored.end(), raw.begin(), raw.end());
  std::uint32_t a = 1, b = 0;
  for (std::uint8_t c : raw) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  const std::uint32_t adler = b << 16 | a;
  for (int k = 3; k >= 0; --k) stored.push_back(std::uint8_t(adler >> (8 * k)));
  ASSERT_EQ(inflate_record_body(stored, f.inflater, ErrorContext{}).size(), raw.size());

  const std::string text = f.write(h, stored);
  EXPECT_NE(text.find("zlib-stored "), std::string::npos);
  EXPECT_EQ(f.read(text), record_bytes(h, stored, Game::SkyrimSE));
  // Edited: compressed anew, and what it holds is the edit.
  std::string edited = text;
  edited.replace(edited.find("coin.nif"), 8, "gold.nif");
  const auto out = f.read(edited);
  const std::span<const std::uint8_t> body(out.data() + 24, out.size() - 24);
  EXPECT_NE(std::vector<std::uint8_t>(body.begin(), body.end()), stored);
  const auto inflated = inflate_record_body(body, f.inflater, ErrorContext{});
  const std::string text_of(inflated.begin(), inflated.end());
  EXPECT_NE(text_of.find("gold.nif"), std::string::npos);
}

TEST(RecordText, UnreadableRecordIsKeptAsStored) {
  Fixture f;
  RecordHeader h;
  h.type = Signature("MISC");
  h.form_id = 0x01000801;
  h.form_version = 44;
  const std::vector<std::uint8_t> broken{'E', 'D', 'I', 'D', 9, 0, 'x'};  // a field running past the end
  const std::string text = f.write(h, broken);
  EXPECT_NE(text.find("  stored-body 4544494409007"), std::string::npos) << text;
  EXPECT_EQ(f.read(text), record_bytes(h, broken, Game::SkyrimSE));
}

// Found by fuzz/text_import_fuzzer: a field type of four zero bytes was looked up among the
// layouts of every record type under key 0, which matched an empty slot of the table.
TEST(RecordText, FieldTypeOfZeroBytesIsHex) {
  for (Game game : {Game::SkyrimSE, Game::Oblivion}) {
    Fixture f(game);
    RecordHeader h;
    h.type = Signature("MISC");
    h.form_id = 0x01000802;
    h.form_version = game == Game::Oblivion ? 0 : 44;
    const std::uint8_t data[] = {1, 2};
    const auto body = body_of({Field::zstring("EDID", "Zero"), Field::bytes(Signature(), data)});
    const std::string text = f.write(h, body);
    EXPECT_NE(text.find("  0x00000000 hex 0102\n"), std::string::npos) << text;
    EXPECT_EQ(f.read(text), record_bytes(h, body, game));
    EXPECT_EQ(f.read("record MISC 01000802\n  0x00000000 hex 0102\n").size(), header_size(game) + 8);
  }
}

TEST(RecordText, GroupsNestAndGetTheirSizes) {
  Fixture f(Game::Oblivion);
  const auto bytes = f.read(R"(group cell_children MyCoin stamp=0x00000C0E {
  group cell_temporary_children MyCoin {
    record REFR 01000900
      NAME IronSword
  }
}
group exterior_cell_block x=-2 y=5 {
}
)");
  // 20-byte headers: the outer group holds the inner group, which holds one record of 10 bytes of fields.
  ASSERT_EQ(bytes.size(), 20u + 20u + 20u + 10u + 20u);
  EXPECT_EQ(le::u32(bytes.data() + 4), 70u);
  EXPECT_EQ(le::u32(bytes.data() + 8), 0x01000800u);
  EXPECT_EQ(le::u32(bytes.data() + 12), 6u);
  EXPECT_EQ(le::u32(bytes.data() + 16), 0xC0Eu);
  EXPECT_EQ(le::u32(bytes.data() + 24), 50u);
  EXPECT_EQ(le::u32(bytes.data() + 32), 9u);
  EXPECT_EQ(le::u32(bytes.data() + 66), 0x00012EB7u);  // NAME: after two group headers, a record header, a field header
  EXPECT_EQ(le::u32(bytes.data() + 70 + 8), 0xFFFE0005u);  // x=-2 (high half) y=5 (low half)
  EXPECT_EQ(le::u32(bytes.data() + 70 + 12), 4u);
}

TEST(RecordText, ConditionLinesBecomeCtdaFields) {
  Fixture f;
  const auto bytes = f.read(R"(record INFO 01000900
  CTDA GetIsID(IronSword) == 1.0 OR
)");
  ASSERT_EQ(bytes.size(), 24u + 6u + 32u);
  const std::uint8_t* ctda = bytes.data() + 30;
  EXPECT_EQ(ctda[0], 0x01);                       // == and OR
  EXPECT_EQ(le::f32(ctda + 4), 1.0f);
  EXPECT_EQ(le::u32(ctda + 12), 0x00012EB7u);     // param 1
}

TEST(RecordText, BadTextNamesLineColumnAndWhatWasExpected) {
  Fixture f;
  auto e = f.error("record MISC 01000800\n  DATA value=25 wieght=0.5\n");
  EXPECT_EQ(e.line(), 2u);
  EXPECT_EQ(e.column(), 17u);
  EXPECT_NE(e.message().find("expected 'weight='"), std::string::npos) << e.message();
  EXPECT_NE(e.message().find("MISC 01000800"), std::string::npos) << e.message();

  e = f.error("record MISC 01000800\n  KWDA [IronSword, SteelSword]\n");
  EXPECT_EQ(e.line(), 2u);
  EXPECT_EQ(e.column(), 20u);
  EXPECT_NE(e.message().find("unknown form 'SteelSword'"), std::string::npos);

  e = f.error("record MISC 01000800\n  QQQQ 12\n");
  EXPECT_NE(e.message().find("QQQQ hex"), std::string::npos) << e.message();

  e = f.error("record INFO 01000900\n  CTDA GetIsID(IronSword) =! 1.0\n");
  EXPECT_EQ(e.line(), 2u);
  EXPECT_GT(e.column(), 26u);

  e = f.error("group top MISC {\nrecord MISC 01000800\n");
  EXPECT_EQ(e.line(), 1u);
  EXPECT_NE(e.message().find("not closed"), std::string::npos);

  e = f.error("}\n");
  EXPECT_NE(e.message().find("closes no group"), std::string::npos);

  e = f.error("group town MISC {\n}\n");
  EXPECT_EQ(e.column(), 7u);

  e = f.error("record MISC 1000800Z\n");
  EXPECT_EQ(e.column(), 13u);

  e = f.error("record MISC 01000800 flags=Persistant\n");
  EXPECT_NE(e.message().find("flag names"), std::string::npos);

  e = f.error("record MISC 01000800\n  VMAD {\n    script Foo\n");
  EXPECT_NE(e.message().find("not closed"), std::string::npos);

  e = f.error("record MISC 01000800\n  VMAD {\n    version 5 object-format 2\n    scirpt Foo\n  }\n");
  EXPECT_EQ(e.line(), 4u);

  e = f.error("record MISC 01000800\n  XXXX\n");
  EXPECT_NE(e.message().find("no field after it"), std::string::npos);

  e = f.error("hello\n");
  EXPECT_NE(e.message().find("expected 'record', 'group' or '}'"), std::string::npos);
}

TEST(RecordText, ScriptSourcesComeFromTheirFiles) {
  Fixture f(Game::Oblivion);
  struct Files : ScriptFiles {
    std::string text = "scn Foo\r\n\r\nBegin GameMode\r\nEnd";
    std::string store(const RecordHeader&, std::string_view, std::size_t, std::string_view) override { return "Foo.obl"; }
    std::optional<std::string> load(std::string_view name) override {
      if (name == "Foo.obl") return text;
      return std::nullopt;
    }
  } files;
  f.options.scripts = &files;
  RecordHeader h;
  h.type = Signature("SCPT");
  h.form_id = 0x01000805;
  const std::string source = files.text;
  const auto body = body_of({Field::zstring("EDID", "Foo"),
                             Field::bytes("SCTX", std::span(reinterpret_cast<const std::uint8_t*>(source.data()), source.size()))});
  const std::string text = f.write(h, body);
  EXPECT_NE(text.find("SCTX file \"Foo.obl\" crc32="), std::string::npos) << text;
  EXPECT_NE(text.find(" crlf"), std::string::npos);
  std::vector<std::uint8_t> out;
  EntriesRead read = read_entries_text(text, f.options, out);
  EXPECT_TRUE(read.changed_scripts.empty());
  EXPECT_EQ(out, record_bytes(h, body, Game::Oblivion));
  // Line ends turned into LF are no edit.
  files.text = "scn Foo\n\nBegin GameMode\nEnd";
  out.clear();
  read = read_entries_text(text, f.options, out);
  EXPECT_TRUE(read.changed_scripts.empty());
  EXPECT_EQ(out, record_bytes(h, body, Game::Oblivion));
  // An edit is reported, with CR LF line ends as the editor stores them.
  files.text = "scn Foo\n\nBegin MenuMode\nEnd";
  out.clear();
  read = read_entries_text(text, f.options, out);
  ASSERT_EQ(read.changed_scripts.size(), 1u);
  EXPECT_EQ(read.changed_scripts[0].source, "scn Foo\r\n\r\nBegin MenuMode\r\nEnd");
  EXPECT_EQ(read.changed_scripts[0].form_id, 0x01000805u);
  files.text.clear();
  f.options.scripts = nullptr;
  EXPECT_THROW(f.read(text), SyntaxError);
}


// Inline (tesmod export --stdout, verify, diff), a source is a block of lines that reads back
// to its exact bytes: CR LF or LF, with or without a final line break, both kinds mixed, blank
// lines and lines that look like the format's own ('}', '#', 'record').
TEST(RecordText, InlineScriptSourcesAreLinesThatReadBackExactly) {
  Fixture f(Game::Oblivion);
  RecordHeader h;
  h.type = Signature("SCPT");
  h.form_id = 0x01000805;
  const std::string crlf_source = "scn Foo\r\n\r\nBegin GameMode\r\n\tset x to 1 ; }\r\nEnd";
  const std::vector<std::string> sources = {
      crlf_source,
      crlf_source + "\r\n",                                  // a final line break
      "scn Foo\n\nBegin GameMode\n  }\n#x\nrecord\nEnd\n",   // LF, format-like lines
      "scn Foo\r\nBegin GameMode\r\nEnd\r\n;<CSEBlock>\n;</CSEBlock>\n",  // mixed, as CSE leaves them
      "scn Foo\nBegin GameMode\r\nEnd",                      // mostly LF, one CR LF
      "scn Foo ; trailing blanks   \r\n   \r\nEnd \t",      // blanks kept
      "one line",
      "\r\n",
      "scn Caf\xE9",                                         // code-page bytes
  };
  for (const std::string& source : sources) {
    SCOPED_TRACE(source);
    const auto body = body_of({Field::zstring("EDID", "Foo"),
                               Field::bytes("SCTX", std::span(reinterpret_cast<const std::uint8_t*>(source.data()), source.size()))});
    const std::string text = f.write(h, body);
    EXPECT_EQ(text.find("SCTX \""), std::string::npos) << text;  // lines, not one quoted string
    EXPECT_NE(text.find("    |"), std::string::npos) << text;
    EXPECT_EQ(f.read(text), record_bytes(h, body, Game::Oblivion)) << text;
    // A text file whose lines end in CR LF (git autocrlf, an editor) reads the same.
    std::string crlf_text;
    for (char c : text) crlf_text += c == '\n' ? std::string("\r\n") : std::string(1, c);
    EXPECT_EQ(f.read(crlf_text), record_bytes(h, body, Game::Oblivion)) << text;
  }
  // One line per source line: an edit of one line changes one line of the text.
  const auto body = [](const std::string& source) {
    return body_of({Field::bytes("SCTX", std::span(reinterpret_cast<const std::uint8_t*>(source.data()), source.size()))});
  };
  EXPECT_EQ(f.write(h, body(crlf_source)), "record SCPT 01000805\n"
                                           "  SCTX crlf {\n"
                                           "    |scn Foo\n"
                                           "    |\n"
                                           "    |Begin GameMode\n"
                                           "    |\tset x to 1 ; }\n"
                                           "    |End\n"
                                           "  }\n");
  EXPECT_EQ(f.write(h, body("a\r\nb\nc")), "record SCPT 01000805\n  SCTX crlf {\n    |a\n    :b\n    |c\n  }\n");
  // What lines cannot carry exactly stays one quoted line: a lone CR, control characters.
  for (const std::string& source : {std::string("a\rb"), std::string("a\x01" "b"), std::string("a\0b", 3)}) {
    const std::string text = f.write(h, body(source));
    EXPECT_NE(text.find("SCTX \""), std::string::npos) << text;
    EXPECT_EQ(f.read(text), record_bytes(h, body(source), Game::Oblivion)) << text;
  }
  // Errors name the line.
  const SyntaxError open = f.error("record SCPT 01000805\n  SCTX {\n    |scn Foo\n");
  EXPECT_EQ(open.line(), 2u);
  EXPECT_NE(open.message().find("not closed"), std::string::npos) << open.message();
  const SyntaxError bare = f.error("record SCPT 01000805\n  SCTX {\n    |scn Foo\n    Begin GameMode\n  }\n");
  EXPECT_EQ(bare.line(), 4u);
  EXPECT_EQ(bare.column(), 5u);
  EXPECT_NE(bare.message().find("after '|'"), std::string::npos) << bare.message();
}

// Where plain records are trusted (check_plain false: plugins over 50,000 records), the checked
// writer reads a structured record back with the lines its layouts wrote taken as the fields
// they were written from (RecordTextOptions::layout_lines), so that what it checks is the
// structured forms and how the lines group. The text is the same either way, one the reader
// parses, line by line, to the same bytes; a noted line is its field's bytes only where the
// note names that line's start and field type.
TEST(RecordText, CheckedReadBackTakesLayoutLinesAsTheirFields) {
  Fixture f;
  const auto bytes = f.read(R"(record INFO 01000900
  EDID "MyInfo"
  CTDA GetIsID(IronSword) == 1.0 OR
  PNAM MyCoin
)");
  const RecordHeader h = RecordHeader::read(bytes.data(), Game::SkyrimSE);
  const std::span<const std::uint8_t> body = std::span<const std::uint8_t>(bytes).subspan(24);
  std::string text;
  EXPECT_EQ(append_record_text_checked(text, h, body, f.options, f.inflater), RecordTextForm::Typed);
  EXPECT_EQ(f.options.layout_lines, nullptr);  // the checked writer's own, not the caller's
  const std::size_t pnam = text.find("  PNAM MyCoin\n");
  ASSERT_NE(pnam, std::string::npos) << text;
  ASSERT_NE(text.find("  CTDA GetIsID(IronSword) == 1.0 OR\n"), std::string::npos) << text;
  EXPECT_EQ(f.read(text), bytes);
  std::string trusting;
  EXPECT_EQ(append_record_text_checked(trusting, h, body, f.options, f.inflater, 0, false), RecordTextForm::Typed);
  EXPECT_EQ(trusting, text);

  const std::vector<std::uint8_t> other{0x01, 0x02, 0x03, 0x04};
  std::vector<LayoutLine> lines{{pnam, Signature("PNAM"), other}};
  f.options.layout_lines = &lines;
  const auto noted = f.read(text);
  ASSERT_EQ(noted.size(), bytes.size());
  EXPECT_TRUE(std::equal(other.begin(), other.end(), noted.end() - 4));  // PNAM, the last field
  EXPECT_FALSE(record_text_reads_back(text, h, body, f.options));
  lines = {{pnam, Signature("EDID"), other}};
  EXPECT_EQ(f.read(text), bytes);
  lines = {{pnam + 1, Signature("PNAM"), other}};
  EXPECT_EQ(f.read(text), bytes);
  f.options.layout_lines = nullptr;
}

}  // namespace
}  // namespace tesmod::text
