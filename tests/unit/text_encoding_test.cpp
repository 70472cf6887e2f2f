#include <gtest/gtest.h>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/error.hpp"

using namespace tesmod;

TEST(TextCodec, Windows1252ToUtf8AndBack) {
  TextCodec c;
  const std::string stored = "Caf\xE9 \x80 \x93quoted\x94";
  const std::string utf8 = c.to_utf8(stored);
  EXPECT_EQ(utf8, "Caf\xC3\xA9 \xE2\x82\xAC \xE2\x80\x9Cquoted\xE2\x80\x9D");
  EXPECT_EQ(c.from_utf8(utf8), stored);
}

TEST(TextCodec, UndefinedBytesSurviveARoundTrip) {
  TextCodec c;
  const std::string stored = "a\x81" "b\x8D\x8F\x90\x9D";
  const std::string utf8 = c.to_utf8(stored);
  EXPECT_EQ(utf8, "a\xC2\x81" "b\xC2\x8D\xC2\x8F\xC2\x90\xC2\x9D");
  EXPECT_EQ(c.from_utf8(utf8), stored);
}

TEST(TextCodec, OtherCodePages) {
  TextCodec ru("CP1251");
  EXPECT_EQ(ru.to_utf8("\xCF\xF0\xE8"), "\xD0\x9F\xD1\x80\xD0\xB8");  // "При"
  EXPECT_EQ(ru.from_utf8("\xD0\x9F\xD1\x80\xD0\xB8"), "\xCF\xF0\xE8");
}

TEST(TextCodec, UnencodableCharacterIsAnError) {
  TextCodec c;
  EXPECT_THROW(c.from_utf8("\xE4\xB8\xAD"), Error);  // a CJK character has no Windows-1252 byte
  EXPECT_THROW(TextCodec("NO-SUCH-CODEPAGE"), Error);
}
