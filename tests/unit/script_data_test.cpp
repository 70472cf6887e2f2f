// Script subrecords: decoding, encoding back to the same bytes, and finding the scripts of a record.
#include <gtest/gtest.h>

#include "tesmod/io/little_endian.hpp"
#include "tesmod/script/script_data.hpp"

using namespace tesmod;
using namespace tesmod::script;

namespace {

Field schr(std::uint32_t refs, std::uint32_t size, std::uint32_t vars, std::uint32_t type) {
  std::vector<std::uint8_t> d(20);
  le::store<std::uint32_t>(d.data() + 4, refs);
  le::store<std::uint32_t>(d.data() + 8, size);
  le::store<std::uint32_t>(d.data() + 12, vars);
  le::store<std::uint32_t>(d.data() + 16, type);
  return Field::bytes("SCHR", d);
}

Field slsd(std::uint32_t index, bool integer, std::uint8_t fill) {
  std::vector<std::uint8_t> d(24, fill);  // bytes the editor never sets keep whatever they held
  le::store<std::uint32_t>(d.data(), index);
  d[16] = integer ? 1 : 0;
  return Field::bytes("SLSD", d);
}

// An object script: two variables, a form and a ref variable in the reference list.
std::vector<Field> sample_fields() {
  const std::vector<std::uint8_t> code{0x1D, 0, 0, 0};
  return {schr(2, 4, 2, 0),
          Field::bytes("SCDA", code),
          Field::zstring("SCTX", "scn Sample\r\nshort count\r\nref target"),
          slsd(1, true, 0xCD),
          Field::zstring("SCVR", "count"),
          slsd(2, false, 0x00),
          Field::zstring("SCVR", "target"),
          Field::u32("SCRO", 0x00012345),
          Field::u32("SCRV", 2)};
}

}  // namespace

TEST(ScriptData, DecodesEveryField) {
  const auto fields = sample_fields();
  const ScriptData s = decode_script(fields, {});
  EXPECT_EQ(s.header.ref_count, 2u);
  EXPECT_EQ(s.header.compiled_size, 4u);
  EXPECT_EQ(s.header.variable_count, 2u);
  EXPECT_EQ(static_cast<ScriptType>(s.header.type), ScriptType::Object);
  EXPECT_EQ(s.bytecode, (std::vector<std::uint8_t>{0x1D, 0, 0, 0}));
  EXPECT_EQ(s.source.substr(0, 10), "scn Sample");
  ASSERT_EQ(s.variables.size(), 2u);
  EXPECT_EQ(s.variables[0].name, "count");
  EXPECT_TRUE(s.variables[0].is_integer());
  EXPECT_FALSE(s.variables[1].is_integer());
  EXPECT_EQ(s.variable("TARGET"), &s.variables[1]);
  EXPECT_EQ(s.variable(2u), &s.variables[1]);
  EXPECT_EQ(s.variable(3u), nullptr);
  ASSERT_EQ(s.refs.size(), 2u);
  EXPECT_EQ(s.refs[0], (ScriptRef{ScriptRef::Kind::Object, 0x00012345}));
  EXPECT_EQ(s.refs[1], (ScriptRef{ScriptRef::Kind::Variable, 2}));
}

TEST(ScriptData, EncodesBackToTheSameFields) {
  const auto fields = sample_fields();
  EXPECT_EQ(encode_script(decode_script(fields, {})), fields);
  // A result script with only its header (an empty one, as the editor stores it).
  const std::vector<Field> empty{schr(0, 0, 0, 0)};
  const ScriptData e = decode_script(empty, {});
  EXPECT_FALSE(e.has_bytecode);
  EXPECT_FALSE(e.has_source);
  EXPECT_EQ(encode_script(e), empty);
  // SCTX without a terminator stays without one.
  const std::vector<Field> raw{schr(0, 4, 0, 1), Field::bytes("SCDA", std::vector<std::uint8_t>{0x1D, 0, 0, 0}),
                               Field::bytes("SCTX", std::vector<std::uint8_t>{'s', 'c', 'n', ' ', 'Q'})};
  EXPECT_EQ(encode_script(decode_script(raw, {})), raw);
}

TEST(ScriptData, NewVariablesLookLikeTheEditorsOwn) {
  const LocalVariable v = LocalVariable::make(7, true, "flag");
  EXPECT_EQ(le::u32(v.slsd.data()), 7u);
  EXPECT_TRUE(v.is_integer());
  EXPECT_EQ(v.slsd[17], 0xCD);
  EXPECT_EQ(v.slsd[23], 0xCD);
  EXPECT_EQ(v.slsd[8], 0);
}

TEST(ScriptData, RejectsMalformedFields) {
  ErrorContext where{"Test.esp", 100, RecordRef{Signature("SCPT"), 0x800, "Broken"}};
  EXPECT_THROW(decode_script(std::vector<Field>{Field::bytes("SCHR", std::vector<std::uint8_t>(19))}, where), Error);
  EXPECT_THROW(decode_script(std::vector<Field>{Field::zstring("SCVR", "orphan")}, where), Error);
  EXPECT_THROW(decode_script(std::vector<Field>{Field::bytes("SCRO", std::vector<std::uint8_t>(3))}, where), Error);
  EXPECT_THROW(decode_script(std::vector<Field>{Field::zstring("EDID", "x")}, where), Error);
  try {
    decode_script(std::vector<Field>{Field::bytes("SLSD", std::vector<std::uint8_t>(23))}, where);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Broken"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("SLSD"), std::string::npos) << e.what();
  }
}

TEST(ScriptData, FindsEachResultScriptOfARecord) {
  // A quest: stage 10 with two log entries (the second with an empty result script), then its script.
  const std::vector<Field> fields{Field::zstring("EDID", "Quest"), Field::u32("SCRI", 0x900),
                                  Field::bytes("INDX", std::vector<std::uint8_t>{10, 0}),
                                  schr(1, 4, 0, 0), Field::bytes("SCDA", std::vector<std::uint8_t>{0x1E, 0, 0, 0}),
                                  Field::zstring("SCTX", "return"), Field::u32("SCRO", 0x14),
                                  Field::zstring("CNAM", "log"),
                                  schr(0, 0, 0, 0),
                                  schr(0, 0, 0, 0), Field::u32("SCRO", 7)};
  const auto spans = find_scripts(fields);
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[0].first, 3u);
  EXPECT_EQ(spans[0].last, 7u);
  EXPECT_EQ(spans[1].first, 8u);
  EXPECT_EQ(spans[1].last, 9u);  // a SCHR starts the next script
  EXPECT_EQ(spans[2].first, 9u);
  EXPECT_EQ(spans[2].last, 11u);
  EXPECT_TRUE(find_scripts(std::vector<Field>{Field::zstring("EDID", "x")}).empty());
  EXPECT_TRUE(is_script_field(Signature("SCRV")));
  EXPECT_FALSE(is_script_field(Signature("SCRI")));
}
