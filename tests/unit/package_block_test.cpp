// The editable package block (text/package_block.hpp) on blocks written here by hand and on
// models that use every member: the text reads back to the same fields, edits land in the right
// bytes, and malformed lines fail with their line and column.
#include "tesmod/text/package_block.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <map>

#include "tesmod/fields/condition.hpp"
#include "tesmod/fields/package_codec.hpp"
#include "tesmod/text/condition_text.hpp"

using namespace tesmod;
using namespace tesmod::fields;

namespace {

// A few EditorIDs, NONE for 0, 8 hex digits for the rest (as the export namer does).
class TestNamer final : public text::FormNamer {
 public:
  std::string name(std::uint32_t id) const override {
    if (id == 0) return "NONE";
    for (const auto& [n, v] : kForms)
      if (v == id) return n;
    return hex_.name(id);
  }
  std::optional<std::uint32_t> resolve(std::string_view t) const override {
    if (t == "NONE") return 0;
    if (const auto it = kForms.find(std::string(t)); it != kForms.end()) return it->second;
    return hex_.resolve(t);
  }

 private:
  inline static const std::map<std::string, std::uint32_t> kForms = {
      {"MyQuest", 0x01000D62}, {"MyMarker", 0x01000D63}, {"IdleWave", 0x00012345},
      {"PlayerRef", 0x00000014}, {"DefaultTravel", 0x0001CCB6}, {"MyCombatStyle", 0x01000D64}};
  text::HexFormNamer hex_;
};

const TestNamer kNamer;
const TextCodec kCodec;
const text::BlockTextOptions kSkyrim{&kNamer, &kCodec, Game::SkyrimSE};
const text::BlockTextOptions kOblivion{&kNamer, &kCodec, Game::Oblivion};

PackageCondition condition(std::string_view text, Game game = Game::SkyrimSE) {
  return PackageCondition{encode_condition(text::parse_condition(text, game, kNamer))};
}

const Field& field(const std::vector<Field>& fields, Signature type) {
  const auto it = std::find_if(fields.begin(), fields.end(), [type](const Field& f) { return f.type == type; });
  EXPECT_NE(it, fields.end()) << type.str();
  return *it;
}

std::vector<std::uint8_t> bytes(std::initializer_list<int> values) {
  std::vector<std::uint8_t> out;
  for (int v : values) out.push_back(std::uint8_t(v));
  return out;
}

// Text -> model -> text -> model: both models encode the same, and the text is stable.
void expect_round_trip(const Package& p) {
  const std::string text = text::package_block_text(p, kSkyrim);
  SCOPED_TRACE(text);
  const Package back = text::parse_package_block(text, kSkyrim);
  EXPECT_EQ(encode_package(back), encode_package(p));
  EXPECT_EQ(text::package_block_text(back, kSkyrim), text);
}

void expect_error(std::string_view text, std::uint32_t line, std::uint32_t column, std::string_view message,
                  bool oblivion = false) {
  try {
    if (oblivion) text::parse_oblivion_package_block(text, kOblivion);
    else text::parse_package_block(text, kSkyrim);
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const text::SyntaxError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.column(), column) << e.what();
    EXPECT_NE(e.message().find(message), std::string::npos) << e.what();
  }
}

// A template package as the export writes it: the procedure tree indented by its branch counts,
// each branch's conditions below it.
constexpr std::string_view kTemplate = R"(type PackageTemplate
flags none
interrupt-override None
preferred-speed Run
interrupt-flags HellosToPlayer|RandomConversations|AllowIdleChatter|WorldInteractions|0xFD00
pkdt unused=6F
schedule any unused=476574
idles flags=RunInSequence timer=2.5 IdleWave 0001ABCD
pkcu version=0
input 0 Location location NearLinkedReference NONE radius=512
input 8 TargetSelector target ObjectId 00000DB1 count=0
input 10 Bool false
input 2 Float 1.5
xnam 11
branch Simultaneous children=2
  branch Procedure Travel flags=SuccessCompletesPackage inputs=0,2,10
    condition GetStage(MyQuest) >= 10.0 OR
    condition GetIsID(PlayerRef) == 0.0
  branch Procedure Sit flags=none inputs=8,none
input-name 0 "Place to Travel" flags=1
input-name 2 "Ride Horse if possible?" flags=1
on-begin idle IdleWave topic Dialogue NONE
on-end idle NONE topic Subtype "GBYE"
on-change
)";

}  // namespace

TEST(PackageBlock, TemplateWithProcedureTreeEventsAndIdles) {
  const Package p = text::parse_package_block(kTemplate, kSkyrim);
  EXPECT_TRUE(p.header.data.is_template());
  EXPECT_EQ(p.header.data.interrupt_flags, 0xFFFF & ~0x7C);
  EXPECT_EQ(p.header.data.unused, 0x6F);
  EXPECT_EQ(p.header.schedule.unused, (std::array<std::uint8_t, 3>{0x47, 0x65, 0x74}));
  ASSERT_TRUE(p.header.idles);
  EXPECT_EQ(p.header.idles->flags, std::uint8_t(IdleFlag::RunInSequence));
  EXPECT_EQ(p.header.idles->idles, (std::vector<std::uint32_t>{0x12345, 0x1ABCD}));
  EXPECT_EQ(p.header.counter.data_input_count, 4u);  // restored from the input lines
  ASSERT_EQ(p.public_data.inputs.size(), 4u);
  EXPECT_EQ(p.public_data.input_ids, bytes({0, 8, 10, 2}));
  EXPECT_EQ(std::get<Location>(p.public_data.inputs[0].value), (Location{LocationType::NearLinkedReference, 0, 512}));
  EXPECT_EQ(std::get<Target>(p.public_data.inputs[1].value), (Target{TargetType::ObjectId, 0xDB1, 0}));
  EXPECT_EQ(std::get<BoolValue>(p.public_data.inputs[2].value).value, 0);
  EXPECT_EQ(std::get<FloatValue>(p.public_data.inputs[3].value).value, 1.5f);
  EXPECT_EQ(p.public_data.xnam, 11);

  ASSERT_EQ(p.procedure_tree.size(), 3u);
  EXPECT_EQ(p.procedure_tree[0].type, "Simultaneous");
  EXPECT_EQ(p.procedure_tree[0].root->child_count, 2u);
  EXPECT_TRUE(p.procedure_tree[0].conditions.empty());
  const Branch& travel = p.procedure_tree[1];
  EXPECT_EQ(travel.procedure, "Travel");
  EXPECT_EQ(travel.flags, 1u);
  EXPECT_EQ(travel.input_ids, bytes({0, 2, 10}));
  ASSERT_EQ(travel.conditions.size(), 2u);
  EXPECT_EQ(travel.conditions[0].fields, condition("GetStage(MyQuest) >= 10.0 OR").fields);
  EXPECT_EQ(p.procedure_tree[2].input_ids, bytes({8, 0xFF}));
  EXPECT_EQ(p.procedure_tree[2].flags, 0u);
  ASSERT_EQ(p.input_names.size(), 2u);
  EXPECT_EQ(p.input_names[1].name, "Ride Horse if possible?");

  ASSERT_TRUE(p.on_begin && p.on_end && p.on_change);
  EXPECT_EQ(p.on_begin->idle, 0x12345u);
  EXPECT_EQ(p.on_end->topic, (Topic{TopicType::Subtype, 0x45594247}));  // "GBYE"
  EXPECT_FALSE(p.on_change->idle || p.on_change->topic);

  // The block is the text the export writes for this model, and the fields decode to it again.
  EXPECT_EQ(text::package_block_text(p, kSkyrim), kTemplate);
  const std::vector<Field> fields = encode_package(p);
  EXPECT_EQ(encode_package(decode_package(fields, {})), fields);
  EXPECT_EQ(field(fields, "CITC").data, bytes({0, 0, 0, 0}));
}

TEST(PackageBlock, IndentationBlankLinesAndCommentsDoNotMatter) {
  std::string flat = "# exported by hand\n\n";
  for (std::size_t at = 0; at < kTemplate.size();) {
    const std::size_t end = kTemplate.find('\n', at);
    std::string_view line = kTemplate.substr(at, end - at);
    line.remove_prefix(std::min(line.find_first_not_of(' '), line.size()));
    flat += "      " + std::string(line) + "   \n  # note\n";
    at = end + 1;
  }
  EXPECT_EQ(encode_package(text::parse_package_block(flat, kSkyrim)),
            encode_package(text::parse_package_block(kTemplate, kSkyrim)));
}

// A package that uses every member of the model, the rare raw ones included.
TEST(PackageBlock, EveryMemberRoundTrips) {
  Package p;
  p.editor_id = std::string("Odd\x01Name\xE9", 9);
  p.vmad = Field{Signature("VMAD"), bytes({5, 0, 2, 0, 0, 0}), true, 3};
  PackageData& d = p.header.data;
  d.flags = 0x2004 | 0x10000;  // must complete, preferred speed and a bit without a name
  d.interrupt_override = InterruptOverride(7);
  d.preferred_speed = PreferredSpeed::FastWalk;
  d.unused = 0x3D;
  d.interrupt_flags = 0x0101;
  d.unknown = 4;
  p.header.schedule = {3, DayOfWeek::TirdasTurdas, 17, 22, 45, {0x0D, 0x0A, 0x00}, 95};
  p.header.conditions.push_back(condition("GetStage(MyQuest) >= 10.0 OR"));
  // CIS2 before CIS1: no condition text for it, so it is written raw.
  p.header.conditions.push_back(PackageCondition{{condition("GetStage(MyQuest) == 5.0").fields[0],
                                                  Field{Signature("CIS2"), bytes({'a', 0})},
                                                  Field{Signature("CIS1"), bytes({'b', 0})}}});
  p.header.idles = IdleAnimations{std::nullopt, bytes({0xAA}), std::bit_cast<float>(0x7FC00001u), {0x12345}};
  p.header.combat_style = 0x01000D64;
  p.header.owner_quest = 0x01000D62;
  p.header.counter = {9, 0x0001CCB6, 29};
  PublicData& pd = p.public_data;
  pd.inputs = {{"Bool", BoolValue{7}},
               {"Int", IntValue{-5}},
               {"Float", FloatValue{-0.0f}},
               {"ObjectList", FloatValue{0.1f}},
               {"Int", BoolValue{1}},  // not what the ANAM type reads: written as CNAM bytes
               {"Keyword", RawValue{bytes({1, 2, 3})}},
               {"Location", Location{LocationType::ReferenceAlias, 3, 0}},
               {"Location", Location{LocationType(42), 0xFFFFFFFF, -1}},
               {"SingleRef", Target{TargetType::Self, 0, 1}},
               {"Topic", Topic{TopicType::Subtype, 0x00224122}},  // "\"A\"\0"
               {"Topic", Topic{TopicType(9), 77}},
               {"Topic Form", TopicForm{0x01000D63}},
               {"", std::monostate{}}};
  pd.input_ids = bytes({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});  // three inputs without an id
  pd.xnam = -3;
  Branch b;
  b.type = "Procedure";
  b.procedure = "Use Weapon";
  b.root = BranchRoot{0, 0x80};
  b.conditions.push_back(condition("GetIsID(PlayerRef) == 1.0"));
  b.pfo2.push_back({});
  b.pfo2.back()[15] = 0xFF;
  b.pfor.push_back({1, 2, 3});
  p.procedure_tree.push_back(b);
  p.procedure_tree.push_back(Branch{"Sequence", {}, std::nullopt, std::nullopt, std::nullopt, {}, {}, {}});
  p.input_names.push_back({200, "", 0});
  PackageEvent e;
  e.old_script = {Field{Signature("SCHR"), bytes({0, 0, 0, 0})}, Field{Signature("SCTX"), bytes({'x'})}};
  e.tnam = 0;
  e.topic = Topic{TopicType::Dialogue, 0};
  p.on_end = e;
  p.unknown_fields = {{0, Field{Signature("ZZZZ"), {}}}, {31, Field{Signature::from_value(0x00017A01), bytes({9})}}};
  expect_round_trip(p);

  const std::string text = text::package_block_text(p, kSkyrim);
  EXPECT_NE(text.find("flags MustComplete|PreferredSpeed|0x10000\n"), std::string::npos);
  EXPECT_NE(text.find("schedule month=3 day=TirdasTurdas date=17 hour=22 minute=45 duration=1h35min unused=0D0A00\n"),
            std::string::npos);
  EXPECT_NE(text.find("raw-condition CTDA "), std::string::npos);
  EXPECT_NE(text.find("input 4 Int cnam 01\n"), std::string::npos);
  EXPECT_NE(text.find("input - \"\"\n"), std::string::npos);
  EXPECT_NE(text.find("unknown 31 0x00017A01 09\n"), std::string::npos);

  // More UNAM ids than inputs, and no data at all besides.
  Package ids;
  ids.public_data.inputs = {{"Bool", BoolValue{1}}};
  ids.public_data.input_ids = bytes({4, 9, 0xFF});
  expect_round_trip(ids);
  EXPECT_NE(text::package_block_text(ids, kSkyrim).find("input 4 Bool true\ninput-id 9\ninput-id 255\n"), std::string::npos);
}

TEST(PackageBlock, EditingTheScheduleWritesThePsdtBytes) {
  const std::string block = R"(type Package
flags MustComplete
interrupt-override None
preferred-speed Walk
interrupt-flags HellosToPlayer|RandomConversations
schedule any
condition GetStage(MyQuest) >= 10.0
pkcu template=DefaultTravel version=5
input 0 Location location NearReference MyMarker radius=500
xnam 1
on-begin idle NONE topic Dialogue NONE
)";
  const std::vector<Field> before = encode_package(text::parse_package_block(block, kSkyrim));
  EXPECT_EQ(field(before, "PSDT").data, bytes({0xFF, 0xFF, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(field(before, "PKCU").data, bytes({1, 0, 0, 0, 0xB6, 0xCC, 1, 0, 5, 0, 0, 0}));
  EXPECT_EQ(field(before, "PLDT").data, bytes({0, 0, 0, 0, 0x63, 0x0D, 0, 1, 0xF4, 1, 0, 0}));

  // Morndas from 8:00 for seven hours; and the condition removed, the flag changed, the marker moved.
  std::string edited = block;
  edited.replace(edited.find("schedule any"), 12, "schedule day=Morndas hour=8 minute=0 duration=7h");
  edited.erase(edited.find("condition"), edited.find("pkcu") - edited.find("condition"));
  edited.replace(edited.find("MustComplete"), 12, "OncePerDay|MustComplete");
  edited.replace(edited.find("MyMarker"), 8, "PlayerRef");
  const Package p = text::parse_package_block(edited, kSkyrim);
  const std::vector<Field> after = encode_package(p);
  EXPECT_EQ(field(after, "PSDT").data, bytes({0xFF, 1, 0, 8, 0, 0, 0, 0, 0xA4, 1, 0, 0}));
  EXPECT_EQ(std::count_if(after.begin(), after.end(), [](const Field& f) { return f.type == Signature("CTDA"); }), 0);
  EXPECT_EQ(field(after, "PKDT").data, bytes({0x04, 0x04, 0, 0, 0x12, 0, 0, 0, 0x03, 0, 0, 0}));
  EXPECT_EQ(field(after, "PLDT").data, bytes({0, 0, 0, 0, 0x14, 0, 0, 0, 0xF4, 1, 0, 0}));
  EXPECT_EQ(after.size(), before.size() - 1);
}

TEST(PackageBlock, OblivionPackageWithLocationTargetAndSchedule) {
  const std::string block = R"(type Travel
flags MustReachLocation|OncePerDay
pkdt unused=CDCDCD
location NearReference MyMarker radius=300
schedule day=Loredas hour=20 duration=10h
target ObjectId 0001ABCD count=2
condition GetStage(MyQuest) >= 10.0
)";
  const OblivionPackage p = text::parse_oblivion_package_block(block, kOblivion);
  EXPECT_EQ(text::oblivion_package_block_text(p, kOblivion), block);
  const std::vector<Field> fields = encode_oblivion_package(p);
  ASSERT_EQ(fields.size(), 5u);
  EXPECT_EQ(fields[0].data, bytes({0x02, 0x04, 0, 0, 6, 0xCD, 0xCD, 0xCD}));
  EXPECT_EQ(fields[1].data, bytes({0, 0, 0, 0, 0x63, 0x0D, 0, 1, 0x2C, 1, 0, 0}));
  EXPECT_EQ(fields[2].data, bytes({0xFF, 6, 0, 20, 10, 0, 0, 0}));
  EXPECT_EQ(fields[3].data, bytes({1, 0, 0, 0, 0xCD, 0xAB, 1, 0, 2, 0, 0, 0}));
  EXPECT_EQ(fields[4], condition("GetStage(MyQuest) >= 10.0", Game::Oblivion).fields[0]);

  // The older forms: a 4-byte PKDT, a CTDT condition, no location or target; an unknown field.
  OblivionPackage old;
  old.editor_id = "Old";
  old.data = {0x8000, OblivionPackageType(12), {0xCD, 0, 0}, true};
  old.schedule = {14, DayOfWeek::Any, 0, -1, -2};
  old.conditions.push_back(condition("GetStage(MyQuest) >= 10.0 [CTDT]", Game::Oblivion));
  old.unknown_fields = {{2, Field{Signature("XXYY"), bytes({1})}}};
  const std::string text = text::oblivion_package_block_text(old, kOblivion);
  EXPECT_NE(text.find("pkdt short unused=CD\n"), std::string::npos) << text;
  EXPECT_NE(text.find("type 12\n"), std::string::npos) << text;
  EXPECT_NE(text.find("schedule month=14 duration=-2h\n"), std::string::npos) << text;
  EXPECT_EQ(encode_oblivion_package(text::parse_oblivion_package_block(text, kOblivion)), encode_oblivion_package(old));
}

TEST(PackageBlock, BlockStartsAfterTheLeadingEditorIdAndVmad) {
  const std::vector<Field> fields = {Field::zstring("EDID", "A"), Field{Signature("VMAD"), {}}, Field{Signature("PKDT"), {}},
                                     Field::zstring("EDID", "B")};
  EXPECT_EQ(text::package_block_start(fields), 2u);
  EXPECT_EQ(text::package_block_start(std::span(fields).subspan(2)), 0u);
  EXPECT_EQ(text::package_block_start({}), 0u);
}

TEST(PackageBlock, MalformedLinesNameTheirLineAndColumn) {
  expect_error("type Package\nflags MustComplete|Bogus\n", 2, 20, "expected package flags");
  expect_error("type Package\n  bogus 1\n", 2, 3, "unknown keyword 'bogus'");
  expect_error("combat-style NoSuchForm\n", 1, 14, "unknown form 'NoSuchForm'");
  expect_error("schedule day=Morndas hour=eight\n", 1, 27, "expected an hour");
  expect_error("schedule duration=7\n", 1, 19, "expected a duration such as 7h");
  expect_error("schedule hour=8 hour=9\n", 1, 17, "'hour' is given twice");
  expect_error("type Package\ntype Package\n", 2, 1, "'type' is given twice");
  expect_error("condition GetStage(MyQuest) >=\n", 1, 31, "");
  expect_error("input 0 Bool maybe\n", 1, 14, "true, false or a number");
  expect_error("input 0 Location location NearReference\n", 1, 40, "expected a form");
  expect_error("branch Procedure Travel\nflags none\n", 2, 1, "'flags' belongs to the header and public data");
  expect_error("on-begin\ncondition GetStage(MyQuest) >= 1.0\n", 2, 1, "belongs to the header or to a branch");
  expect_error("pfo2 00\n", 1, 1, "expected a branch line before it");
  expect_error("branch Sequence\npfo2 0011\n", 2, 6, "16 bytes as 32 hex digits");
  expect_error("on-end idle NONE idle NONE\n", 1, 18, "'idle' is given twice");
  expect_error("on-change topic Subtype \"GBY\"\n", 1, 25, "four characters");
  expect_error("xnam 200\n", 1, 6, "from -128 to 127");
  expect_error("idles IdleWave\n", 1, 15, "expected 'timer='");
  expect_error("input - Bool true\ninput 3 Bool true\n", 2, 1, "ids pair with the inputs in order");
  expect_error("type Package extra\n", 1, 14, "expected the end of the line");
  expect_error("schedule duration=90min\n", 1, 19, "whole hours", true);
  expect_error("type Travel\nlocation InCell\n", 2, 16, "expected a form", true);
  expect_error("pkdt short\nflags 0x10000\n", 2, 7, "16 bits of flags", true);
}
