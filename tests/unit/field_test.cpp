#include <gtest/gtest.h>

#include "tesmod/plugin/field.hpp"

using namespace tesmod;

TEST(Fields, EncodeSmallAndOversize) {
  std::vector<Field> fields{Field::zstring("EDID", "Hi"), Field{"DATA", std::vector<std::uint8_t>(70000, 7)}};
  std::vector<std::uint8_t> out;
  encode_fields(fields, out);
  ASSERT_EQ(out.size(), 6 + 3 + 10 + 6 + 70000u);
  EXPECT_EQ(std::string(out.begin(), out.begin() + 4), "EDID");
  EXPECT_EQ(out[4], 3);
  EXPECT_EQ(std::string(out.begin() + 9, out.begin() + 13), "XXXX");
  EXPECT_EQ(out[13], 4);
  EXPECT_EQ(out[15] | out[16] << 8 | out[17] << 16, 70000);
  EXPECT_EQ(std::string(out.begin() + 19, out.begin() + 23), "DATA");
  EXPECT_EQ(out[23] | out[24] << 8, 0);  // the small size after XXXX is 0
}

TEST(Fields, DecodeThenEncodeIsIdentity) {
  std::vector<Field> fields{Field::zstring("EDID", "Thing"), Field{"MODT", std::vector<std::uint8_t>(66000, 1)},
                            Field::u32("NAME", 0x01000ABC)};
  // An XXXX-prefixed small field (legal, if unusual) keeps its prefix and its stored size.
  fields.push_back(Field{"DATA", {1, 2, 3}, true, 3});
  std::vector<std::uint8_t> bytes;
  encode_fields(fields, bytes);
  auto views = read_subrecords(bytes, ErrorContext{"t", Error::kNoOffset, std::nullopt});
  ASSERT_EQ(views.size(), 4u);
  std::vector<Field> back;
  for (const auto& v : views) back.push_back(Field::from_view(v));
  EXPECT_EQ(back, fields);
  std::vector<std::uint8_t> again;
  encode_fields(back, again);
  EXPECT_EQ(again, bytes);
}

TEST(Fields, MalformedBodiesAreErrors) {
  const std::uint8_t truncated[] = {'E', 'D', 'I', 'D', 10, 0, 'a'};
  EXPECT_THROW(read_subrecords(truncated, ErrorContext{"t", Error::kNoOffset, std::nullopt}), Error);
  const std::uint8_t short_header[] = {'E', 'D', 'I'};
  EXPECT_THROW(read_subrecords(short_header, ErrorContext{"t", Error::kNoOffset, std::nullopt}), Error);
  const std::uint8_t xxxx_last[] = {'X', 'X', 'X', 'X', 4, 0, 1, 0, 0, 0};
  EXPECT_THROW(read_subrecords(xxxx_last, ErrorContext{"t", Error::kNoOffset, std::nullopt}), Error);
  const std::uint8_t xxxx_bad_size[] = {'X', 'X', 'X', 'X', 2, 0, 1, 0};
  EXPECT_THROW(read_subrecords(xxxx_bad_size, ErrorContext{"t", Error::kNoOffset, std::nullopt}), Error);
  const std::uint8_t xxxx_too_big[] = {'X', 'X', 'X', 'X', 4, 0, 0xFF, 0, 0, 0, 'D', 'A', 'T', 'A', 0, 0, 1};
  try {
    read_subrecords(xxxx_too_big, ErrorContext{"f.esp", 0, RecordRef{"NAVM", 0x10, {}}}, 1000);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), 1010u);  // the field after the XXXX
    EXPECT_NE(std::string(e.what()).find("DATA of size 255 runs past"), std::string::npos);
  }
}

TEST(Fields, CountMatchesViews) {
  std::vector<Field> fields{Field::zstring("EDID", "A"), Field{"MODT", std::vector<std::uint8_t>(70000)}, Field::u32("XNAM", 1)};
  std::vector<std::uint8_t> bytes;
  encode_fields(fields, bytes);
  const SubrecordCount c = count_subrecords(bytes, ErrorContext{"t", Error::kNoOffset, std::nullopt});
  EXPECT_EQ(c.fields, 3u);
  EXPECT_EQ(c.oversize, 1u);
  EXPECT_EQ(find_editor_id(bytes), "A");
}
