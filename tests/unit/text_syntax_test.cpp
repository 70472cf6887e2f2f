#include "tesmod/text/text_syntax.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

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

// parse_float reads short decimals ("2385.1", "-0.25") without from_chars; it must give the
// same float as from_chars for every text, which this compares on the texts the writer makes of
// random floats and on decimals of every length around the fast path's limits.
TEST(TextSyntax, ShortDecimalsReadAsFromCharsReadsThem) {
  const auto from_chars_float = [](const std::string& s) {
    float f = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), f);
    EXPECT_EQ(r.ptr, s.data() + s.size()) << s;
    return std::bit_cast<std::uint32_t>(f);
  };
  std::mt19937 random(7);
  std::vector<std::string> texts = {"0", "-0", "0.0", "16777216", "16777217", "16777215.0", "1677721.6",
                                    "0.00000001", "99999999", "9999.9999", "123456789", "0.1", "-3.4"};
  for (int i = 0; i < 200000; ++i) {
    // Decimals of 1-9 digits with the point anywhere, and writer texts of floats of all magnitudes.
    const std::uint32_t digits = 1 + random() % 9;
    std::string d = std::to_string(random() % 1000000000u);
    d = d.substr(0, std::min<std::size_t>(d.size(), digits));
    const std::size_t point = random() % (d.size() + 1);
    if (point > 0 && point < d.size()) d.insert(point, ".");
    texts.push_back((random() & 1 ? "-" : "") + d);
    const float v = std::bit_cast<float>(std::uint32_t(random()));
    if (std::isfinite(v)) texts.push_back(format_float(v));
    texts.push_back(format_float(float(random() % 100000) / float(1 + random() % 1000)));
  }
  for (const std::string& s : texts) {
    const auto got = parse_float(s);
    ASSERT_TRUE(got) << s;
    ASSERT_EQ(std::bit_cast<std::uint32_t>(*got), from_chars_float(s)) << s;
  }
  EXPECT_FALSE(parse_float("-"));
  EXPECT_FALSE(parse_float("1.5.2"));
}

// The writer's short path for floats (decimals of up to three places) writes what to_chars
// writes: compared on the floats nearest to 1,200,000 such decimals, their neighbours, and
// random bit patterns.
TEST(TextSyntax, ShortFloatsAreWrittenAsToCharsWritesThem) {
  const auto reference = [](float v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, r.ptr);
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
  };
  std::mt19937 random(11);
  std::vector<float> values = {0.001f, -0.001f, 0.0015f, 0.5f, 1.5f, 2.5f, 0.125f, 99999.0f, 99999.99f, 100000.0f,
                               16777.215f, 8388.608f, 0.1f, 0.2f, 0.3f, 2385.1f, -67.9f, 12345.678f, 1e-3f, 9.999f};
  for (int i = 0; i < 400000; ++i) {
    const std::uint32_t places = random() % 4;
    const double scale = places == 0 ? 1 : places == 1 ? 10 : places == 2 ? 100 : 1000;
    const float v = float(double(random() % 100000000u) / scale / (random() % 3 == 0 ? 1000 : 1));
    values.push_back(random() & 1 ? -v : v);
    values.push_back(std::nextafter(v, 0.0f));
    values.push_back(std::bit_cast<float>(std::uint32_t(random())));
  }
  for (float v : values) {
    if (!std::isfinite(v)) continue;
    ASSERT_EQ(format_float(v), reference(v)) << std::bit_cast<std::uint32_t>(v);
  }
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
