// plugins.txt, loadorder.txt and Skyrim.ccc as the games read them: encodings, line ends,
// comments, asterisks, and lines that cannot be read.
#include <gtest/gtest.h>

#include "tesmod/loadorder/plugin_list.hpp"

namespace tesmod::loadorder {
namespace {

std::vector<std::uint8_t> bytes(std::string_view s) { return {s.begin(), s.end()}; }

std::vector<std::string> names(const PluginList& l) {
  std::vector<std::string> out;
  for (const ListEntry& e : l.entries) out.push_back(e.name);
  return out;
}

TEST(PluginList, LfCrlfCommentsBlankLinesAndBlanks) {
  const auto l = parse_plugin_list(bytes("# a comment\r\nA.esm\r\n\r\n  B.esp  \n#C.esp\nC.esl"), ListStyle::Names);
  EXPECT_EQ(names(l), (std::vector<std::string>{"A.esm", "B.esp", "C.esl"}));
  EXPECT_TRUE(l.issues.empty());
  EXPECT_EQ(l.encoding, ListEncoding::Ascii);
  EXPECT_EQ(l.entries[1].line, 4u);
  for (const ListEntry& e : l.entries) EXPECT_TRUE(e.active);
}

TEST(PluginList, AsterisksMarkActivePlugins) {
  const auto l = parse_plugin_list(bytes("*A.esm\nB.esp\n* C.esp\n"), ListStyle::Asterisk);
  ASSERT_EQ(names(l), (std::vector<std::string>{"A.esm", "B.esp", "C.esp"}));
  EXPECT_TRUE(l.has_asterisks);
  EXPECT_TRUE(l.entries[0].active);
  EXPECT_FALSE(l.entries[1].active);
  EXPECT_TRUE(l.entries[2].active);
  // Read as a plain list, every named plugin is active.
  const auto plain = parse_plugin_list(bytes("A.esm\nB.esp\n"), ListStyle::Names);
  EXPECT_FALSE(plain.has_asterisks);
  EXPECT_TRUE(plain.entries[1].active);
}

TEST(PluginList, Windows1252AndUtf8WithAndWithoutBom) {
  // "Blàñk.esp" in Windows-1252 (à = E0, ñ = F1) and in UTF-8.
  const std::string cp1252 = "Bl\xE0\xF1k.esp\r\n";
  const std::string utf8 = "Bl\xC3\xA0\xC3\xB1k.esp\n";
  const auto a = parse_plugin_list(bytes(cp1252), ListStyle::Names);
  const auto b = parse_plugin_list(bytes(utf8), ListStyle::Names);
  const auto c = parse_plugin_list(bytes("\xEF\xBB\xBF" + utf8), ListStyle::Names);
  EXPECT_EQ(a.encoding, ListEncoding::Windows1252);
  EXPECT_EQ(b.encoding, ListEncoding::Utf8);
  EXPECT_EQ(c.encoding, ListEncoding::Utf8Bom);
  for (const auto* l : {&a, &b, &c}) {
    ASSERT_EQ(l->entries.size(), 1u);
    EXPECT_EQ(l->entries[0].name, "Bl\xC3\xA0\xC3\xB1k.esp");  // UTF-8 out
    EXPECT_TRUE(l->issues.empty());
  }
  // Windows-1252's € (0x80) becomes U+20AC.
  const auto euro = parse_plugin_list(bytes("\x80.esp\n"), ListStyle::Names);
  ASSERT_EQ(euro.entries.size(), 1u);
  EXPECT_EQ(euro.entries[0].name, "\xE2\x82\xAC.esp");
}

TEST(PluginList, BadBytesAreReportedWithTheirOffsetAndTheOtherLinesKept) {
  // 0x81 is no Windows-1252 character, and the file is not UTF-8.
  const auto l = parse_plugin_list(bytes("A.esm\nB\x81.esp\nC.esp\n"), ListStyle::Names);
  EXPECT_EQ(names(l), (std::vector<std::string>{"A.esm", "C.esp"}));
  ASSERT_EQ(l.issues.size(), 1u);
  EXPECT_EQ(l.issues[0].line, 2u);
  EXPECT_EQ(l.issues[0].offset, 6u);
  EXPECT_NE(l.issues[0].message.find("offset 7"), std::string::npos) << l.issues[0].message;
  // A BOM promises UTF-8: a Windows-1252 byte after it is bad.
  const auto bom = parse_plugin_list(bytes("\xEF\xBB\xBF" "A.esm\nB\xE0.esp\n"), ListStyle::Names);
  EXPECT_EQ(names(bom), (std::vector<std::string>{"A.esm"}));
  ASSERT_EQ(bom.issues.size(), 1u);
  EXPECT_NE(bom.issues[0].message.find("not UTF-8"), std::string::npos);
  // Control characters.
  const auto ctl = parse_plugin_list(bytes("A\x01.esp\n"), ListStyle::Names);
  EXPECT_TRUE(ctl.entries.empty());
  ASSERT_EQ(ctl.issues.size(), 1u);
}

TEST(PluginList, Utf16IsRefused) {
  const std::string utf16("\xFF\xFE" "A\0.\0e\0s\0p\0", 12);
  const auto l = parse_plugin_list(bytes(utf16), ListStyle::Names);
  EXPECT_TRUE(l.entries.empty());
  ASSERT_EQ(l.issues.size(), 1u);
  EXPECT_NE(l.issues[0].message.find("UTF-16"), std::string::npos);
  const std::string no_bom("A\0.\0e\0s\0p\0", 10);
  const auto m = parse_plugin_list(bytes(no_bom), ListStyle::Names);
  EXPECT_TRUE(m.entries.empty());
  ASSERT_EQ(m.issues.size(), 1u);
}

TEST(PluginList, NonPluginNamesDuplicatesAndGhostsNamed) {
  const auto l = parse_plugin_list(bytes("A.esm\nreadme.txt\na.ESM\nB.esp.ghost\nC:/x.esp\n"), ListStyle::Names);
  EXPECT_EQ(names(l), (std::vector<std::string>{"A.esm", "B.esp"}));
  ASSERT_EQ(l.issues.size(), 3u);
  EXPECT_NE(l.issues[0].message.find("not a plugin file name"), std::string::npos);
  EXPECT_NE(l.issues[1].message.find("listed again (first on line 1)"), std::string::npos);
  EXPECT_NE(l.issues[2].message.find("not a file name"), std::string::npos);
}

TEST(PluginList, EmptyFileAndNamesHelpers) {
  EXPECT_TRUE(parse_plugin_list({}, ListStyle::Names).entries.empty());
  EXPECT_TRUE(has_plugin_extension("X.ESL"));
  EXPECT_FALSE(has_plugin_extension(".esp"));
  bool ghosted = false;
  EXPECT_EQ(strip_ghost("A.esp.GHOST", &ghosted), "A.esp");
  EXPECT_TRUE(ghosted);
  EXPECT_EQ(strip_ghost("A.esp", &ghosted), "A.esp");
  EXPECT_FALSE(ghosted);
}

}  // namespace
}  // namespace tesmod::loadorder
