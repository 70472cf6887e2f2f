#include "tesmod/text/text_syntax.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

namespace tesmod::text {
namespace {

TEST(TextSyntax, QuotedStringsCarryTheStoredBytes) {
  const TextCodec codec;
  EXPECT_EQ(quoted("Iron Sword", codec), "\"Iron Sword\"");
  EXPECT_EQ(quoted("a\"b\\c\r\n\t", codec), R"("a\"b\\c\r\n\t")");
  EXPECT_EQ(quoted(std::string("\x01\x7F", 2), codec), R"("\x01\x7F")");
  // Windows-1252: 0xE9 is é, shown as UTF-8; 0x81 is undefined and escaped.
  EXPECT_EQ(quoted("caf\xE9", codec), "\"caf\xC3\xA9\"");
  EXPECT_EQ(quoted("a\x81", codec), R"("a\x81")");
  for (const std::string& stored : {std::string("caf\xE9 \x81\x8D\x90 \"q\"\\"), std::string("\0\x01zz", 4),
                                   std::string("\x80\x9F\xFF")}) {
    const std::string text = quoted(stored, codec);
    LineScanner s(text, 1);
    EXPECT_EQ(s.quoted_string(codec), stored);
    EXPECT_TRUE(s.at_end());
  }
}

TEST(TextSyntax, QuotedStringErrorsNameTheColumn) {
  const TextCodec codec;
  try {
    LineScanner s(R"(FULL "abc)", 7);
    s.word();
    s.quoted_string(codec);
    FAIL();
  } catch (const SyntaxError& e) {
    EXPECT_EQ(e.line(), 7u);
    EXPECT_EQ(e.column(), 6u);
    EXPECT_NE(e.message().find("closing quote"), std::string::npos);
  }
  LineScanner bad(R"("a\q")", 1);
  EXPECT_THROW(bad.quoted_string(codec), SyntaxError);
  // A character Windows-1252 has no byte for.
  LineScanner cyr("\"\xD0\x96\"", 1);
  EXPECT_THROW(cyr.quoted_string(codec), SyntaxError);
}

TEST(TextSyntax, FloatsReadBackToTheSameBits) {
  const float values[] = {0.0f, -0.0f, 1.0f, 0.1f, 6500.0f, 1e20f, -3.4028235e38f, 1.17549435e-38f, 1e-45f,
                          std::numeric_limits<float>::infinity(), std::bit_cast<float>(0x7FC00001u)};
  for (float v : values) {
    const std::string s = format_float(v);
    EXPECT_NE(s.find_first_of(".ex"), std::string::npos) << s;
    const auto back = parse_float(s);
    ASSERT_TRUE(back) << s;
    EXPECT_EQ(std::bit_cast<std::uint32_t>(*back), std::bit_cast<std::uint32_t>(v)) << s;
  }
  EXPECT_EQ(format_float(1.0f), "1.0");
  EXPECT_EQ(format_float(-0.0f), "-0.0");
  EXPECT_EQ(format_float(std::bit_cast<float>(0x7FC00000u)), "0x7FC00000");
  EXPECT_FALSE(parse_float("1.0x"));
  EXPECT_FALSE(parse_float(""));
  EXPECT_EQ(parse_float("+2"), 2.0f);
}

TEST(TextSyntax, ScannerReadsWordsKeysAndFormReferences) {
  LineScanner s(R"(  DATA value=25 ref="My Mod.esp":00000801 next=Skyrim.esm:00012EB7)", 3);
  EXPECT_EQ(s.word(), "DATA");
  s.expect_key("value");
  EXPECT_EQ(s.word(), "25");
  s.expect_key("ref");
  EXPECT_EQ(s.form_reference(), R"("My Mod.esp":00000801)");
  EXPECT_THROW(s.expect_key("other"), SyntaxError);
  s.expect_key("next");
  EXPECT_EQ(s.form_reference(), "Skyrim.esm:00012EB7");
  s.expect_end();
  EXPECT_EQ(parse_int("-12"), -12);
  EXPECT_FALSE(parse_int("12a"));
  EXPECT_EQ(parse_uint("0x1F"), 31u);
}

}  // namespace
}  // namespace tesmod::text
