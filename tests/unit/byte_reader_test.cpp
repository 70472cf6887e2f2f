#include <gtest/gtest.h>

#include "tesmod/io/byte_reader.hpp"

using namespace tesmod;

TEST(ByteReader, ReadsLittleEndian) {
  const std::uint8_t data[] = {0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x80, 0x3F, 0xFF};
  ByteReader r(data, ErrorContext{"x.esp", Error::kNoOffset, std::nullopt});
  EXPECT_EQ(r.u16("a"), 0x0201);
  EXPECT_EQ(r.u16("b"), 0x0403);
  EXPECT_FLOAT_EQ(r.f32("c"), 1.0f);
  EXPECT_EQ(r.u8("d"), 0xFF);
  EXPECT_TRUE(r.at_end());
}

TEST(ByteReader, ShortReadNamesFileOffsetAndWhat) {
  const std::uint8_t data[] = {1, 2, 3};
  ByteReader r(data, ErrorContext{"broken.esp", Error::kNoOffset, RecordRef{"WEAP", 0x00012345, "IronSword"}}, 100);
  r.u8("first");
  try {
    r.u32("damage");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), "broken.esp");
    EXPECT_EQ(e.offset(), 101u);
    ASSERT_TRUE(e.record());
    EXPECT_EQ(e.record()->form_id, 0x00012345u);
    const std::string what = e.what();
    EXPECT_NE(what.find("broken.esp"), std::string::npos);
    EXPECT_NE(what.find("0x65"), std::string::npos);
    EXPECT_NE(what.find("WEAP [00012345] 'IronSword'"), std::string::npos);
    EXPECT_NE(what.find("damage"), std::string::npos);
    EXPECT_NE(what.find("2 bytes remain"), std::string::npos);
  }
}
