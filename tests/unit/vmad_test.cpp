// VMAD decode / encode / edit / render, on bytes built here by hand from the layouts of the UESP
// page "Skyrim Mod:Mod File Format/VMAD Field" (every version, both object formats, every
// fragment kind), and on malformed variants of them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "byte_builder.hpp"
#include "tesmod/fields/vmad.hpp"
#include "tesmod/fields/vmad_edit.hpp"
#include "tesmod/fields/vmad_plugin.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/text/vmad_text.hpp"

using namespace tesmod;
using namespace tesmod::fields;

namespace {

using Bytes = tesmod::test::ByteBuilder;

const ErrorContext kWhere{"test.esp", 0x40, RecordRef{"QUST", 0x01000800, "TestQuest"}};

Vmad decode(const Bytes& bytes, Signature type = "ACTI") { return decode_vmad(bytes.b, type, kWhere, 1000); }

// Decodes, checks the re-encode is byte-identical, returns the model.
Vmad round_trip(const Bytes& bytes, Signature type = "ACTI") {
  Vmad v = decode(bytes, type);
  EXPECT_EQ(encode_vmad(v), bytes.b);
  return v;
}

// The tesmod::Error a decode raises (fails the test when there is none).
Error decode_error(const Bytes& bytes, Signature type = "ACTI", std::uint64_t data_offset = 1000) {
  try {
    decode_vmad(bytes.b, type, kWhere, data_offset);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected a tesmod::Error";
  return Error("", 0, std::nullopt, "");
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Version 5, object format 2: one script with one property of every type.
Bytes every_type_v5() {
  Bytes b;
  b.i16(5).i16(2).u16(1);
  b.ws("AllTypes").u8(0).u16(11);
  b.ws("Obj").u8(1).u8(1).u16(0).i16(-1).u32(0x0001ABCD);       // format 2: unused, alias, FormID
  b.ws("AliasObj").u8(1).u8(1).u16(0).i16(3).u32(0x01000800);   // a quest alias
  b.ws("Str").u8(2).u8(1).ws("Hello");
  b.ws("Int").u8(3).u8(1).i32(-42);
  b.ws("Flt").u8(4).u8(1).f32(1.5f);
  b.ws("Flag").u8(5).u8(3).u8(1);  // status 3: removed
  b.ws("Objs").u8(11).u8(1).u32(2).u16(0).i16(-1).u32(0x14).u16(0).i16(0).u32(0x01000801);
  b.ws("Strs").u8(12).u8(1).u32(2).ws("a").ws("");
  b.ws("Ints").u8(13).u8(1).u32(3).i32(1).i32(2).i32(-3);
  b.ws("Flts").u8(14).u8(1).u32(1).f32(-0.25f);
  b.ws("Flags").u8(15).u8(1).u32(3).u8(1).u8(0).u8(1);
  return b;
}

}  // namespace

TEST(VmadDecode, Version5EveryPropertyType) {
  const Vmad v = round_trip(every_type_v5());
  EXPECT_EQ(v.version, 5);
  EXPECT_EQ(v.object_format, 2);
  EXPECT_FALSE(v.fragments);
  ASSERT_EQ(v.scripts.size(), 1u);
  const Script& s = v.scripts[0];
  EXPECT_EQ(s.name, "AllTypes");
  EXPECT_EQ(s.status, Script::kLocal);
  ASSERT_EQ(s.properties.size(), 11u);
  const auto& p = s.properties;
  EXPECT_EQ(p[0].type(), PropertyType::Object);
  EXPECT_EQ(std::get<VmadObject>(p[0].value), (VmadObject{0x0001ABCD, -1, 0}));
  EXPECT_EQ(std::get<VmadObject>(p[1].value), (VmadObject{0x01000800, 3, 0}));
  EXPECT_EQ(std::get<std::string>(p[2].value), "Hello");
  EXPECT_EQ(std::get<std::int32_t>(p[3].value), -42);
  EXPECT_EQ(std::get<float>(p[4].value), 1.5f);
  EXPECT_EQ(std::get<bool>(p[5].value), true);
  EXPECT_EQ(p[5].status, Property::kRemoved);
  EXPECT_EQ(p[6].type(), PropertyType::ObjectArray);
  EXPECT_EQ(std::get<std::vector<VmadObject>>(p[6].value),
            (std::vector<VmadObject>{{0x14, -1, 0}, {0x01000801, 0, 0}}));
  EXPECT_EQ(std::get<std::vector<std::string>>(p[7].value), (std::vector<std::string>{"a", ""}));
  EXPECT_EQ(std::get<std::vector<std::int32_t>>(p[8].value), (std::vector<std::int32_t>{1, 2, -3}));
  EXPECT_EQ(std::get<std::vector<float>>(p[9].value), (std::vector<float>{-0.25f}));
  EXPECT_EQ(p[9].type(), PropertyType::FloatArray);
}

TEST(VmadDecode, BoolArrayAndTypeNumbers) {
  const Vmad v = round_trip(every_type_v5());
  const Property* flags = find_property(v.scripts[0], "flags");  // names match without case
  ASSERT_NE(flags, nullptr);
  EXPECT_EQ(flags->type(), PropertyType::BoolArray);
  EXPECT_EQ(std::get<std::vector<bool>>(flags->value), (std::vector<bool>{true, false, true}));
  // The type byte written for each value is the spec's number.
  EXPECT_EQ(static_cast<int>(type_of(PropertyValue(std::vector<std::string>{}))), 12);
  EXPECT_EQ(static_cast<int>(type_of(PropertyValue(false))), 5);
  EXPECT_EQ(to_string(PropertyType::IntArray), "int[]");
}

TEST(VmadDecode, ObjectFormat1PutsTheFormIdFirst) {
  Bytes b;
  b.i16(5).i16(1).u16(1).ws("S").u8(0).u16(2);
  b.ws("A").u8(1).u8(1).u32(0x0001ABCD).i16(-1).u16(0);
  b.ws("B").u8(11).u8(1).u32(1).u32(0x02000D62).i16(7).u16(0);
  const Vmad v = round_trip(b);
  EXPECT_EQ(v.object_format, 1);
  EXPECT_EQ(std::get<VmadObject>(v.scripts[0].properties[0].value), (VmadObject{0x0001ABCD, -1, 0}));
  EXPECT_EQ(std::get<std::vector<VmadObject>>(v.scripts[0].properties[1].value)[0], (VmadObject{0x02000D62, 7, 0}));
}

TEST(VmadDecode, UnusedObjectBytesAreKept) {
  Bytes b;
  b.i16(5).i16(2).u16(1).ws("S").u8(0).u16(1).ws("A").u8(1).u8(1).u16(0xBEEF).i16(-1).u32(0x10);
  const Vmad v = round_trip(b);
  EXPECT_EQ(std::get<VmadObject>(v.scripts[0].properties[0].value).unused, 0xBEEF);
}

TEST(VmadDecode, Version4HasStatusesButNoArrays) {
  Bytes b;
  b.i16(4).i16(2).u16(2);
  b.ws("Inherited").u8(1).u16(1).ws("X").u8(3).u8(1).i32(7);
  b.ws("Gone").u8(3).u16(0);
  const Vmad v = round_trip(b);
  EXPECT_EQ(v.scripts[0].status, Script::kInheritedAltered);
  EXPECT_EQ(v.scripts[1].status, Script::kInheritedRemoved);

  Bytes arr;
  arr.i16(4).i16(2).u16(1).ws("S").u8(0).u16(1).ws("A").u8(13).u8(1).u32(0);
  const Error e = decode_error(arr);
  EXPECT_TRUE(contains(e.detail(), "arrays need version 5")) << e.what();
  EXPECT_EQ(e.offset(), 1000u + 2 + 2 + 2 + 3 + 1 + 2 + 3);  // the type byte
}

TEST(VmadDecode, Versions2And3StoreNoStatus) {
  for (std::int16_t version : {2, 3}) {
    Bytes b;
    b.i16(version).i16(1).u16(1).ws("Old").u16(2);
    b.ws("Target").u8(1).u32(0x00012345).i16(-1).u16(0);
    b.ws("Count").u8(3).i32(12);
    const Vmad v = round_trip(b);
    EXPECT_EQ(v.version, version);
    ASSERT_EQ(v.scripts.size(), 1u);
    EXPECT_EQ(v.scripts[0].status, Script::kLocal);  // the spec's defaults
    EXPECT_EQ(v.scripts[0].properties[0].status, Property::kEdited);
    EXPECT_EQ(std::get<std::int32_t>(v.scripts[0].properties[1].value), 12);

    // A status those versions cannot store is refused, not dropped.
    Vmad changed = v;
    changed.scripts[0].properties[1].status = Property::kRemoved;
    EXPECT_THROW(encode_vmad(changed), Error);
    changed = v;
    changed.scripts[0].status = Script::kInheritedAltered;
    EXPECT_THROW(encode_vmad(changed), Error);
  }
}

TEST(VmadDecode, InfoFragments) {
  Bytes b;
  b.i16(5).i16(2).u16(0);
  b.u8(2).u8(0x3).ws("TIF__01000ABC");
  b.u8(1).ws("TIF__01000ABC").ws("Fragment_0");
  b.u8(1).ws("TIF__01000ABC").ws("Fragment_1");
  const Vmad v = round_trip(b, "INFO");
  ASSERT_TRUE(v.fragments);
  const auto& info = std::get<InfoFragments>(*v.fragments);
  EXPECT_EQ(info.unknown, 2);
  EXPECT_EQ(info.file_name, "TIF__01000ABC");
  ASSERT_EQ(info.fragments.size(), 2u);
  EXPECT_EQ(info.fragments[0].flag, kBeginFragment);
  EXPECT_EQ(info.fragments[0].fragment.function_name, "Fragment_0");
  EXPECT_EQ(info.fragments[1].flag, kEndFragment);
  EXPECT_EQ(info.fragments[1].fragment.function_name, "Fragment_1");
  EXPECT_EQ(record_type_of(*v.fragments), Signature("INFO"));

  // An INFO may end after its scripts: no fragment section.
  Bytes plain;
  plain.i16(5).i16(2).u16(0);
  EXPECT_FALSE(round_trip(plain, "INFO").fragments);
}

TEST(VmadDecode, PackageFragmentsFollowFlagOrder) {
  Bytes b;
  b.i16(5).i16(2).u16(0);
  b.u8(2).u8(0x6).ws("PF_Sleep_01000D00");  // end and change
  b.u8(1).ws("PF_Sleep_01000D00").ws("Fragment_End");
  b.u8(1).ws("PF_Sleep_01000D00").ws("Fragment_Change");
  const Vmad v = round_trip(b, "PACK");
  const auto& pack = std::get<PackageFragments>(*v.fragments);
  ASSERT_EQ(pack.fragments.size(), 2u);
  EXPECT_EQ(pack.fragments[0].flag, kEndFragment);
  EXPECT_EQ(pack.fragments[1].flag, kChangeFragment);
  EXPECT_EQ(pack.fragments[1].fragment.function_name, "Fragment_Change");
}

TEST(VmadDecode, PerkFragments) {
  Bytes b;
  b.i16(5).i16(2).u16(1).ws("PerkScript").u8(0).u16(0);
  b.u8(2).ws("PRKF_Lantern_01000900").u16(2);
  b.u16(0).i16(0).u8(1).ws("PRKF_Lantern_01000900").ws("Fragment_0");
  b.u16(3).i16(-2).u8(1).ws("PRKF_Lantern_01000900").ws("Fragment_3");
  const Vmad v = round_trip(b, "PERK");
  const auto& perk = std::get<PerkFragments>(*v.fragments);
  EXPECT_EQ(perk.file_name, "PRKF_Lantern_01000900");
  ASSERT_EQ(perk.fragments.size(), 2u);
  EXPECT_EQ(perk.fragments[1].index, 3);
  EXPECT_EQ(perk.fragments[1].unknown, -2);
  EXPECT_EQ(perk.fragments[1].fragment.function_name, "Fragment_3");
}

namespace {

// A quest: one script, two stage fragments, and two aliases with scripts; the second alias is
// read with its own version 4 and object format 1 (no arrays; FormID first).
Bytes quest_bytes() {
  Bytes b;
  b.i16(5).i16(2).u16(1).ws("QF_Test_01000800").u8(0).u16(1);
  b.ws("Alias_Hero").u8(1).u8(1).u16(0).i16(0).u32(0x01000800);
  b.u8(2).u16(2).ws("QF_Test_01000800");
  b.u16(10).i16(0).i32(0).u8(1).ws("QF_Test_01000800").ws("Fragment_0");
  b.u16(20).i16(0).i32(1).u8(1).ws("QF_Test_01000800").ws("Fragment_2");
  b.u16(2);
  b.u16(0).i16(0).u32(0x01000800).i16(5).i16(2).u16(1);  // alias 0, format 2 object
  b.ws("HeroAliasScript").u8(0).u16(1).ws("Ids").u8(13).u8(1).u32(2).i32(5).i32(6);
  b.u16(0).i16(4).u32(0x01000800).i16(4).i16(1).u16(2);  // alias 4
  b.ws("LegacyAlias").u8(0).u16(1).ws("Target").u8(1).u8(1).u32(0x14).i16(-1).u16(0);
  b.ws("Second").u8(1).u16(0);
  return b;
}

}  // namespace

TEST(VmadDecode, QuestFragmentsAndAliases) {
  const Vmad v = round_trip(quest_bytes(), "QUST");
  const auto& q = std::get<QuestFragments>(*v.fragments);
  EXPECT_EQ(q.file_name, "QF_Test_01000800");
  ASSERT_EQ(q.fragments.size(), 2u);
  EXPECT_EQ(q.fragments[1].stage, 20);
  EXPECT_EQ(q.fragments[1].log_entry, 1);
  EXPECT_EQ(q.fragments[1].fragment.function_name, "Fragment_2");
  ASSERT_EQ(q.aliases.size(), 2u);
  EXPECT_EQ(q.aliases[0].object, VmadObject::quest_alias(0x01000800, 0));
  EXPECT_EQ(std::get<std::vector<std::int32_t>>(q.aliases[0].scripts[0].properties[0].value),
            (std::vector<std::int32_t>{5, 6}));
  EXPECT_EQ(q.aliases[1].object.alias, 4);
  EXPECT_EQ(q.aliases[1].version, 4);
  EXPECT_EQ(q.aliases[1].object_format, 1);
  EXPECT_EQ(std::get<VmadObject>(q.aliases[1].scripts[0].properties[0].value), VmadObject::form(0x14));
  EXPECT_EQ(q.aliases[1].scripts[1].status, Script::kInheritedAltered);
}

TEST(VmadDecode, QuestWithAliasesOnly) {
  Bytes b;
  b.i16(5).i16(2).u16(0);
  b.u8(2).u16(0).ws("");  // no fragments, no file name
  b.u16(1).u16(0).i16(1).u32(0x01000800).i16(5).i16(2).u16(1).ws("A").u8(0).u16(0);
  const Vmad v = round_trip(b, "QUST");
  const auto& q = std::get<QuestFragments>(*v.fragments);
  EXPECT_TRUE(q.fragments.empty());
  EXPECT_EQ(q.aliases.size(), 1u);
}

TEST(VmadDecode, SceneFragmentsAndPhases) {
  Bytes b;
  b.i16(5).i16(2).u16(0);
  b.u8(2).u8(0x2).ws("SF_Scene_01000A00");
  b.u8(1).ws("SF_Scene_01000A00").ws("Fragment_0");  // end
  b.u16(2);
  b.u8(1).u32(8).u8(1).ws("SF_Scene_01000A00").ws("Fragment_1");
  b.u8(2).u32(2).u8(1).ws("SF_Scene_01000A00").ws("Fragment_6");
  const Vmad v = round_trip(b, "SCEN");
  const auto& s = std::get<SceneFragments>(*v.fragments);
  ASSERT_EQ(s.fragments.size(), 1u);
  EXPECT_EQ(s.fragments[0].flag, kEndFragment);
  ASSERT_EQ(s.phases.size(), 2u);
  EXPECT_EQ(s.phases[0].unknown, 1);
  EXPECT_EQ(s.phases[0].phase, 8u);
  EXPECT_EQ(s.phases[1].phase, 2u);  // stored order kept
  EXPECT_EQ(s.phases[1].fragment.function_name, "Fragment_6");
}

TEST(VmadDecode, FloatBitsSurvive) {
  Bytes b;
  b.i16(5).i16(2).u16(1).ws("S").u8(0).u16(1).ws("F").u8(4).u8(1).u32(0x7FC00123);  // a NaN with a payload
  const Vmad v = round_trip(b);
  EXPECT_TRUE(std::isnan(std::get<float>(v.scripts[0].properties[0].value)));
}

// ---- malformed input ----

TEST(VmadMalformed, EveryTruncationIsAnError) {
  for (const auto& [bytes, type] : {std::pair{every_type_v5(), Signature("ACTI")}, std::pair{quest_bytes(), Signature("QUST")}}) {
    std::size_t valid = 0;
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      Bytes cut;
      cut.b.assign(bytes.b.begin(), bytes.b.begin() + static_cast<std::ptrdiff_t>(n));
      try {
        // A quest cut right after its scripts is a VMAD without a fragment section.
        const Vmad v = decode(cut, type);
        EXPECT_FALSE(v.fragments);
        EXPECT_EQ(encode_vmad(v), cut.b);
        ++valid;
      } catch (const Error& e) {
        // The offset is inside (or just at the end of) the field.
        EXPECT_GE(e.offset(), 1000u);
        EXPECT_LE(e.offset(), 1000u + n) << e.what();
        EXPECT_EQ(e.file(), "test.esp");
        ASSERT_TRUE(e.record());
        EXPECT_EQ(e.record()->editor_id, "TestQuest");
      }
    }
    EXPECT_EQ(valid, type == Signature("QUST") ? 1u : 0u);
  }
}

TEST(VmadMalformed, BytesLeftOver) {
  Bytes b = every_type_v5();
  b.u8(0);
  Error e = decode_error(b, "WEAP");
  EXPECT_TRUE(contains(e.detail(), "1 byte left after the scripts; a VMAD of a WEAP record has no fragment section"))
      << e.what();
  EXPECT_EQ(e.offset(), 1000u + b.size() - 1);

  Bytes q = quest_bytes();
  q.u8(0).u8(0);
  e = decode_error(q, "QUST");
  EXPECT_TRUE(contains(e.detail(), "2 bytes left after the QUST fragment section")) << e.what();
}

TEST(VmadMalformed, HeaderValues) {
  Bytes b;
  b.i16(6).i16(2).u16(0);
  Error e = decode_error(b);
  EXPECT_TRUE(contains(e.detail(), "VMAD version is 6; expected 2 to 5")) << e.what();
  EXPECT_EQ(e.offset(), 1000u);
  Bytes f;
  f.i16(5).i16(3).u16(0);
  e = decode_error(f);
  EXPECT_TRUE(contains(e.detail(), "object format is 3; expected 1 or 2")) << e.what();
  EXPECT_EQ(e.offset(), 1002u);
}

TEST(VmadMalformed, UnknownPropertyTypeAndBadBool) {
  Bytes b;
  b.i16(5).i16(2).u16(1).ws("Scr").u8(0).u16(1).ws("Prop").u8(7).u8(1);
  Error e = decode_error(b);
  EXPECT_TRUE(contains(e.detail(), "property type 7; expected 1 to 5 or 11 to 15")) << e.what();
  EXPECT_TRUE(contains(e.detail(), "in script 'Scr', property 'Prop'")) << e.what();
  EXPECT_EQ(e.offset(), 1000u + 6 + 5 + 1 + 2 + 6);

  Bytes flag;
  flag.i16(5).i16(2).u16(1).ws("S").u8(0).u16(1).ws("B").u8(5).u8(1).u8(2);
  e = decode_error(flag);
  EXPECT_TRUE(contains(e.detail(), "bool value 2; expected 0 or 1")) << e.what();
  EXPECT_EQ(e.offset(), 1000u + flag.size() - 1);
}

TEST(VmadMalformed, CountsThatCannotFitFailBeforeAllocating) {
  Bytes arr;
  arr.i16(5).i16(2).u16(1).ws("S").u8(0).u16(1).ws("A").u8(13).u8(1).u32(0xFFFFFFFF);
  Error e = decode_error(arr);
  EXPECT_TRUE(contains(e.detail(), "4294967295 array items need at least 17179869180 bytes")) << e.what();

  Bytes scripts;
  scripts.i16(5).i16(2).u16(60000);
  e = decode_error(scripts);
  EXPECT_TRUE(contains(e.detail(), "60000 scripts need at least")) << e.what();
  EXPECT_EQ(e.offset(), 1004u);

  Bytes name;
  name.i16(5).i16(2).u16(1).u16(50);
  for (int i = 0; i < 10; ++i) name.u8('x');
  e = decode_error(name);
  EXPECT_TRUE(contains(e.detail(), "the script name of 50 bytes runs past the end")) << e.what();
}

TEST(VmadMalformed, FragmentFlagsPromiseMoreThanThereIs) {
  Bytes b;
  b.i16(5).i16(2).u16(0).u8(2).u8(0xFF).ws("TIF").u8(1).ws("TIF").ws("Fragment_0");
  const Error e = decode_error(b, "INFO");
  EXPECT_TRUE(contains(e.detail(), "8 flagged fragments need at least")) << e.what();
}

TEST(VmadMalformed, InflatedDataNamesTheRecordAndTheByte) {
  Bytes b;
  b.i16(5).i16(9).u16(0);
  const Error e = decode_error(b, "ACTI", Error::kNoOffset);
  EXPECT_EQ(e.offset(), 0x40u);  // the record's
  EXPECT_TRUE(contains(e.detail(), "at byte 2 of the VMAD field")) << e.what();
}

// ---- encoding what the layout cannot hold ----

TEST(VmadEncode, RefusesWhatTheLayoutCannotHold) {
  Vmad v;
  v.version = 4;
  Script& s = add_script(v.scripts, "S");
  set_property(s, "A", std::vector<std::int32_t>{1});
  EXPECT_THROW(encode_vmad(v), Error);  // arrays need version 5
  v.version = 5;
  EXPECT_NO_THROW(encode_vmad(v));
  v.version = 1;
  EXPECT_THROW(encode_vmad(v), Error);
  v.version = 5;
  v.object_format = 0;
  EXPECT_THROW(encode_vmad(v), Error);
  v.object_format = 2;
  set_property(s, "Long", std::string(70000, 'x'));
  EXPECT_THROW(encode_vmad(v), Error);
  remove_property(s, "Long");

  InfoFragments info;
  info.fragments.push_back({0x3, {}});  // not a single bit
  v.fragments = info;
  EXPECT_THROW(encode_vmad(v), Error);
  info.fragments = {{kEndFragment, {}}, {kEndFragment, {}}};  // twice
  v.fragments = info;
  EXPECT_THROW(encode_vmad(v), Error);
}

TEST(VmadEncode, FlaggedFragmentsAreWrittenInBitOrder) {
  Vmad v;
  PackageFragments pack;
  pack.file_name = "PF";
  pack.fragments = {{kChangeFragment, {1, "PF", "Fragment_C"}}, {kBeginFragment, {1, "PF", "Fragment_B"}}};
  v.fragments = pack;
  Bytes expected;
  expected.i16(5).i16(2).u16(0).u8(2).u8(0x5).ws("PF");
  expected.u8(1).ws("PF").ws("Fragment_B").u8(1).ws("PF").ws("Fragment_C");
  EXPECT_EQ(encode_vmad(v), expected.b);
}

// ---- editing ----

TEST(VmadEdit, EachEditChangesExactlyWhatWasAsked) {
  const Vmad original = decode(quest_bytes(), "QUST");

  Vmad edited = original;
  Script* main = find_script(edited.scripts, "qf_test_01000800");
  ASSERT_NE(main, nullptr);
  set_property(*main, "Alias_Hero", VmadObject::quest_alias(0x01000800, 2));  // change a value
  set_property(*main, "Gold", 250);                                            // add an int
  set_property(*main, "Names", std::vector<std::string>{"Ann", "Bo"});         // add an array
  Script& extra = add_script(edited.scripts, "ExtraScript");
  set_property(extra, "Speed", 2.5f);
  auto& q = fragments_of<QuestFragments>(edited);
  set_quest_fragment(q, 30, 0, Fragment{1, "QF_Test_01000800", "Fragment_4"});
  ASSERT_TRUE(remove_quest_fragment(q, 10, 0));
  AliasScripts& alias7 = add_alias(edited, q, 0x01000800, 7);
  set_property(add_script(alias7.scripts, "NewAlias"), "On", true);
  ASSERT_TRUE(remove_alias(q, 4));
  ASSERT_TRUE(remove_property(*find_script(find_alias(q, 0)->scripts, "HeroAliasScript"), "ids"));

  const Vmad again = decode(Bytes{encode_vmad(edited)}, "QUST");
  EXPECT_EQ(again, edited);

  // The same changes made directly on a copy of the original model, field by field.
  Vmad expected = original;
  auto& props = expected.scripts[0].properties;
  props[0].value = VmadObject{0x01000800, 2, 0};
  props.push_back(Property{"Gold", Property::kEdited, std::int32_t{250}});
  props.push_back(Property{"Names", Property::kEdited, std::vector<std::string>{"Ann", "Bo"}});
  expected.scripts.push_back(Script{"ExtraScript", Script::kLocal, {Property{"Speed", Property::kEdited, 2.5f}}});
  auto& eq = std::get<QuestFragments>(*expected.fragments);
  eq.fragments.erase(eq.fragments.begin());
  eq.fragments.push_back(QuestFragment{30, 0, 0, Fragment{1, "QF_Test_01000800", "Fragment_4"}});
  eq.aliases.erase(eq.aliases.begin() + 1);
  eq.aliases[0].scripts[0].properties.clear();
  eq.aliases.push_back(AliasScripts{{0x01000800, 7, 0}, 5, 2, {Script{"NewAlias", 0, {Property{"On", 1, true}}}}});
  EXPECT_EQ(again, expected);
  EXPECT_NE(again, original);

  // Removing a script and the fragment section brings back a plain VMAD.
  ASSERT_TRUE(remove_script(edited.scripts, "ExtraScript"));
  EXPECT_FALSE(remove_script(edited.scripts, "ExtraScript"));
  edited.fragments.reset();
  const Vmad plain = decode(Bytes{encode_vmad(edited)}, "QUST");
  EXPECT_EQ(plain.scripts.size(), 1u);
  EXPECT_FALSE(plain.fragments);
}

TEST(VmadEdit, FlaggedFragmentsKeepFlagOrder) {
  Vmad v;
  auto& scene = fragments_of<SceneFragments>(v);
  scene.file_name = "SF_X";
  set_fragment(scene.fragments, kEndFragment, {1, "SF_X", "Fragment_1"});
  set_fragment(scene.fragments, kBeginFragment, {1, "SF_X", "Fragment_0"});
  set_phase_fragment(scene, 1, 3, {1, "SF_X", "Fragment_2"});
  ASSERT_EQ(scene.fragments.size(), 2u);
  EXPECT_EQ(scene.fragments[0].flag, kBeginFragment);
  EXPECT_THROW(set_fragment(scene.fragments, 0x6, {}), Error);
  const Vmad again = decode(Bytes{encode_vmad(v)}, "SCEN");
  EXPECT_EQ(again, v);
  ASSERT_TRUE(remove_fragment(scene.fragments, kBeginFragment));
  EXPECT_EQ(find_fragment(scene.fragments, kBeginFragment), nullptr);
  ASSERT_TRUE(remove_phase_fragment(scene, 1, 3));
  EXPECT_EQ(decode(Bytes{encode_vmad(v)}, "SCEN"), v);
  // A section of another kind is refused.
  EXPECT_THROW(fragments_of<QuestFragments>(v), Error);

  Vmad perk;
  auto& pf = fragments_of<PerkFragments>(perk);
  set_perk_fragment(pf, 2, {1, "PRKF", "Fragment_2"});
  set_perk_fragment(pf, 2, {1, "PRKF", "Fragment_5"});
  ASSERT_EQ(pf.fragments.size(), 1u);
  EXPECT_EQ(decode(Bytes{encode_vmad(perk)}, "PERK"), perk);
  EXPECT_TRUE(remove_perk_fragment(pf, 2));
}

TEST(VmadEdit, RecordVmadInAPlugin) {
  Plugin p = Plugin::create(Game::SkyrimSE, "VmadEdit.esp");
  const std::uint32_t id = p.allocate_form_id();
  p.add(Record("ACTI", id, {Field::zstring("EDID", "Lever"), Field::zstring("FULL", "Lever")}));
  Record& r = *p.find(id);
  EXPECT_FALSE(read_vmad(r));

  Vmad v;
  set_property(add_script(v.scripts, "LeverScript"), "Target", VmadObject::form(0x00012345));
  write_vmad(r, v);
  ASSERT_EQ(r.fields().size(), 3u);
  EXPECT_EQ(r.fields()[1].type, kVmadSignature);  // right after EDID

  const std::vector<std::uint8_t> bytes = p.serialize();
  const PluginFile file = PluginFile::parse(FileBytes::hold(bytes, "VmadEdit.esp"));
  const FieldCheck check = check_vmad(file);
  EXPECT_EQ(check.total, 1u);
  EXPECT_EQ(check.identical, 1u);

  Plugin reopened = Plugin::from_file(file);
  Record& again = *reopened.find(id);
  std::optional<Vmad> read = read_vmad(again);
  ASSERT_TRUE(read);
  EXPECT_EQ(*read, v);
  set_property(read->scripts[0], "Target", VmadObject::form(0x00054321));
  write_vmad(again, *read);
  EXPECT_EQ(again.fields().size(), 3u);  // replaced, not added
  EXPECT_EQ(read_vmad(again), read);
  EXPECT_TRUE(remove_vmad(again));
  EXPECT_FALSE(read_vmad(again));
}

TEST(VmadCheck, ReportsADifferenceWithTheRecordAndOffset) {
  Plugin p = Plugin::create(Game::SkyrimSE, "Broken.esp");
  const std::uint32_t id = p.allocate_form_id();
  Bytes bad;
  bad.i16(5).i16(2).u16(0).u8(9);  // a byte left over on a WEAP
  p.add(Record("WEAP", id, {Field::zstring("EDID", "BadSword"), Field::bytes("VMAD", bad.b)}));
  const PluginFile file = PluginFile::parse(FileBytes::hold(p.serialize(), "Broken.esp"));
  const FieldCheck check = check_vmad(file);
  EXPECT_EQ(check.total, 1u);
  EXPECT_EQ(check.identical, 0u);
  ASSERT_EQ(check.failures.size(), 1u);
  EXPECT_EQ(check.failures[0].record.editor_id, "BadSword");
  EXPECT_EQ(check.failures[0].record.form_id, id);
  // The stray byte: the last one of the field, which is the last of the record and of the file.
  EXPECT_EQ(check.failures[0].offset, file.bytes().size() - 1);
  EXPECT_TRUE(contains(check.failures[0].message, "no fragment section")) << check.failures[0].message;
}

// ---- rendering ----

TEST(VmadText, ReadableLines) {
  const Vmad v = decode(quest_bytes(), "QUST");
  const text::HexFormNamer namer;
  const TextCodec codec;
  text::VmadTextOptions o;
  o.namer = &namer;
  o.codec = &codec;
  EXPECT_EQ(text::vmad_text(v, o),
            "version 5, object format 2\n"
            "script QF_Test_01000800\n"
            "  object Alias_Hero = alias 0 of 01000800\n"
            "QUST fragments in QF_Test_01000800\n"
            "  stage 10, log entry 0: QF_Test_01000800.Fragment_0\n"
            "  stage 20, log entry 1: QF_Test_01000800.Fragment_2\n"
            "alias 0 of 01000800\n"
            "  script HeroAliasScript\n"
            "    int[] Ids = [5, 6]\n"
            "alias 4 of 01000800 (version 4, object format 1)\n"
            "  script LegacyAlias\n"
            "    object Target = 00000014\n"
            "  script Second (inherited, properties altered)\n");

  const Vmad all = decode(every_type_v5());
  const std::string text = text::vmad_text(all, o);
  for (const char* line : {"  string Str = \"Hello\"\n", "  int Int = -42\n", "  float Flt = 1.5\n",
                           "  bool Flag = true (removed)\n", "  object[] Objs = [00000014, alias 0 of 01000801]\n",
                           "  string[] Strs = [\"a\", \"\"]\n", "  float[] Flts = [-0.25]\n",
                           "  bool[] Flags = [true, false, true]\n", "  object Obj = 0001ABCD\n"})
    EXPECT_TRUE(contains(text, line)) << line << " in\n" << text;
}

TEST(VmadText, Json) {
  const text::HexFormNamer namer;
  const TextCodec codec;
  text::VmadTextOptions o;
  o.namer = &namer;
  o.codec = &codec;
  const nlohmann::ordered_json j = text::vmad_json(decode(quest_bytes(), "QUST"), o);
  EXPECT_EQ(j["version"], 5);
  EXPECT_EQ(j["object_format"], 2);
  EXPECT_EQ(j["scripts"][0]["name"], "QF_Test_01000800");
  EXPECT_EQ(j["scripts"][0]["properties"][0]["type"], "object");
  EXPECT_EQ(j["scripts"][0]["properties"][0]["value"]["form"], "01000800");
  EXPECT_EQ(j["scripts"][0]["properties"][0]["value"]["alias"], 0);
  EXPECT_EQ(j["fragments"]["record_type"], "QUST");
  EXPECT_EQ(j["fragments"]["fragments"][1]["stage"], 20);
  EXPECT_EQ(j["fragments"]["fragments"][1]["fragment"]["function"], "Fragment_2");
  EXPECT_EQ(j["fragments"]["aliases"][1]["object_format"], 1);
  EXPECT_EQ(j["fragments"]["aliases"][0]["scripts"][0]["properties"][0]["value"], nlohmann::ordered_json::parse("[5,6]"));

  const nlohmann::ordered_json all = text::vmad_json(decode(every_type_v5()), o);
  const auto& props = all["scripts"][0]["properties"];
  EXPECT_EQ(props[4]["value"].dump(), "1.5");
  EXPECT_EQ(props[5]["status"], 3);
  EXPECT_EQ(props[9]["value"].dump(), "[-0.25]");
  EXPECT_EQ(props[2]["value"], "Hello");
}
