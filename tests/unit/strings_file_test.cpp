#include <gtest/gtest.h>

#include <sstream>

#include "sample_builder.hpp"
#include "test_support.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/strings_file.hpp"
#include "tesmod/text/dump.hpp"

using namespace tesmod;

TEST(StringsFile, BuildSerializeParse) {
  for (StringsKind kind : {StringsKind::Strings, StringsKind::DLStrings, StringsKind::ILStrings}) {
    StringsFile t(kind);
    t.set(7, "seven");
    t.set(3, "three");
    t.set(9, "seven");  // shared data
    t.set(4, "");
    const auto bytes = t.serialize();
    StringsFile back = StringsFile::parse(bytes, kind, "t");
    EXPECT_EQ(back.ids(), (std::vector<std::uint32_t>{7, 3, 9, 4}));
    EXPECT_EQ(back.get(7), "seven");
    EXPECT_EQ(back.get(9), "seven");
    EXPECT_EQ(back.get(4), "");
    EXPECT_FALSE(back.get(5));
    EXPECT_EQ(back.serialize(), bytes);
  }
  StringsFile t(StringsKind::Strings);
  t.set(1, "ab");
  // count, data size, {id, offset}, data
  EXPECT_EQ(t.serialize(), (std::vector<std::uint8_t>{1, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 'a', 'b', 0}));
  StringsFile d(StringsKind::DLStrings);
  d.set(1, "ab");
  EXPECT_EQ(d.serialize(),
            (std::vector<std::uint8_t>{1, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 'a', 'b', 0}));
}

TEST(StringsFile, UnchangedTablesKeepTheirLayout) {
  // Two ids pointing into one string's tail: a layout the rebuild would not produce.
  std::vector<std::uint8_t> bytes{2, 0, 0, 0, 6, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0,
                                  'a', 'b', 'c', 'd', 'e', 0};
  StringsFile t = StringsFile::parse(bytes, StringsKind::Strings, "t");
  EXPECT_EQ(t.get(2), "cde");
  EXPECT_EQ(t.serialize(), bytes);
  t.set(1, "abcde");
  EXPECT_NE(t.serialize(), bytes);  // rebuilt once changed
}

TEST(StringsFile, MalformedTablesAreErrors) {
  StringsFile t(StringsKind::DLStrings);
  t.set(1, "abc");
  const auto good = t.serialize();
  auto expect_error = [](std::vector<std::uint8_t> b, const char* needle) {
    try {
      StringsFile::parse(b, StringsKind::DLStrings, "bad.DLSTRINGS");
      ADD_FAILURE() << "no error for " << needle;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      EXPECT_EQ(e.file(), "bad.DLSTRINGS");
    }
  };
  auto b = good;
  le::store(b.data(), std::uint32_t(1000));
  expect_error(b, "entries");
  b = good;
  le::store(b.data() + 12, std::uint32_t(50));
  expect_error(b, "past the");
  b = good;
  le::store(b.data() + 16, std::uint32_t(100));
  expect_error(b, "length 100");
  auto unterminated = good;
  unterminated.at(unterminated.size() - 1) = 'x';
  expect_error(unterminated, "does not end with a zero");
  expect_error({1, 2, 3}, "at least");
}

TEST(LocalizedStrings, LoadsBesideThePluginAndDumpShowsText) {
  test::TempDir dir;
  samples::write_all(dir.path());
  // Windows file names are case-insensitive; a lower-case folder must still be found.
  std::filesystem::rename(dir / "Strings", dir / "strings");
  const auto plugin = dir / "TesmodLocalized.esm";
  LocalizedStrings s = LocalizedStrings::load(plugin, "English");
  EXPECT_TRUE(s.found(StringsKind::Strings) && s.found(StringsKind::DLStrings) && s.found(StringsKind::ILStrings));
  EXPECT_EQ(s.lookup(4, StringsKind::ILStrings), "Well met, traveller.");
  EXPECT_EQ(s.lookup(2), "A blade forged in a test suite.");  // found in another table
  EXPECT_FALSE(s.lookup(99));
  EXPECT_FALSE(LocalizedStrings::load(plugin, "French").found(StringsKind::Strings));

  PluginFile f = PluginFile::open(plugin);
  EXPECT_TRUE(f.header().is_localized());
  TextCodec codec;
  text::DumpOptions o;
  o.codec = &codec;
  o.strings = &s;
  std::ostringstream out;
  text::dump_text(f, o, out);
  const std::string dump = out.str();
  EXPECT_NE(dump.find("FULL lstring 0x00000001 \"Sword of \xC3\x89" "b\xC3\xA8" "ne\""), std::string::npos) << dump;
  EXPECT_NE(dump.find("NAM1 lstring 0x00000004 \"Well met, traveller.\""), std::string::npos) << dump;
  EXPECT_NE(dump.find("DESC lstring 0x00000002 \"A blade forged"), std::string::npos) << dump;
}

TEST(LocalizedStrings, SaveWritesAllThreeTables) {
  test::TempDir dir;
  LocalizedStrings s = samples::localized_sample_strings();
  s.save(dir / "Mod.esp", "German");
  for (const char* name : {"Mod_German.STRINGS", "Mod_German.DLSTRINGS", "Mod_German.ILSTRINGS"})
    EXPECT_TRUE(std::filesystem::exists(dir / "Strings" / name)) << name;
  LocalizedStrings back = LocalizedStrings::load(dir / "Mod.esp", "German");
  EXPECT_EQ(back.lookup(1), s.lookup(1));
  EXPECT_EQ(back.table(StringsKind::DLStrings).serialize(), s.table(StringsKind::DLStrings).serialize());
}

TEST(LStringFields, KnownFields) {
  EXPECT_EQ(lstring_kind("WEAP", "FULL"), StringsKind::Strings);
  EXPECT_EQ(lstring_kind("BOOK", "DESC"), StringsKind::DLStrings);
  EXPECT_EQ(lstring_kind("INFO", "NAM1"), StringsKind::ILStrings);
  EXPECT_EQ(lstring_kind("QUST", "CNAM"), StringsKind::DLStrings);
  EXPECT_FALSE(lstring_kind("WEAP", "DATA"));
  EXPECT_FALSE(lstring_kind("NPC_", "CNAM"));
}
