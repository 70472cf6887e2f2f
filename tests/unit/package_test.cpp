// PACK decode / encode / edit / render, on records built here by hand from the layouts of the UESP
// page "Skyrim Mod:Mod File Format/PACK" (one per section), and on malformed variants of them.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "byte_builder.hpp"
#include "tesmod/fields/package_codec.hpp"
#include "tesmod/fields/package_oblivion.hpp"
#include "tesmod/text/package_text.hpp"

using namespace tesmod;
using namespace tesmod::fields;

namespace {

using Bytes = tesmod::test::ByteBuilder;

Field F(Signature type, const Bytes& data = {}) { return Field{type, data.b}; }
Field Z(Signature type, std::string_view text) { return F(type, Bytes().z(text)); }

const ErrorContext kWhere{"test.esp", 0x100, RecordRef{"PACK", 0x01000801, "TestPackage"}};
constexpr std::uint64_t kBody = 0x118;  // file offset of the first field: record at 0x100, 24-byte header

// Where each field starts when the fields are laid out from kBody (6-byte headers, no XXXX).
FieldLocations layout(const std::vector<Field>& fields) {
  FieldLocations at;
  std::uint64_t pos = kBody;
  for (const Field& f : fields) {
    at.offsets.push_back(pos);
    pos += 6 + f.data.size();
  }
  at.offsets.push_back(pos);
  return at;
}

std::uint64_t offset_of(const std::vector<Field>& fields, std::size_t index) { return layout(fields).offsets[index]; }

Field pkdt(std::uint32_t flags, std::uint8_t type = 0x12) {
  // flags, type, interrupt override, preferred speed, unused byte, interrupt flags (u16), u16
  return F("PKDT", Bytes().u32(flags).u8(type).u8(4).u8(2).u8(0x65).u16(0x00FF).u16(0x0004));
}
Field psdt_any() { return F("PSDT", Bytes().u8(0xFF).u8(0xFF).u8(0).u8(0xFF).u8(0xFF).chars("abc").i32(0)); }
Field ctda(std::uint8_t tag) {
  Bytes b;
  b.u8(0x00).u8(0).u8(0).u8(0).f32(1.0f).u16(0x48).u16(0).u32(tag).u32(0).u32(0).u32(0).i32(-1);
  return F("CTDA", b);
}
std::vector<Field> events() {
  return {F("POBA"), F("INAM", Bytes().u32(0)), F("PDTO", Bytes().i32(0).u32(0)),
          F("POEA"), F("INAM", Bytes().u32(0x000D520E)), F("PDTO", Bytes().i32(0).u32(0x0001ABCD)),
          F("POCA"), F("INAM", Bytes().u32(0)), F("PDTO", Bytes().i32(1).chars("HELO"))};
}

// A package (not a template) with one of each kind of public data input.
std::vector<Field> package_fields() {
  std::vector<Field> f = {
      Z("EDID", "TestPackage"),
      pkdt(0x00002004),
      F("PSDT", Bytes().u8(0xFF).u8(1).u8(0).u8(8).u8(30).chars("abc").i32(420)),
      ctda(1),
      Z("CIS2", "::var"),
      ctda(2),
      F("QNAM", Bytes().u32(0x01000802)),
      F("PKCU", Bytes().u32(5).u32(0x0001C254).u32(7)),
      Z("ANAM", "Location"),
      F("PLDT", Bytes().i32(0).u32(0x00012345).i32(500)),
      Z("ANAM", "Bool"),
      F("CNAM", Bytes().u8(1)),
      Z("ANAM", "Float"),
      F("CNAM", Bytes().f32(2.5f)),
      Z("ANAM", "SingleRef"),
      F("PTDA", Bytes().i32(4).u32(3).i32(0)),
      Z("ANAM", "Topic"),
      F("PDTO", Bytes().i32(1).chars("HELO")),
      F("UNAM", Bytes().u8(0)),
      F("UNAM", Bytes().u8(2)),
      F("UNAM", Bytes().u8(3)),
      F("UNAM", Bytes().u8(5)),
      F("UNAM", Bytes().u8(7)),
      F("XNAM", Bytes().u8(8)),
  };
  for (Field& e : events()) f.push_back(std::move(e));
  return f;
}

// A template: a Sequence of two procedures, the names of its data inputs, old script fields and
// TNAM in On Change.
std::vector<Field> template_fields() {
  return {
      Z("EDID", "TestTemplate"),
      pkdt(0, 0x13),
      psdt_any(),
      F("PKCU", Bytes().u32(2).u32(0).u32(1)),
      Z("ANAM", "Location"),
      F("PLDT", Bytes().i32(12).u32(0).i32(0)),
      Z("ANAM", "Bool"),
      F("CNAM", Bytes().u8(0)),
      F("UNAM", Bytes().u8(0)),
      F("UNAM", Bytes().u8(1)),
      F("XNAM", Bytes().u8(2)),
      Z("ANAM", "Sequence"),
      F("CITC", Bytes().u32(0)),
      F("PRCB", Bytes().u32(2).u32(0)),
      Z("ANAM", "Procedure"),
      F("CITC", Bytes().u32(1)),
      ctda(3),
      Z("PNAM", "Travel"),
      F("FNAM", Bytes().u32(1)),
      F("PKC2", Bytes().u8(0)),
      F("PKC2", Bytes().u8(1)),
      Z("ANAM", "Procedure"),
      F("CITC", Bytes().u32(0)),
      Z("PNAM", "Wait"),
      F("FNAM", Bytes().u32(0)),
      F("PKC2", Bytes().u8(0xFF)),
      F("PFO2", Bytes().u32(0x20000).u32(0).u16(1).u16(0).u8(2).u8(0).u8(0).u8(0)),
      F("PFOR", Bytes().u32(1).u32(2).u32(3)),
      F("UNAM", Bytes().u8(0)),
      Z("BNAM", "Place to Travel"),
      F("PNAM", Bytes().u32(1)),
      F("UNAM", Bytes().u8(1)),
      Z("BNAM", "Ride Horse"),
      F("PNAM", Bytes().u32(0)),
      F("POBA"),
      F("INAM", Bytes().u32(0)),
      F("PDTO", Bytes().i32(0).u32(0)),
      F("POEA"),
      F("INAM", Bytes().u32(0)),
      F("PDTO", Bytes().i32(0).u32(0)),
      F("POCA"),
      F("INAM", Bytes().u32(0)),
      F("SCHR", Bytes().u32(0).u32(0).u32(0).u32(0).u32(0)),
      F("TNAM", Bytes().i32(0)),
      F("PDTO", Bytes().i32(0).u32(0)),
  };
}

// Idle animations, in the order the corpus stores them (IDLF IDLC IDLT IDLA), and a combat style.
std::vector<Field> idle_fields() {
  return {
      Z("EDID", "TestIdles"),
      pkdt(0),
      psdt_any(),
      F("IDLF", Bytes().u8(0x09)),
      F("IDLC", Bytes().u8(2)),
      F("IDLT", Bytes().f32(5.0f)),
      F("IDLA", Bytes().u32(0x000F7C8C).u32(0x000D8732)),
      F("CNAM", Bytes().u32(0x0003DECF)),
      F("QNAM", Bytes().u32(0x01000802)),
      F("PKCU", Bytes().u32(0).u32(0).u32(0)),
      F("XNAM", Bytes().u8(0)),
  };
}

std::vector<std::uint8_t> body(const std::vector<Field>& fields) {
  std::vector<std::uint8_t> out;
  encode_fields(fields, out);
  return out;
}

Package decode(const std::vector<Field>& fields) { return decode_package(fields, kWhere, layout(fields)); }

// Decodes, checks that encoding gives the same body, returns the model.
Package round_trip(const std::vector<Field>& fields) {
  Package p = decode(fields);
  EXPECT_EQ(body(encode_package(p)), body(fields));
  return p;
}

// The tesmod::Error a decode raises (fails the test when there is none).
Error decode_error(const std::vector<Field>& fields) {
  try {
    decode_package(fields, kWhere, layout(fields));
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return Error("", 0, std::nullopt, "");
}

std::size_t find(const std::vector<Field>& fields, Signature type, std::size_t nth = 0) {
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i].type == type && nth-- == 0) return i;
  ADD_FAILURE() << "no " << type.str();
  return 0;
}

}  // namespace

// ---- decoding, section by section

TEST(PackageDecode, HeaderFollowsTheSpecLayout) {
  const Package p = round_trip(package_fields());
  ASSERT_TRUE(p.editor_id);
  EXPECT_EQ(*p.editor_id, "TestPackage");
  const PackageData& d = p.header.data;
  EXPECT_EQ(d.flags, 0x00002004u);
  EXPECT_TRUE(d.has(PackageFlag::MustComplete));
  EXPECT_TRUE(d.has(PackageFlag::PreferredSpeed));
  EXPECT_FALSE(d.has(PackageFlag::AlwaysSneak));
  EXPECT_EQ(d.type, PackageType::Package);
  EXPECT_FALSE(d.is_template());
  EXPECT_EQ(d.interrupt_override, InterruptOverride::Combat);
  EXPECT_EQ(d.preferred_speed, PreferredSpeed::Run);
  EXPECT_EQ(d.unused, 0x65);
  EXPECT_EQ(d.interrupt_flags, 0x00FF);
  EXPECT_TRUE(d.has(InterruptFlag::AllowIdleChatter));
  EXPECT_FALSE(d.has(InterruptFlag::WorldInteractions));
  EXPECT_EQ(d.unknown, 4);

  const Schedule& s = p.header.schedule;
  EXPECT_EQ(s.month, -1);
  EXPECT_EQ(s.day_of_week, DayOfWeek::Morndas);
  EXPECT_EQ(s.date, 0);
  EXPECT_EQ(s.hour, 8);
  EXPECT_EQ(s.minute, 30);
  EXPECT_EQ(s.unused, (std::array<std::uint8_t, 3>{'a', 'b', 'c'}));
  EXPECT_EQ(s.duration_minutes, 420);

  ASSERT_EQ(p.header.conditions.size(), 2u);
  ASSERT_EQ(p.header.conditions[0].fields.size(), 2u);  // CTDA + the CIS2 after it
  EXPECT_EQ(p.header.conditions[0].ctda(), ctda(1));
  EXPECT_EQ(p.header.conditions[0].fields[1].type, Signature("CIS2"));
  EXPECT_EQ(p.header.conditions[1].fields.size(), 1u);
  EXPECT_FALSE(p.header.idles);
  EXPECT_FALSE(p.header.combat_style);
  EXPECT_EQ(p.header.owner_quest, 0x01000802u);
  EXPECT_EQ(p.header.counter.data_input_count, 5u);
  EXPECT_EQ(p.header.counter.template_package, 0x0001C254u);
  EXPECT_EQ(p.header.counter.version, 7u);
}

TEST(PackageDecode, PublicDataValuesByType) {
  const Package p = round_trip(package_fields());
  const PublicData& d = p.public_data;
  ASSERT_EQ(d.inputs.size(), 5u);
  EXPECT_EQ(d.inputs[0].type, "Location");
  EXPECT_EQ(std::get<Location>(d.inputs[0].value), (Location{LocationType::NearReference, 0x00012345, 500}));
  EXPECT_EQ(d.inputs[1].type, "Bool");
  EXPECT_EQ(std::get<BoolValue>(d.inputs[1].value).value, 1);
  EXPECT_EQ(std::get<FloatValue>(d.inputs[2].value).value, 2.5f);
  EXPECT_EQ(std::get<Target>(d.inputs[3].value), (Target{TargetType::ReferenceAlias, 3, 0}));
  const Topic topic = std::get<Topic>(d.inputs[4].value);
  EXPECT_EQ(topic.type, TopicType::Subtype);
  EXPECT_EQ(topic.value, std::uint32_t('H' | 'E' << 8 | 'L' << 16 | 'O' << 24));
  EXPECT_EQ(d.input_ids, (std::vector<std::uint8_t>{0, 2, 3, 5, 7}));
  EXPECT_EQ(d.xnam, 8);
  EXPECT_TRUE(p.procedure_tree.empty());
  EXPECT_TRUE(p.input_names.empty());
}

TEST(PackageDecode, EventsHoldIdleAndTopic) {
  const Package p = round_trip(package_fields());
  ASSERT_TRUE(p.on_begin && p.on_end && p.on_change);
  EXPECT_EQ(p.on_begin->idle, 0u);
  EXPECT_EQ(p.on_end->idle, 0x000D520Eu);
  EXPECT_EQ(p.on_end->topic, (Topic{TopicType::Dialogue, 0x0001ABCD}));
  EXPECT_EQ(p.on_change->topic->type, TopicType::Subtype);
  EXPECT_FALSE(p.on_change->tnam);
  EXPECT_TRUE(p.on_change->old_script.empty());
}

TEST(PackageDecode, TemplateTreeAndInputNames) {
  const Package p = round_trip(template_fields());
  EXPECT_TRUE(p.header.data.is_template());
  EXPECT_EQ(p.header.data.type, PackageType::Template);
  ASSERT_EQ(p.procedure_tree.size(), 3u);
  const Branch& root = p.procedure_tree[0];
  EXPECT_EQ(root.type, "Sequence");
  EXPECT_TRUE(root.conditions.empty());
  ASSERT_TRUE(root.root);
  EXPECT_EQ(root.root->child_count, 2u);
  EXPECT_FALSE(root.procedure);

  const Branch& travel = p.procedure_tree[1];
  EXPECT_EQ(travel.type, "Procedure");
  ASSERT_EQ(travel.conditions.size(), 1u);
  EXPECT_EQ(travel.conditions[0].ctda(), ctda(3));
  EXPECT_EQ(travel.procedure, "Travel");
  EXPECT_EQ(travel.flags, 1u);
  EXPECT_EQ(travel.input_ids, (std::vector<std::uint8_t>{0, 1}));

  const Branch& wait = p.procedure_tree[2];
  EXPECT_EQ(wait.procedure, "Wait");
  EXPECT_EQ(wait.input_ids, (std::vector<std::uint8_t>{0xFF}));
  ASSERT_EQ(wait.pfo2.size(), 1u);
  EXPECT_EQ(wait.pfo2[0][2], 0x02);  // bytes of 0x20000, as written
  ASSERT_EQ(wait.pfor.size(), 1u);
  EXPECT_EQ(wait.pfor[0][8], 3);

  ASSERT_EQ(p.input_names.size(), 2u);
  EXPECT_EQ(p.input_names[0].id, 0);
  EXPECT_EQ(p.input_names[0].name, "Place to Travel");
  EXPECT_EQ(p.input_names[0].flags, 1u);
  EXPECT_EQ(p.input_names[1].name, "Ride Horse");
  EXPECT_EQ(p.input_names[1].flags, 0u);

  ASSERT_TRUE(p.on_change);
  ASSERT_EQ(p.on_change->old_script.size(), 1u);
  EXPECT_EQ(p.on_change->old_script[0].type, Signature("SCHR"));
  EXPECT_EQ(p.on_change->tnam, 0);
}

TEST(PackageDecode, IdlesInCorpusOrderAndCombatStyle) {
  const Package p = round_trip(idle_fields());
  ASSERT_TRUE(p.header.idles);
  const IdleAnimations& a = *p.header.idles;
  EXPECT_EQ(a.flags, 0x09);
  EXPECT_EQ(a.timer, 5.0f);
  EXPECT_EQ(a.idles, (std::vector<std::uint32_t>{0x000F7C8C, 0x000D8732}));
  EXPECT_TRUE(a.count_padding.empty());
  EXPECT_EQ(p.header.combat_style, 0x0003DECFu);
  EXPECT_EQ(p.header.owner_quest, 0x01000802u);
  EXPECT_TRUE(p.public_data.inputs.empty());
  EXPECT_FALSE(p.on_begin);  // no events: kept absent
}

TEST(PackageDecode, UnknownFieldsComeBackAtTheirIndex) {
  std::vector<Field> fields = package_fields();
  fields.insert(fields.begin() + 3, F("ZZZZ", Bytes().u32(0xDEADBEEF)));
  fields.insert(fields.begin() + 12, Z("IDLB", "x"));
  fields.push_back(F("YYYY"));
  const Package p = round_trip(fields);
  ASSERT_EQ(p.unknown_fields.size(), 3u);
  EXPECT_EQ(p.unknown_fields[0].index, 3u);
  EXPECT_EQ(p.unknown_fields[1].field.type, Signature("IDLB"));
  EXPECT_EQ(p.unknown_fields[2].index, fields.size() - 1);
  // The known fields decode as without them.
  EXPECT_EQ(p.public_data.inputs.size(), 5u);
}

TEST(PackageDecode, CnamOfUnknownTypeStaysBytes) {
  std::vector<Field> fields = package_fields();
  fields[find(fields, "ANAM", 1)] = Z("ANAM", "Mystery");
  fields[find(fields, "CNAM")] = F("CNAM", Bytes().u8(1).u8(2).u8(3));
  const Package p = round_trip(fields);
  EXPECT_EQ(std::get<RawValue>(p.public_data.inputs[1].value).bytes, (std::vector<std::uint8_t>{1, 2, 3}));
}

TEST(PackageDecode, WithoutLocationsErrorsNameTheFieldIndex) {
  std::vector<Field> fields = package_fields();
  fields[1].data.pop_back();
  try {
    decode_package(fields, kWhere);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), kWhere.offset);
    EXPECT_NE(std::string(e.what()).find("(field 1 of the record)"), std::string::npos) << e.what();
  }
}

TEST(PackageDecode, InflatedRecordsNameTheByteInTheInflatedData) {
  std::vector<Field> fields = package_fields();
  fields[2].data.push_back(0);
  FieldLocations at = layout(fields);
  for (auto& o : at.offsets) o -= kBody;
  at.inflated = true;
  try {
    decode_package(fields, kWhere, at);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), kWhere.offset);
    EXPECT_NE(std::string(e.what()).find(fmt::format("at byte {} of the inflated data", offset_of(fields, 2) - kBody)),
              std::string::npos)
        << e.what();
  }
}

// ---- editing

TEST(PackageEdit, FlagScheduleAndLocationChangeOnlyTheirBytes) {
  const std::vector<Field> original = package_fields();
  Package p = decode(original);
  p.header.data.set(PackageFlag::AlwaysSneak);
  p.header.data.set(PackageFlag::MustComplete, false);
  p.header.schedule.day_of_week = DayOfWeek::Loredas;
  p.header.schedule.hour = 22;
  p.header.schedule.duration_minutes = 90;
  auto& loc = std::get<Location>(p.public_data.inputs[0].value);
  loc.type = LocationType::InCell;
  loc.value = 0x0001A26F;
  loc.radius = 1024;

  std::vector<Field> expected = original;
  expected[1] = pkdt(0x00022000);  // +0x20000 always sneak, -0x04 must complete
  expected[2] = F("PSDT", Bytes().u8(0xFF).u8(6).u8(0).u8(22).u8(30).chars("abc").i32(90));
  expected[find(expected, "PLDT")] = F("PLDT", Bytes().i32(1).u32(0x0001A26F).i32(1024));
  EXPECT_EQ(body(encode_package(p)), body(expected));
}

TEST(PackageEdit, ConditionsAndIdlesWriteTheirCounts) {
  std::vector<Field> original = template_fields();
  Package p = decode(original);
  // A second condition on the Wait procedure: its CITC becomes 1 and the CTDA follows it.
  p.procedure_tree[2].conditions.push_back(PackageCondition{{ctda(9)}});
  std::vector<Field> expected = original;
  const std::size_t citc = find(expected, "CITC", 2);
  expected[citc] = F("CITC", Bytes().u32(1));
  expected.insert(expected.begin() + std::ptrdiff_t(citc) + 1, ctda(9));
  EXPECT_EQ(body(encode_package(p)), body(expected));

  Package q = decode(idle_fields());
  q.header.idles->idles.push_back(0x00012345);
  std::vector<Field> with_idle = idle_fields();
  with_idle[find(with_idle, "IDLC")] = F("IDLC", Bytes().u8(3));
  with_idle[find(with_idle, "IDLA")] = F("IDLA", Bytes().u32(0x000F7C8C).u32(0x000D8732).u32(0x00012345));
  EXPECT_EQ(body(encode_package(q)), body(with_idle));
}

TEST(PackageEdit, ABuiltPackageEncodesInRecordOrder) {
  Package p;
  p.editor_id = "Built";
  p.header.counter.data_input_count = 1;
  p.public_data.inputs.push_back({"Int", IntValue{-5}});
  p.public_data.input_ids = {4};
  p.on_begin = PackageEvent{0, {}, std::nullopt, Topic{}};
  const std::vector<Field> expected = {
      Z("EDID", "Built"),
      F("PKDT", Bytes().u32(0).u8(0x12).u8(0).u8(0).u8(0).u16(0).u16(0)),
      F("PSDT", Bytes().u8(0xFF).u8(0xFF).u8(0).u8(0xFF).u8(0xFF).u8(0).u8(0).u8(0).i32(0)),
      F("PKCU", Bytes().u32(1).u32(0).u32(0)),
      Z("ANAM", "Int"),
      F("CNAM", Bytes().i32(-5)),
      F("UNAM", Bytes().u8(4)),
      F("XNAM", Bytes().u8(0)),
      F("POBA"),
      F("INAM", Bytes().u32(0)),
      F("PDTO", Bytes().i32(0).u32(0)),
  };
  EXPECT_EQ(body(encode_package(p)), body(expected));
}

// ---- malformed input

TEST(PackageErrors, FieldOfTheWrongSize) {
  std::vector<Field> fields = package_fields();
  fields[find(fields, "PLDT")].data.resize(8);
  const Error e = decode_error(fields);
  EXPECT_EQ(e.offset(), offset_of(fields, find(fields, "PLDT")));
  EXPECT_EQ(e.file(), "test.esp");
  ASSERT_TRUE(e.record());
  EXPECT_EQ(e.record()->form_id, 0x01000801u);
  const std::string what = e.what();
  EXPECT_NE(what.find("PLDT field of 8 bytes; expected 12"), std::string::npos) << what;
  EXPECT_NE(what.find("'TestPackage'"), std::string::npos) << what;
}

TEST(PackageErrors, EveryFixedSizeIsChecked) {
  for (const char* type : {"PKDT", "PSDT", "PKCU", "QNAM", "UNAM", "XNAM", "PDTO", "PTDA", "CTDA", "INAM"}) {
    SCOPED_TRACE(type);
    std::vector<Field> fields = package_fields();
    const std::size_t i = find(fields, Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(type)));
    fields[i].data.push_back(0);
    const Error e = decode_error(fields);
    EXPECT_EQ(e.offset(), offset_of(fields, i)) << e.what();
  }
  for (const char* type : {"PRCB", "FNAM", "PKC2", "PFO2", "PFOR", "CITC", "TNAM"}) {
    SCOPED_TRACE(type);
    std::vector<Field> fields = template_fields();
    const std::size_t i = find(fields, Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(type)));
    fields[i].data.pop_back();
    const Error e = decode_error(fields);
    EXPECT_EQ(e.offset(), offset_of(fields, i)) << e.what();
  }
  std::vector<Field> fields = package_fields();
  fields[find(fields, "CNAM")].data.push_back(0);  // a Bool CNAM of 2 bytes
  EXPECT_EQ(decode_error(fields).offset(), offset_of(fields, find(fields, "CNAM")));
  fields = package_fields();
  fields[find(fields, "POEA")].data.push_back(0);  // markers are empty
  EXPECT_EQ(decode_error(fields).offset(), offset_of(fields, find(fields, "POEA")));
}

TEST(PackageErrors, CitcCountRunsPastItsConditions) {
  std::vector<Field> fields = template_fields();
  const std::size_t citc = find(fields, "CITC", 1);
  fields[citc] = F("CITC", Bytes().u32(2));
  const Error e = decode_error(fields);
  EXPECT_EQ(e.offset(), offset_of(fields, citc));
  EXPECT_NE(std::string(e.what()).find("CITC says 2 conditions but 1 CTDA"), std::string::npos) << e.what();
}

TEST(PackageErrors, IdleCountDisagreesWithTheList) {
  std::vector<Field> fields = idle_fields();
  fields[find(fields, "IDLC")] = F("IDLC", Bytes().u8(3));
  const Error e = decode_error(fields);
  EXPECT_EQ(e.offset(), offset_of(fields, find(fields, "IDLC")));
  EXPECT_NE(std::string(e.what()).find("IDLC says 3 idles"), std::string::npos) << e.what();

  fields = idle_fields();
  fields.erase(fields.begin() + std::ptrdiff_t(find(fields, "IDLT")));
  EXPECT_NE(std::string(decode_error(fields).what()).find("incomplete idle animations"), std::string::npos);

  fields = idle_fields();
  fields[find(fields, "IDLA")].data.pop_back();
  EXPECT_EQ(decode_error(fields).offset(), offset_of(fields, find(fields, "IDLA")));
}

TEST(PackageErrors, SectionOutOfPlace) {
  // A PKDT among the public data inputs.
  std::vector<Field> fields = package_fields();
  const std::size_t anam = find(fields, "ANAM", 2);
  fields.insert(fields.begin() + std::ptrdiff_t(anam), pkdt(0));
  Error e = decode_error(fields);
  EXPECT_EQ(e.offset(), offset_of(fields, anam));
  EXPECT_NE(std::string(e.what()).find("expected the XNAM"), std::string::npos) << e.what();

  // Header fields out of order: PKCU before QNAM.
  fields = package_fields();
  std::swap(fields[find(fields, "QNAM")], fields[find(fields, "PKCU")]);
  e = decode_error(fields);
  EXPECT_EQ(e.offset(), offset_of(fields, find(fields, "QNAM")));
  EXPECT_NE(std::string(e.what()).find("out of order in the header"), std::string::npos) << e.what();

  // A second PKDT.
  fields = package_fields();
  fields.insert(fields.begin() + 2, pkdt(0));
  EXPECT_EQ(decode_error(fields).offset(), offset_of(fields, 2));

  // Events out of order.
  fields = package_fields();
  const std::size_t poba = find(fields, "POBA"), poea = find(fields, "POEA");
  std::rotate(fields.begin() + std::ptrdiff_t(poba), fields.begin() + std::ptrdiff_t(poea),
              fields.begin() + std::ptrdiff_t(poea + 3));
  e = decode_error(fields);
  EXPECT_EQ(e.offset(), offset_of(fields, poba + 3));
  EXPECT_NE(std::string(e.what()).find("POBA, POEA, POCA"), std::string::npos) << e.what();

  // A header field after the events.
  fields = package_fields();
  fields.push_back(F("PKCU", Bytes().u32(1).u32(0).u32(0)));
  e = decode_error(fields);
  EXPECT_EQ(e.offset(), offset_of(fields, fields.size() - 1));
  EXPECT_NE(std::string(e.what()).find("out of place after the on change event"), std::string::npos) << e.what();

  // A branch field in the procedure data.
  fields = template_fields();
  fields.insert(fields.begin() + std::ptrdiff_t(find(fields, "BNAM") + 2), F("PKC2", Bytes().u8(1)));
  EXPECT_NE(std::string(decode_error(fields).what()).find("PKC2 field out of place"), std::string::npos);
}

TEST(PackageErrors, RequiredFieldsMissing) {
  for (const char* type : {"PKDT", "PSDT", "PKCU", "XNAM"}) {
    SCOPED_TRACE(type);
    std::vector<Field> fields = package_fields();
    fields.erase(fields.begin() + std::ptrdiff_t(find(fields, Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(type)))));
    const std::string what = decode_error(fields).what();
    EXPECT_NE(what.find(type), std::string::npos) << what;
  }
  std::vector<Field> fields = template_fields();
  fields.erase(fields.begin() + std::ptrdiff_t(find(fields, "CITC", 1)));
  EXPECT_NE(std::string(decode_error(fields).what()).find("expected the CITC"), std::string::npos);
  fields = template_fields();
  fields.erase(fields.begin() + std::ptrdiff_t(find(fields, "BNAM", 1)));
  EXPECT_NE(std::string(decode_error(fields).what()).find("expected the BNAM"), std::string::npos);
}

TEST(PackageErrors, StringsNeedTheirTerminator) {
  std::vector<Field> fields = package_fields();
  const std::size_t anam = find(fields, "ANAM", 3);
  fields[anam].data.pop_back();
  const Error e = decode_error(fields);
  EXPECT_EQ(e.offset(), offset_of(fields, anam));
  EXPECT_NE(std::string(e.what()).find("zero-terminated"), std::string::npos) << e.what();
}

TEST(PackageErrors, StringOfAConditionWithoutItsCtda) {
  std::vector<Field> fields = package_fields();
  fields.erase(fields.begin() + std::ptrdiff_t(find(fields, "CTDA")));
  const Error e = decode_error(fields);
  EXPECT_EQ(e.offset(), offset_of(fields, find(fields, "CIS2")));
  EXPECT_NE(std::string(e.what()).find("without a CTDA"), std::string::npos) << e.what();
}

TEST(PackageErrors, TypedFieldWithAnXxxxPrefix) {
  std::vector<Field> fields = package_fields();
  fields[find(fields, "PKCU")].oversize = true;
  EXPECT_NE(std::string(decode_error(fields).what()).find("XXXX"), std::string::npos);
  // Raw fields keep it.
  fields = package_fields();
  fields[find(fields, "CTDA")].oversize = true;
  round_trip(fields);
}

// ---- text and JSON

TEST(PackageText, SectionsNamesAndSchedule) {
  const Package p = decode(package_fields());
  const std::string text = text::package_text(p);
  for (const char* line :
       {"EditorID: TestPackage\n", "header\n", "  type: package\n",
        "  flags: must complete, preferred speed (0x00002004)\n", "  interrupt override: combat\n",
        "  preferred speed: run\n",
        "  interrupt flags: hellos to player, random conversations, observe combat behavior, greet corpse behavior, "
        "reaction to player actions, friendly fire comments, aggro radius behavior, allow idle chatter (0x00FF)\n",
        "  schedule: Morndas, from 08:30, for 7 h (PSDT unused bytes 61 62 63)\n", "  conditions (2)\n",
        "    CTDA 00 00 00 00 00 00 80 3F 48 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 FF FF FF FF; "
        "CIS2 \"::var\"\n",
        "  owner quest: 01000802\n", "  PKCU: 5 data inputs, template 0001C254, version 7\n",
        "public data (5 inputs)\n", "  [0] Location: near reference 00012345, radius 500\n", "  [2] Bool: true\n",
        "  [3] Float: 2.5\n", "  [5] SingleRef: reference alias 3, count 0\n", "  [7] Topic: subtype HELO\n",
        "  XNAM: 8\n", "on begin: idle none, topic none\n", "on end: idle 000D520E, topic dialogue 0001ABCD\n",
        "on change: idle none, topic subtype HELO\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing: " << line << "\nin:\n" << text;
  }
}

TEST(PackageText, TreeIsIndentedByBranchCounts) {
  const Package p = decode(template_fields());
  const std::string text = text::package_text(p, {}, 1);
  const std::string expected_tree =
      "  procedure tree\n"
      "    Sequence, 2 branches, flags 0x0\n"
      "      Procedure Travel, flags: success completes package (0x00000001), inputs 0 1\n"
      "        if CTDA 00 00 00 00 00 00 80 3F 48 00 00 00 03 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 FF FF FF FF\n"
      "      Procedure Wait, flags: none (0x00000000), inputs none\n"
      "        PFO2 00 00 02 00 00 00 00 00 01 00 00 00 02 00 00 00\n"
      "        PFOR 01 00 00 00 02 00 00 00 03 00 00 00\n"
      "  data input names\n"
      "    [0] \"Place to Travel\" (flags 1)\n"
      "    [1] \"Ride Horse\" (flags 0)\n";
  EXPECT_NE(text.find(expected_tree), std::string::npos) << text;
  // A template names its own public inputs from its data input names.
  EXPECT_NE(text.find("    [0 \"Place to Travel\"] Location: near self, radius 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    [1 \"Ride Horse\"] Bool: false\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  on change: idle none, topic none, TNAM 0\n    SCHR 00 00"), std::string::npos) << text;
}

TEST(PackageText, ScheduleText) {
  Schedule s;
  EXPECT_EQ(text::schedule_text(s), "any time");
  s.day_of_week = DayOfWeek::Weekends;
  s.hour = 6;
  s.duration_minutes = 90;
  EXPECT_EQ(text::schedule_text(s), "weekends, from 06:00, for 90 min");
  s = Schedule{};
  s.month = 3;
  s.date = 17;
  s.day_of_week = DayOfWeek(42);
  EXPECT_EQ(text::schedule_text(s), "month 3, unknown (42), date 17");
}

TEST(PackageText, ConditionRendererAndNamerAreUsed) {
  struct Names final : text::FormNamer {
    std::string name(std::uint32_t id) const override { return id == 0x00012345 ? "HomeMarker" : fmt::format("#{:X}", id); }
    std::optional<std::uint32_t> resolve(std::string_view) const override { return std::nullopt; }
  } names;
  text::PackageTextOptions o;
  o.names = &names;
  o.condition_text = [](std::span<const Field> f) { return fmt::format("cond with {} fields", f.size()); };
  o.condition_json = [](std::span<const Field> f) { return nlohmann::ordered_json{{"n", f.size()}}; };
  o.input_name = [](std::uint32_t template_package, std::uint8_t id) -> std::optional<std::string> {
    if (template_package == 0x0001C254 && id == 2) return "Ride Horse?";
    return std::nullopt;
  };
  const Package p = decode(package_fields());
  const std::string text = text::package_text(p, o);
  EXPECT_NE(text.find("    cond with 2 fields\n    cond with 1 fields\n"), std::string::npos) << text;
  EXPECT_NE(text.find("near reference HomeMarker, radius 500"), std::string::npos) << text;
  EXPECT_NE(text.find("  [2 \"Ride Horse?\"] Bool: true\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  [0] Location:"), std::string::npos) << text;
  const nlohmann::ordered_json j = text::package_json(p, o);
  EXPECT_EQ(j["header"]["conditions"][0]["n"], 2);
  EXPECT_EQ(j["public_data"]["inputs"][0]["value"]["value"], "HomeMarker");
  EXPECT_EQ(j["public_data"]["inputs"][0]["name"], nullptr);
  EXPECT_EQ(j["public_data"]["inputs"][1]["name"], "Ride Horse?");
}

TEST(PackageText, Json) {
  const Package p = decode(package_fields());
  const nlohmann::ordered_json j = text::package_json(p);
  EXPECT_EQ(j["editor_id"], "TestPackage");
  const auto& h = j["header"];
  EXPECT_EQ(h["type"], 0x12);
  EXPECT_EQ(h["type_name"], "package");
  EXPECT_EQ(h["template"], false);
  EXPECT_EQ(h["flags"]["value"], 0x2004);
  EXPECT_EQ(h["flags"]["names"].get<std::vector<std::string>>(),
            (std::vector<std::string>{"must complete", "preferred speed"}));
  EXPECT_EQ(h["interrupt_override_name"], "combat");
  EXPECT_EQ(h["schedule"]["day_of_week_name"], "Morndas");
  EXPECT_EQ(h["schedule"]["duration_minutes"], 420);
  EXPECT_EQ(h["schedule"]["text"], "Morndas, from 08:30, for 7 h");
  EXPECT_EQ(h["conditions"][0]["fields"][1]["text"], "::var");
  EXPECT_EQ(h["owner_quest"], "01000802");
  EXPECT_EQ(h["counter"]["template_package"], "0001C254");
  const auto& inputs = j["public_data"]["inputs"];
  ASSERT_EQ(inputs.size(), 5u);
  EXPECT_EQ(inputs[0]["id"], 0);
  EXPECT_EQ(inputs[0]["value"]["kind"], "location");
  EXPECT_EQ(inputs[0]["value"]["radius"], 500);
  EXPECT_EQ(inputs[1]["value"]["kind"], "bool");
  EXPECT_EQ(inputs[2]["value"]["value"], 2.5);
  EXPECT_EQ(inputs[3]["value"]["type_name"], "reference alias");
  EXPECT_EQ(inputs[4]["value"]["value"], "HELO");
  EXPECT_EQ(j["events"]["on_end"]["idle"], "000D520E");
  EXPECT_EQ(j["events"]["on_begin"]["idle"], nullptr);

  const nlohmann::ordered_json t = text::package_json(decode(template_fields()));
  ASSERT_EQ(t["procedure_tree"].size(), 3u);
  EXPECT_EQ(t["procedure_tree"][0]["depth"], 0);
  EXPECT_EQ(t["procedure_tree"][1]["depth"], 1);
  EXPECT_EQ(t["procedure_tree"][2]["procedure"], "Wait");
  EXPECT_EQ(t["input_names"][0]["name"], "Place to Travel");
}

// ---- Oblivion (UESP "Oblivion Mod:Mod File Format/PACK")

namespace {

std::vector<Field> oblivion_fields() {
  Bytes ctda;
  ctda.u8(0).u8(0).u8(0).u8(0).f32(1.0f).u32(0x2F).u32(0x01000ED5).u32(0).u32(0);
  return {
      Z("EDID", "TestGoHome"),
      F("PKDT", Bytes().u32(0x00043000).u8(6).u8(0xCD).u8(0xCD).u8(0xCD)),  // travel, CS garbage after the type
      F("PLDT", Bytes().i32(0).u32(0x01000F04).i32(128)),
      F("PSDT", Bytes().u8(0xFF).u8(5).u8(0).u8(14).i32(6)),
      F("PTDT", Bytes().i32(2).u32(19).i32(3)),
      F("CTDA", ctda),
      F("CTDA", ctda),
  };
}

}  // namespace

TEST(OblivionPackage, DecodesTheSpecLayout) {
  const std::vector<Field> fields = oblivion_fields();
  const OblivionPackage p = decode_oblivion_package(fields, kWhere, layout(fields));
  EXPECT_EQ(body(encode_oblivion_package(p)), body(fields));
  EXPECT_EQ(p.editor_id, "TestGoHome");
  EXPECT_EQ(p.data.flags, 0x00043000u);
  EXPECT_TRUE(p.data.has(OblivionPackageFlag::AlwaysRun));
  EXPECT_TRUE(p.data.has(OblivionPackageFlag::AllowSwimming));
  EXPECT_TRUE(p.data.has(OblivionPackageFlag::SkipFalloutBehavior));
  EXPECT_FALSE(p.data.has(OblivionPackageFlag::MustComplete));
  EXPECT_EQ(p.data.type, OblivionPackageType::Travel);
  EXPECT_EQ(p.data.unused, (std::array<std::uint8_t, 3>{0xCD, 0xCD, 0xCD}));
  EXPECT_FALSE(p.data.short_form);
  EXPECT_EQ(p.location, (OblivionLocation{OblivionLocationType::NearReference, 0x01000F04, 128}));
  EXPECT_EQ(p.schedule.month, -1);
  EXPECT_EQ(p.schedule.day_of_week, DayOfWeek::Fredas);
  EXPECT_EQ(p.schedule.hour, 14);
  EXPECT_EQ(p.schedule.duration, 6);
  EXPECT_EQ(p.target, (OblivionTarget{OblivionTargetType::ObjectType, 19, 3}));
  ASSERT_EQ(p.conditions.size(), 2u);
  EXPECT_EQ(p.conditions[1].ctda(), fields[6]);

  const std::string text = text::oblivion_package_text(p);
  for (const char* line : {"EditorID: TestGoHome\n", "type: travel\n",
                           "flags: skip fallout behavior, always run, allow swimming (0x00043000)\n",
                           "PKDT unused bytes: CD CD CD\n", "location: near reference 01000F04, radius 128\n",
                           "schedule: Fredas, from 14:00, for 6 h\n", "target: object type 19, count 3\n",
                           "conditions (2)\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing: " << line << "\nin:\n" << text;
  }
  const auto j = text::oblivion_package_json(p);
  EXPECT_EQ(j["type_name"], "travel");
  EXPECT_EQ(j["location"]["value"], "01000F04");
  EXPECT_EQ(j["schedule"]["duration_hours"], 6);
  EXPECT_EQ(j["target"]["value"], 19);
}

TEST(OblivionPackage, ShortPkdtAndEdits) {
  std::vector<Field> fields = oblivion_fields();
  fields[1] = F("PKDT", Bytes().u16(0x0204).u8(4).u8(0));  // the 4-byte form: u16 flags, type (sleep), unused
  OblivionPackage p = decode_oblivion_package(fields, kWhere, layout(fields));
  EXPECT_EQ(body(encode_oblivion_package(p)), body(fields));
  EXPECT_TRUE(p.data.short_form);
  EXPECT_EQ(p.data.flags, 0x0204u);
  EXPECT_EQ(p.data.type, OblivionPackageType::Sleep);

  p.data.set(OblivionPackageFlag::OncePerDay);
  p.schedule.hour = 22;
  p.location->radius = 512;
  std::vector<Field> expected = fields;
  expected[1] = F("PKDT", Bytes().u16(0x0604).u8(4).u8(0));
  expected[2] = F("PLDT", Bytes().i32(0).u32(0x01000F04).i32(512));
  expected[3] = F("PSDT", Bytes().u8(0xFF).u8(5).u8(0).u8(22).i32(6));
  EXPECT_EQ(body(encode_oblivion_package(p)), body(expected));
}

TEST(OblivionPackage, MalformedFields) {
  std::vector<Field> fields = oblivion_fields();
  fields[3].data.pop_back();
  try {
    decode_oblivion_package(fields, kWhere, layout(fields));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), offset_of(fields, 3));
    EXPECT_NE(std::string(e.what()).find("PSDT field of 7 bytes; expected 8"), std::string::npos) << e.what();
  }
  fields = oblivion_fields();
  std::swap(fields[2], fields[3]);  // PSDT before PLDT
  try {
    decode_oblivion_package(fields, kWhere, layout(fields));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), offset_of(fields, 3));
    EXPECT_NE(std::string(e.what()).find("PLDT field out of order"), std::string::npos) << e.what();
  }
  fields = oblivion_fields();
  fields.erase(fields.begin() + 1);
  try {
    decode_oblivion_package(fields, kWhere, layout(fields));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), layout(fields).offsets.back());
    EXPECT_NE(std::string(e.what()).find("expected a PKDT"), std::string::npos) << e.what();
  }
  fields = oblivion_fields();
  fields[5].data.resize(28);
  EXPECT_THROW(decode_oblivion_package(fields, kWhere, layout(fields)), Error);
  fields = oblivion_fields();
  fields.insert(fields.begin() + 4, F("SCHR", Bytes().u32(0)));  // unknown here: kept at its index
  const OblivionPackage p = decode_oblivion_package(fields, kWhere, layout(fields));
  ASSERT_EQ(p.unknown_fields.size(), 1u);
  EXPECT_EQ(p.unknown_fields[0].index, 4u);
  EXPECT_EQ(body(encode_oblivion_package(p)), body(fields));
}
