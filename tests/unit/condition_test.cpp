// The CTDA layouts as the spec pages give them: Skyrim's 32 bytes (UESP "CTDA Field"), Oblivion's
// 24 and the older 20-byte CTDT (formats.md §2). Bytes are written out here by hand, field by
// field, and decoded, checked and encoded again.
#include "tesmod/fields/condition.hpp"

#include <gtest/gtest.h>

#include <bit>

using namespace tesmod;
using namespace tesmod::fields;

namespace {

const ErrorContext kWhere{"Test.esp", 0x100, RecordRef{Signature("INFO"), 0x01000800, "TestInfo"}};

void put_u16(std::vector<std::uint8_t>& out, std::uint16_t v) {
  out.push_back(std::uint8_t(v));
  out.push_back(std::uint8_t(v >> 8));
}
void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(std::uint8_t(v >> (8 * i)));
}

// The spec's example, PlayerRef.GetDistance(MQ304AlduinHideInMistSouthMarker) > 6500 (with OR),
// laid out per the field table: operator in the upper 3 bits, flags in the lower 5, unused[3],
// comparison value, function index (opcode minus 4096), padding, param1, param2, run on type,
// reference, and the int32 that is "always -1".
std::vector<std::uint8_t> spec_example() {
  std::vector<std::uint8_t> b = {2 << 5 | 0x01, 0, 0, 0};  // Greater than, OR; unused[3]
  put_u32(b, std::bit_cast<std::uint32_t>(6500.0f));
  put_u16(b, 0x1001 - 4096);  // GetDistance
  put_u16(b, 0);
  put_u32(b, 0x000E1A2B);  // the marker (any FormID)
  put_u32(b, 0);
  put_u32(b, 2);           // Reference
  put_u32(b, 0x00000014);  // PlayerRef
  put_u32(b, 0xFFFFFFFF);
  return b;
}

}  // namespace

TEST(Condition, SkyrimLayoutFieldByField) {
  const std::vector<std::uint8_t> bytes = spec_example();
  ASSERT_EQ(bytes.size(), 32u);
  const Condition c = decode_condition(Game::SkyrimSE, kCTDA, bytes, kWhere);
  EXPECT_EQ(c.layout, ConditionLayout::Skyrim);
  EXPECT_EQ(c.op, CompareOp::Greater);
  EXPECT_TRUE(c.is_or());
  EXPECT_FALSE(c.uses_global());
  EXPECT_EQ(c.value_float(), 6500.0f);
  EXPECT_EQ(c.function, 1);
  ASSERT_NE(c.function_info(), nullptr);
  EXPECT_EQ(c.function_info()->name, "GetDistance");
  EXPECT_EQ(c.param_specs()[0].kind, ParamKind::FormId);
  EXPECT_EQ(c.param_specs()[0].type_name, "ObjectReference");
  EXPECT_EQ(c.param_specs()[1].kind, ParamKind::None);
  EXPECT_EQ(c.param1, 0x000E1A2Bu);
  EXPECT_EQ(c.run_on, RunOn::Reference);
  EXPECT_EQ(c.reference, 0x14u);
  EXPECT_EQ(c.param3, -1);
  EXPECT_EQ(encode_condition_data(c), bytes);
  const std::vector<Field> fields = encode_condition(c);
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].type, kCTDA);
}

TEST(Condition, OperatorsAreTheUpperThreeBits) {
  // 0 Equal to, 1 Not equal to, 2 Greater than, 3 Greater than or equal to, 4 Less than,
  // 5 Less than or equal to.
  const std::string_view symbols[] = {"==", "!=", ">", ">=", "<", "<="};
  for (std::uint8_t op = 0; op < 8; ++op) {
    std::vector<std::uint8_t> bytes = spec_example();
    bytes[0] = std::uint8_t(op << 5);
    const Condition c = decode_condition(Game::SkyrimLE, kCTDA, bytes, kWhere);
    EXPECT_EQ(std::uint8_t(c.op), op);
    EXPECT_EQ(c.flags, 0);
    EXPECT_EQ(compare_op_symbol(c.op), op < 6 ? symbols[op] : "");
    EXPECT_EQ(encode_condition_data(c), bytes);
  }
}

TEST(Condition, SkyrimFlagsAreTheLowerFiveBits) {
  struct Case {
    std::uint8_t bit;
    std::uint8_t flag;
  };
  // 0x01 OR, 0x02 use aliases, 0x04 use global, 0x08 use pack data, 0x10 swap subject and target.
  const Case cases[] = {{0x01, condition_flag::kOr},
                        {0x02, condition_flag::kUseAliases},
                        {0x04, condition_flag::kUseGlobal},
                        {0x08, condition_flag::kUsePackData},
                        {0x10, condition_flag::kSwapSubjectTarget}};
  for (const Case& k : cases) {
    std::vector<std::uint8_t> bytes = spec_example();
    bytes[0] = std::uint8_t(3 << 5 | k.bit);
    const Condition c = decode_condition(Game::SkyrimSE, kCTDA, bytes, kWhere);
    EXPECT_EQ(c.op, CompareOp::GreaterOrEqual);
    EXPECT_TRUE(c.has(k.flag));
    EXPECT_EQ(c.flags, k.bit);
    EXPECT_EQ(encode_condition_data(c), bytes);
  }
}

TEST(Condition, GlobalComparisonValueIsAFormId) {
  std::vector<std::uint8_t> bytes = spec_example();
  bytes[0] = 0x04;
  bytes[4] = 0x63;  // GLOB 00000063
  bytes[5] = bytes[6] = bytes[7] = 0;
  const Condition c = decode_condition(Game::SkyrimSE, kCTDA, bytes, kWhere);
  EXPECT_TRUE(c.uses_global());
  EXPECT_EQ(c.value, 0x63u);
}

TEST(Condition, UnusedAndPaddingBytesAreKept) {
  std::vector<std::uint8_t> bytes = spec_example();
  bytes[1] = 0xD9, bytes[2] = 0x2B, bytes[3] = 0x01;  // "Unused data?"
  bytes[10] = 0x54;                                   // "may be non-zero, but the bytes are unused"
  bytes[28] = 0;                                      // param3 other than -1
  const Condition c = decode_condition(Game::SkyrimSE, kCTDA, bytes, kWhere);
  EXPECT_EQ(c.unused, (std::array<std::uint8_t, 3>{0xD9, 0x2B, 0x01}));
  EXPECT_EQ(c.padding, 0x54);
  EXPECT_EQ(c.param3, -256);  // 00 FF FF FF
  EXPECT_EQ(encode_condition_data(c), bytes);
}

TEST(Condition, GetEventDataPacksFunctionAndMember) {
  // "param1 uint16 Event Function, param2 char[2] Event Member, param3 formID".
  std::vector<std::uint8_t> bytes = spec_example();
  bytes[0] = 0;
  bytes[8] = 0x40, bytes[9] = 0x02;  // 576
  bytes[12] = 0x00, bytes[13] = 0x00, bytes[14] = 'K', bytes[15] = '1';
  bytes[16] = 0x48, bytes[17] = 0xA5, bytes[18] = 0x06, bytes[19] = 0x02;
  const Condition c = decode_condition(Game::SkyrimSE, kCTDA, bytes, kWhere);
  EXPECT_EQ(c.function_info()->name, "GetEventData");
  EXPECT_EQ(c.param_specs()[0].kind, ParamKind::Event);
  EXPECT_EQ(c.event_function(), 0);
  EXPECT_EQ(c.event_member(), 'K' | '1' << 8);
  EXPECT_EQ(c.param2, 0x0206A548u);
}

TEST(Condition, RunOnTypes) {
  const std::string_view names[] = {"Subject",         "Target",     "Reference",   "CombatTarget",
                                    "LinkedReference", "QuestAlias", "PackageData", "EventData"};
  for (std::uint32_t r = 0; r < 8; ++r) {
    std::vector<std::uint8_t> bytes = spec_example();
    bytes[20] = std::uint8_t(r);
    const Condition c = decode_condition(Game::SkyrimSE, kCTDA, bytes, kWhere);
    EXPECT_EQ(run_on_name(c.run_on), names[r]);
  }
}

TEST(Condition, OblivionLayoutAndCtdt) {
  // formats.md §2: u8 type (0x02 = run on target), 3 unused, value, u32 function, p1, p2, 4 unused.
  std::vector<std::uint8_t> bytes = {0x42, 0, 0, 0};
  put_u32(bytes, std::bit_cast<std::uint32_t>(100.0f));
  put_u32(bytes, 0x100E - 0x1000);  // GetActorValue
  put_u32(bytes, 39);               // Infamy
  put_u32(bytes, 0);
  put_u32(bytes, 0);
  Condition c = decode_condition(Game::Oblivion, kCTDA, bytes, kWhere);
  EXPECT_EQ(c.layout, ConditionLayout::Oblivion);
  EXPECT_EQ(c.op, CompareOp::Greater);
  EXPECT_TRUE(c.has(condition_flag::kRunOnTarget));
  EXPECT_EQ(c.function_info()->name, "GetActorValue");
  EXPECT_EQ(c.param_specs()[0].kind, ParamKind::ActorValue);
  EXPECT_EQ(param_value_name(Game::Oblivion, ParamKind::ActorValue, c.param1), "Infamy");
  EXPECT_EQ(encode_condition_data(c), bytes);

  bytes[20] = 0xAB;  // the unused tail is kept too
  EXPECT_EQ(encode_condition_data(decode_condition(Game::Oblivion, kCTDA, bytes, kWhere)), bytes);

  bytes.resize(20);
  c = decode_condition(Game::Oblivion, kCTDT, bytes, kWhere);
  EXPECT_EQ(c.layout, ConditionLayout::OblivionCtdt);
  const std::vector<Field> fields = encode_condition(c);
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].type, kCTDT);
  EXPECT_EQ(fields[0].data, bytes);
}

TEST(Condition, WrongSizesAreErrorsWithTheFieldOffset) {
  std::vector<std::uint8_t> bytes = spec_example();
  bytes.pop_back();
  try {
    decode_condition(Game::SkyrimSE, kCTDA, bytes, kWhere, 0x1234);
    FAIL() << "a 31-byte CTDA decoded";
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), 0x1234u);
    EXPECT_EQ(e.file(), "Test.esp");
    ASSERT_TRUE(e.record());
    EXPECT_EQ(e.record()->editor_id, "TestInfo");
    EXPECT_NE(e.detail().find("32-byte"), std::string::npos) << e.detail();
  }
  EXPECT_THROW(decode_condition(Game::Oblivion, kCTDA, std::vector<std::uint8_t>(20), kWhere), Error);
  EXPECT_THROW(decode_condition(Game::Oblivion, kCTDT, std::vector<std::uint8_t>(24), kWhere), Error);
  EXPECT_THROW(decode_condition(Game::SkyrimLE, kCTDT, std::vector<std::uint8_t>(20), kWhere), Error);
}

TEST(Condition, CisFieldsFollowTheirCondition) {
  // A record's fields: CTDA, CIS2, CTDA, CIS1, CIS2, then something else.
  std::vector<Field> fields;
  const std::vector<std::uint8_t> ctda = spec_example();
  fields.push_back(Field::bytes(kCTDA, ctda));
  fields.push_back(Field::zstring(kCIS2, "::IsSkyrimVR_var"));
  fields.push_back(Field::bytes(kCTDA, ctda));
  fields.push_back(Field::zstring(kCIS1, "a"));
  fields.push_back(Field::zstring(kCIS2, "b"));
  fields.push_back(Field::u32("CITC", 2));
  std::vector<std::uint8_t> body;
  encode_fields(fields, body);
  const std::vector<SubrecordView> views = read_subrecords(body, kWhere);
  const std::vector<LocatedCondition> found = read_conditions(Game::SkyrimSE, views, kWhere);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].first, 0u);
  EXPECT_EQ(found[0].last, 2u);
  EXPECT_FALSE(found[0].condition.cis1);
  EXPECT_EQ(found[0].condition.cis2, std::string("::IsSkyrimVR_var\0", 17));
  EXPECT_EQ(found[1].first, 2u);
  EXPECT_EQ(found[1].last, 5u);
  EXPECT_EQ(found[1].condition.cis1, std::string("a\0", 2));
  const std::vector<Field> again = encode_condition(found[1].condition);
  ASSERT_EQ(again.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(again[i], fields[2 + i]);
  EXPECT_EQ(decode_condition_fields(Game::SkyrimSE, std::span(fields).subspan(2, 3), kWhere), found[1].condition);
  EXPECT_THROW(decode_condition_fields(Game::SkyrimSE, std::span(fields).subspan(2, 4), kWhere), Error);
}

TEST(ConditionFunctions, IndexIsOpcodeMinus4096InBothGames) {
  for (Game g : {Game::Oblivion, Game::SkyrimSE}) {
    const ConditionFunction* f = find_condition_function(g, "getdistance");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->index, 0x1001 - 4096);
    EXPECT_EQ(find_condition_function(g, std::uint16_t(1)), f);
  }
  // Skyrim: GetVMQuestVariable takes a quest and a variable name (CIS2).
  const ConditionFunction* vm = find_condition_function(Game::SkyrimLE, std::uint16_t(629));
  ASSERT_NE(vm, nullptr);
  EXPECT_EQ(vm->name, "GetVMQuestVariable");
  EXPECT_EQ(vm->params[1].kind, ParamKind::VariableName);
  // A short name that is another function's full name: the full name wins.
  EXPECT_EQ(find_condition_function(Game::SkyrimSE, "HasSpell")->index, 264);
  EXPECT_EQ(find_condition_function(Game::SkyrimSE, "GetAV")->index, 14);
  // Oblivion's come from the script command table: GetQuestVariable (0x104F) takes a quest and a
  // variable index.
  const ConditionFunction* qv = find_condition_function(Game::Oblivion, std::uint16_t(0x4F));
  ASSERT_NE(qv, nullptr);
  EXPECT_EQ(qv->name, "GetQuestVariable");
  EXPECT_EQ(qv->params[0].kind, ParamKind::FormId);
  EXPECT_EQ(qv->params[1].kind, ParamKind::VariableName);
  EXPECT_EQ(find_condition_function(Game::SkyrimSE, std::uint16_t(2)), nullptr);
}

TEST(ConditionFunctions, EnumeratedValues) {
  EXPECT_EQ(param_value_name(Game::SkyrimSE, ParamKind::Axis, 'Z'), "Z");
  EXPECT_EQ(param_value_code(Game::Oblivion, ParamKind::Sex, "female"), 1u);
  EXPECT_EQ(param_value_name(Game::SkyrimSE, ParamKind::ActorValue, 8), "Archery");
  EXPECT_EQ(param_value_name(Game::Oblivion, ParamKind::ActorValue, 14), "Blade");
  EXPECT_EQ(param_value_name(Game::SkyrimSE, ParamKind::CastingSource, 2), "Voice");
  EXPECT_EQ(param_value_name(Game::SkyrimSE, ParamKind::CrimeType, 6), "WerewolfTransformation");
  EXPECT_FALSE(param_value_name(Game::Oblivion, ParamKind::CrimeType, 6));
  EXPECT_EQ(param_value_code(Game::SkyrimSE, ParamKind::MiscStat, "LocksPicked"), 0x5829CC2Eu);
  EXPECT_EQ(param_value_name(Game::SkyrimSE, ParamKind::FormType, 12), "Weapon");
  EXPECT_EQ(param_value_name(Game::Oblivion, ParamKind::FormType, 33), "Weapon");
  EXPECT_FALSE(param_value_name(Game::SkyrimSE, ParamKind::Axis, 3));
}
