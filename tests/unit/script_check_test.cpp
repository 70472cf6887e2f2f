// Comparing a recompiled script with the original, and finding the source line of a difference.
#include <gtest/gtest.h>

#include "tesmod/script/script_check.hpp"

using namespace tesmod;
using namespace tesmod::script;

namespace {

ScriptData sample() {
  ScriptData s;
  s.bytecode = {0x1D, 0x00, 0x00, 0x00,                                    // ScriptName
                0x10, 0x00, 0x06, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00,  // Begin GameMode
                0x1C, 0x00, 0x01, 0x00, 0x0D, 0x10, 0x00, 0x00,              // player.Activate (calling reference)
                0x1E, 0x00, 0x00, 0x00,                                    // return
                0x11, 0x00, 0x00, 0x00};                                   // end
  s.source = "scn Sample\r\n\r\nshort count ; a counter\r\nfloat timer\r\n\r\nbegin GameMode\r\n"
             "  ; nothing yet\r\n  player.Activate\r\n  return\r\nend\r\n";
  s.header = {0, 1, static_cast<std::uint32_t>(s.bytecode.size()), 2, 0};
  s.variables = {LocalVariable::make(1, true, "count"), LocalVariable::make(2, false, "timer")};
  s.refs = {{ScriptRef::Kind::Object, 0x14}};
  return s;
}

}  // namespace

TEST(ScriptCheck, IdenticalScriptsHaveNoDifference) {
  EXPECT_FALSE(compare_scripts(sample(), sample()));
  ScriptData other_text = sample();
  other_text.source = "something else";  // SCTX is the input, not compared
  EXPECT_FALSE(compare_scripts(sample(), other_text));
}

TEST(ScriptCheck, ReportsTheFirstDifferingFieldAndByte) {
  ScriptData c = sample();
  c.bytecode[18] = 0x0E;
  c.header.ref_count = 3;  // SCDA is reported first: the header's counts follow from the rest
  auto d = compare_scripts(sample(), c);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->field, "SCDA");
  EXPECT_EQ(d->byte, 18u);
  EXPECT_EQ(d->bytecode_offset, 18u);
  EXPECT_NE(d->message.find("0x0D in the original, 0x0E compiled"), std::string::npos) << d->message;

  // A statement of another length changes the Begin's block length first; the statement is the cause.
  c = sample();
  c.bytecode.insert(c.bytecode.begin() + 22, {0x19, 0x00, 0x00, 0x00});
  c.bytecode[10] += 4;
  d = compare_scripts(sample(), c);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->byte, 22u);
  EXPECT_EQ(source_line_at(sample().bytecode, *d->bytecode_offset, sample().source), 9u);
  c = sample();
  c.bytecode[10] += 1;  // only the block length differs: then it is reported
  d = compare_scripts(sample(), c);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->byte, 10u);

  c = sample();
  c.bytecode.pop_back();
  d = compare_scripts(sample(), c);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->byte, c.bytecode.size());
  EXPECT_NE(d->message.find("the end"), std::string::npos) << d->message;

  c = sample();
  c.variables[1].slsd[20] = 0x00;
  d = compare_scripts(sample(), c);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->field, "SLSD");
  EXPECT_EQ(d->byte, 20u);
  EXPECT_NE(d->message.find("timer"), std::string::npos);

  c = sample();
  c.variables[0].name = "counter";
  d = compare_scripts(sample(), c);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->field, "SCVR");
  EXPECT_EQ(d->byte, 5u);

  c = sample();
  c.variables.pop_back();
  d = compare_scripts(sample(), c);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->field, "SLSD");
  EXPECT_NE(d->message.find("missing"), std::string::npos);

  c = sample();
  c.refs[0] = {ScriptRef::Kind::Object, 0x07};
  d = compare_scripts(sample(), c);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->field, "SCRO");
  EXPECT_EQ(d->byte, 0u);
  c.refs[0] = {ScriptRef::Kind::Variable, 0x14};
  d = compare_scripts(sample(), c);
  ASSERT_TRUE(d);
  EXPECT_NE(d->message.find("SCRV"), std::string::npos) << d->message;
  c.refs = {{ScriptRef::Kind::Object, 0x14}, {ScriptRef::Kind::Variable, 1}};
  d = compare_scripts(sample(), c);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->field, "SCRV");
  EXPECT_NE(d->message.find("not in the original"), std::string::npos);

  c = sample();
  c.header.type = 1;
  d = compare_scripts(sample(), c);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->field, "SCHR");
  EXPECT_EQ(d->byte, 16u);
  EXPECT_NE(d->message.find("type"), std::string::npos);

  c = sample();
  c.has_bytecode = false;
  d = compare_scripts(sample(), c);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->field, "SCDA");
}

TEST(ScriptCheck, FindsTheSourceLineOfABytecodeOffset) {
  const ScriptData s = sample();
  EXPECT_EQ(source_line_at(s.bytecode, 0, s.source), 1u);   // scn
  EXPECT_EQ(source_line_at(s.bytecode, 9, s.source), 6u);   // begin
  EXPECT_EQ(source_line_at(s.bytecode, 14, s.source), 8u);  // the reference prefix
  EXPECT_EQ(source_line_at(s.bytecode, 19, s.source), 8u);  // the call after it
  EXPECT_EQ(source_line_at(s.bytecode, 22, s.source), 9u);
  EXPECT_EQ(source_line_at(s.bytecode, 26, s.source), 10u);
  EXPECT_EQ(source_line_at(s.bytecode, 99, s.source), 10u);  // past the end: the last statement
  // Lines and statements that do not pair up tell nothing.
  EXPECT_EQ(source_line_at(s.bytecode, 22, "scn Sample\nbegin GameMode\nend\n"), 0u);
  // A result script's decompiled text starts with a ScriptName line that compiles to nothing.
  const std::vector<std::uint8_t> result{0x1E, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00};
  EXPECT_EQ(source_line_at(result, 5, "ScriptName Script\n\nreturn\nend\n"), 4u);
  EXPECT_EQ(source_line_at(result, 5, "return\nend"), 2u);
}
