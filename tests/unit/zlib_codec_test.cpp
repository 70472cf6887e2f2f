#include <gtest/gtest.h>

#include <numeric>

#include "tesmod/io/zlib_codec.hpp"

using namespace tesmod;

namespace {
std::vector<std::uint8_t> sample(std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::uint8_t(i * 31 + (i >> 7));
  return v;
}
}  // namespace

TEST(Zlib, DeflateThenInflateIsIdentity) {
  const auto raw = sample(100000);
  Deflater d(6);
  const auto z = d.deflate(raw);
  ASSERT_LT(z.size(), raw.size());
  EXPECT_EQ(z[0], 0x78);  // a zlib header, not raw deflate
  Inflater inf;
  auto out = inf.inflate(z, std::uint32_t(raw.size()), ErrorContext{"t", Error::kNoOffset, std::nullopt});
  EXPECT_TRUE(std::equal(out.begin(), out.end(), raw.begin(), raw.end()));
}

TEST(Zlib, WrongDeclaredSizeIsAnError) {
  const auto raw = sample(5000);
  const auto z = Deflater(6).deflate(raw);
  Inflater inf;
  EXPECT_THROW(inf.inflate(z, 4999, ErrorContext{"t", Error::kNoOffset, std::nullopt}), Error);
  EXPECT_THROW(inf.inflate(z, 5001, ErrorContext{"t", Error::kNoOffset, std::nullopt}), Error);
}

TEST(Zlib, CorruptStreamIsAnError) {
  auto z = Deflater(6).deflate(sample(5000));
  z[z.size() / 2] ^= 0xFF;
  z[z.size() / 2 + 1] ^= 0x55;
  Inflater inf;
  EXPECT_THROW(inf.inflate(z, 5000, ErrorContext{"t", Error::kNoOffset, std::nullopt}), Error);
}

TEST(Zlib, AbsurdDeclaredSizeIsRefusedBeforeAllocating) {
  const auto z = Deflater(6).deflate(sample(100));
  Inflater inf;
  try {
    inf.inflate(z, 0xFFFFFFF0u, ErrorContext{"t", Error::kNoOffset, std::nullopt});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("more than"), std::string::npos);
  }
}

TEST(Zlib, PrefixInflaterReturnsTheStartAndThenMore) {
  const auto raw = sample(50000);
  const auto z = Deflater(6).deflate(raw);
  PrefixInflater in(z);
  auto prefix = in.first(100);
  ASSERT_EQ(prefix.size(), 100u);
  EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), raw.begin()));
  // A longer prefix continues the same stream; asking for less again gives the start.
  auto longer = in.first(20000);
  ASSERT_EQ(longer.size(), 20000u);
  EXPECT_TRUE(std::equal(longer.begin(), longer.end(), raw.begin()));
  EXPECT_EQ(in.first(10).size(), 10u);
  // Past the end of the stream: all there is.
  auto all = in.first(60000);
  ASSERT_EQ(all.size(), raw.size());
  EXPECT_TRUE(std::equal(all.begin(), all.end(), raw.begin()));
}

TEST(Zlib, PrefixInflaterGivesNothingForBadData) {
  const std::vector<std::uint8_t> junk{1, 2, 3};
  PrefixInflater bad(junk);
  EXPECT_TRUE(bad.first(100).empty());
  EXPECT_TRUE(bad.first(200).empty());
  PrefixInflater empty(std::span<const std::uint8_t>{});
  EXPECT_TRUE(empty.first(100).empty());
  // A stream cut short: the bytes before the cut, no more.
  const auto raw = sample(50000);
  auto z = Deflater(6).deflate(raw);
  z.resize(z.size() / 2);
  PrefixInflater cut(z);
  auto got = cut.first(raw.size());
  EXPECT_LT(got.size(), raw.size());
  EXPECT_GT(got.size(), 0u);
  EXPECT_TRUE(std::equal(got.begin(), got.end(), raw.begin()));
}
