// The VMAD block text on hand-written texts: every property type and array, every fragment
// section, alias scripts, object format 1, versions 2 to 4, edits made in the text, and the
// errors (line and column) of malformed lines.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <map>

#include "tesmod/fields/vmad.hpp"
#include "tesmod/text/vmad_block.hpp"

using namespace tesmod;
using namespace tesmod::fields;
using tesmod::text::SyntaxError;

namespace {

// EditorIDs for a few forms, `0x` + hex for the rest; one name is a file name with a blank, left
// unquoted as PluginFormNamer writes it.
class TestNamer final : public text::FormNamer {
 public:
  std::string name(std::uint32_t form_id) const override {
    for (const auto& [text, id] : kNames)
      if (id == form_id) return text;
    return fmt::format("0x{:08X}", form_id);
  }
  std::optional<std::uint32_t> resolve(std::string_view text) const override {
    if (const auto it = kNames.find(std::string(text)); it != kNames.end()) return it->second;
    if (text.starts_with("0x")) return text::HexFormNamer().resolve(text);
    return std::nullopt;
  }

 private:
  inline static const std::map<std::string, std::uint32_t> kNames = {
      {"PlayerRef", 0x14}, {"MyQuest", 0x01000800}, {"My Mod.esp:000801", 0x01000801}, {"NONE", 0}};
};

const TestNamer kNamer;
const TextCodec kCodec;
const text::BlockTextOptions kOptions{&kNamer, &kCodec, Game::SkyrimSE};

Vmad parse(std::string_view text, Signature type = "ACTI") { return text::parse_vmad_block(text, type, kOptions); }
std::string render(const Vmad& v) { return text::vmad_block_text(v, kOptions); }

Vmad decode(const std::vector<std::uint8_t>& bytes, Signature type) {
  return decode_vmad(bytes, type, ErrorContext{"test", 0, std::nullopt});
}

// Parses, and requires the model and its bytes to be written back as exactly this text (the
// model is not compared: NaN != NaN).
Vmad canonical(const std::string& text, Signature type = "ACTI") {
  const Vmad v = parse(text, type);
  EXPECT_EQ(render(v), text);
  EXPECT_EQ(render(decode(encode_vmad(v), type)), text);
  return v;
}

// The SyntaxError a parse raises, as "line:column: message".
std::string error_of(std::string_view text, Signature type = "ACTI") {
  try {
    parse(text, type);
  } catch (const SyntaxError& e) {
    return e.what();
  }
  return "no error";
}

TEST(VmadBlock, EveryPropertyTypeAndArray) {
  const std::string text =
      "version 5 object-format 2\n"
      "script AllTypes\n"
      "  object Player = PlayerRef\n"
      "  object Owner = alias 3 of MyQuest\n"
      "  object Other = \"My Mod.esp\":000801\n"
      "  object Empty = NONE\n"
      "  string Greeting = \"Hello \\\"you\\\"\"\n"
      "  int Count = -42\n"
      "  float Speed = 1.5\n"
      "  bool Done = false status=removed\n"
      "  object[] Objects = [PlayerRef, alias 0 of MyQuest, 0x0001ABCD unused=7]\n"
      "  string[] Names = [\"a\", \"\"]\n"
      "  int[] Stages = [10, 20, -2147483648]\n"
      "  float[] Delays = [1.5, 2.0, -0.0, 0x7FC00001]\n"
      "  bool[] Flags = [true, false]\n"
      "  int[] None = []\n";
  const Vmad v = canonical(text);
  ASSERT_EQ(v.scripts.size(), 1u);
  const auto& p = v.scripts[0].properties;
  ASSERT_EQ(p.size(), 14u);
  EXPECT_EQ(std::get<VmadObject>(p[0].value), VmadObject::form(0x14));
  EXPECT_EQ(std::get<VmadObject>(p[1].value), VmadObject::quest_alias(0x01000800, 3));
  EXPECT_EQ(std::get<VmadObject>(p[2].value).form_id, 0x01000801u);
  EXPECT_EQ(std::get<VmadObject>(p[3].value), VmadObject::form(0));
  EXPECT_EQ(std::get<std::string>(p[4].value), "Hello \"you\"");
  EXPECT_EQ(std::get<std::int32_t>(p[5].value), -42);
  EXPECT_EQ(std::get<float>(p[6].value), 1.5f);
  EXPECT_EQ(p[7].status, Property::kRemoved);
  EXPECT_EQ(std::get<std::vector<VmadObject>>(p[8].value)[2], (VmadObject{0x0001ABCD, -1, 7}));
  EXPECT_EQ(std::get<std::vector<std::string>>(p[9].value), (std::vector<std::string>{"a", ""}));
  EXPECT_EQ(std::get<std::vector<std::int32_t>>(p[10].value)[2], INT32_MIN);
  const auto& delays = std::get<std::vector<float>>(p[11].value);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(delays[2]), 0x80000000u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(delays[3]), 0x7FC00001u);
  EXPECT_EQ(std::get<std::vector<bool>>(p[12].value), (std::vector<bool>{true, false}));
  EXPECT_TRUE(std::get<std::vector<std::int32_t>>(p[13].value).empty());
}

TEST(VmadBlock, NamesAndStringsWithAnyBytes) {
  Vmad v;
  Script& s = v.scripts.emplace_back(Script{"Odd Name.", Script::kLocal, {}});
  s.properties.push_back({"", Property::kEdited, std::string("caf\xE9 \x81\n\t\\")});
  s.properties.push_back({"x=y", 0, std::vector<std::string>{"\x01", "\xFF"}});
  const std::string text = render(v);
  EXPECT_EQ(text,
            "version 5 object-format 2\n"
            "script \"Odd Name.\"\n"
            "  string \"\" = \"caf\xC3\xA9 \\x81\\n\\t\\\\\"\n"
            "  string[] \"x=y\" = [\"\\x01\", \"\xC3\xBF\"] status=0\n");
  EXPECT_EQ(parse(text), v);
}

TEST(VmadBlock, ObjectFormat1AndVersion4Statuses) {
  const std::string text =
      "version 4 object-format 1\n"
      "script Local\n"
      "script Altered status=inherited\n"
      "  int Value = 5\n"
      "  int Gone = 0 status=removed\n"
      "  int Odd = 0 status=2\n"
      "script Removed status=removed\n"
      "script Strange status=7\n";
  const Vmad v = canonical(text);
  EXPECT_EQ(v.version, 4);
  EXPECT_EQ(v.object_format, 1);
  EXPECT_EQ(v.scripts[1].status, Script::kInheritedAltered);
  EXPECT_EQ(v.scripts[2].status, Script::kInheritedRemoved);
  EXPECT_EQ(v.scripts[3].status, 7);
  EXPECT_EQ(v.scripts[1].properties[2].status, 2);
  // Format 1 puts the FormID first: the same text, other bytes.
  Vmad f2 = parse("version 4 object-format 2\nscript S\n  object O = PlayerRef\n");
  Vmad f1 = parse("version 4 object-format 1\nscript S\n  object O = PlayerRef\n");
  EXPECT_EQ(f1.scripts, f2.scripts);
  EXPECT_NE(encode_vmad(f1), encode_vmad(f2));
  // Status names are also accepted in place of the defaults they stand for.
  EXPECT_EQ(parse("script S status=local\n  int I = 1 status=edited\n"), parse("script S\n  int I = 1\n"));
}

TEST(VmadBlock, Versions2And3StoreNoStatusNorArrays) {
  for (int version : {2, 3}) {
    const std::string header = fmt::format("version {} object-format 1\n", version);
    const Vmad v = canonical(header + "script Old\n  float F = 0.25\n  string S = \"x\"\n");
    EXPECT_EQ(encode_vmad(v).size(), 2u + 2 + 2 + (2 + 3) + 2 + (2 + 1 + 1 + 4) + (2 + 1 + 1 + 2 + 1));
    // What the version cannot store parses, and encode refuses it.
    EXPECT_THROW(encode_vmad(parse(header + "script Old status=removed\n")), Error);
    EXPECT_THROW(encode_vmad(parse(header + "script Old\n  int[] A = [1]\n")), Error);
  }
}

TEST(VmadBlock, InfoAndPackageFragments) {
  const std::string info =
      "version 5 object-format 2\n"
      "fragments TIF__0001ABCD\n"
      "  begin -> Fragment_0\n"
      "  end -> Fragment_1 script=OtherScript unknown=0\n";
  const Vmad v = canonical(info, "INFO");
  const auto& s = std::get<InfoFragments>(*v.fragments);
  EXPECT_EQ(s.unknown, 2);
  EXPECT_EQ(s.fragments[0], (FlaggedFragment{kBeginFragment, {1, "TIF__0001ABCD", "Fragment_0"}}));
  EXPECT_EQ(s.fragments[1], (FlaggedFragment{kEndFragment, {0, "OtherScript", "Fragment_1"}}));

  const std::string pack =
      "version 5 object-format 2\n"
      "script PF_Script\n"
      "fragments PF_Script unknown=3\n"
      "  begin -> Fragment_0\n"
      "  change -> Fragment_2\n"
      "  flag 0x08 -> Fragment_3\n";
  const Vmad pv = canonical(pack, "PACK");
  const auto& p = std::get<PackageFragments>(*pv.fragments);
  EXPECT_EQ(p.unknown, 3);
  EXPECT_EQ(p.fragments[1].flag, kChangeFragment);
  EXPECT_EQ(p.fragments[2].flag, 0x08);
  // An INFO has no named change fragment: bit 2 is written as a flag.
  InfoFragments with_change = std::get<InfoFragments>(*v.fragments);
  with_change.fragments.push_back({kChangeFragment, {1, "TIF__0001ABCD", "F"}});
  Vmad odd = v;
  odd.fragments = std::move(with_change);
  EXPECT_NE(render(odd).find("  flag 0x04 -> F\n"), std::string::npos);
  EXPECT_EQ(parse(render(odd), "INFO"), odd);
  // An empty section, and an empty file name.
  canonical("version 5 object-format 2\nfragments \"\"\n", "INFO");
}

TEST(VmadBlock, PerkAndSceneFragments) {
  const std::string perk =
      "version 5 object-format 2\n"
      "fragments PRKF_Perk\n"
      "  index 0 -> Fragment_0\n"
      "  index 2 unknown=-1 -> Fragment_4\n";
  const Vmad pv = canonical(perk, "PERK");
  const auto& k = std::get<PerkFragments>(*pv.fragments);
  EXPECT_EQ(k.fragments[1].index, 2);
  EXPECT_EQ(k.fragments[1].unknown, -1);

  const std::string scene =
      "version 5 object-format 2\n"
      "fragments SF_Scene\n"
      "  begin -> Fragment_0\n"
      "  end -> Fragment_1\n"
      "  phase 0 -> Fragment_2\n"
      "  phase 3 unknown=1 -> Fragment_3\n";
  const Vmad sv = canonical(scene, "SCEN");
  const auto& c = std::get<SceneFragments>(*sv.fragments);
  ASSERT_EQ(c.phases.size(), 2u);
  EXPECT_EQ(c.phases[1], (ScenePhaseFragment{1, 3, {1, "SF_Scene", "Fragment_3"}}));
}

const std::string kQuest =
    "version 5 object-format 2\n"
    "script DSilHandQuestScript\n"
    "  object Gallows = \"My Mod.esp\":000801\n"
    "  int Stage = 2\n"
    "fragments QF_DSilHand_0200A0B1\n"
    "  stage 10 log 0 -> Fragment_2\n"
    "  stage 20 log 1 unknown=5 -> Fragment_3\n"
    "alias 3 of MyQuest\n"
    "  script DSilHandAliasScript\n"
    "    object Target = alias 4 of MyQuest\n"
    "alias 4 of MyQuest unused=1 version=4 object-format=1\n"
    "  script Older status=inherited\n"
    "alias 5 of MyQuest\n";

TEST(VmadBlock, QuestFragmentsAndAliasScripts) {
  const Vmad v = canonical(kQuest, "QUST");
  const auto& q = std::get<QuestFragments>(*v.fragments);
  ASSERT_EQ(q.fragments.size(), 2u);
  EXPECT_EQ(q.fragments[1], (QuestFragment{20, 5, 1, {1, "QF_DSilHand_0200A0B1", "Fragment_3"}}));
  ASSERT_EQ(q.aliases.size(), 3u);
  EXPECT_EQ(q.aliases[0].object, VmadObject::quest_alias(0x01000800, 3));
  EXPECT_EQ(q.aliases[0].version, 5);
  EXPECT_EQ(q.aliases[1].object, (VmadObject{0x01000800, 4, 1}));
  EXPECT_EQ(q.aliases[1].version, 4);
  EXPECT_EQ(q.aliases[1].object_format, 1);
  EXPECT_EQ(q.aliases[1].scripts[0].status, Script::kInheritedAltered);
  EXPECT_TRUE(q.aliases[2].scripts.empty());
  // A stage without a log entry reads as log 0.
  EXPECT_EQ(parse("fragments QF\nstage 10 -> F\n", "QUST"), parse("fragments QF\nstage 10 log 0 -> F\n", "QUST"));
}

TEST(VmadBlock, IndentationCommentsAndBlankLinesAreFree) {
  const std::string messy =
      "# exported by hand\n"
      "\n"
      "      version 5    object-format 2\r\n"
      "script DSilHandQuestScript\n"
      "object Gallows = \"My Mod.esp\":000801\n"
      "\t\tint Stage = 2\n"
      "   # the fragments\n"
      "fragments QF_DSilHand_0200A0B1\n"
      "stage 10 log 0 ->Fragment_2\n"
      "stage 20 log 1 unknown=5 -> Fragment_3\n"
      "  alias 3 of MyQuest\n"
      "script DSilHandAliasScript\n"
      "object Target = alias 4 of MyQuest\n"
      "alias 4 of MyQuest object-format=1 version=4 unused=1\n"
      "script Older status=inherited\n"
      "alias 5 of MyQuest";
  EXPECT_EQ(parse(messy, "QUST"), parse(kQuest, "QUST"));
}

TEST(VmadBlock, EditsMadeInTheText) {
  const Vmad before = parse(kQuest, "QUST");
  std::string text = kQuest;
  const auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("int Stage = 2\n", "int Stage = 3\n  float[] Added = [0.5]\n");                       // change, add
  replace("fragments", "script NewScript\n  bool Ready = true\n  object Who = PlayerRef\nfragments");  // add a script
  replace("-> Fragment_2", "-> Fragment_9");                                                   // a fragment's function
  replace("  script Older status=inherited\n", "");                                            // remove an alias script
  const Vmad after = parse(text, "QUST");

  Vmad expected = before;
  expected.scripts[0].properties[1].value = std::int32_t{3};
  expected.scripts[0].properties.push_back({"Added", Property::kEdited, std::vector<float>{0.5f}});
  expected.scripts.push_back({"NewScript", Script::kLocal,
                              {{"Ready", Property::kEdited, true}, {"Who", Property::kEdited, VmadObject::form(0x14)}}});
  auto& q = std::get<QuestFragments>(*expected.fragments);
  q.fragments[0].fragment.function_name = "Fragment_9";
  q.aliases[1].scripts.clear();
  EXPECT_EQ(after, expected);
  EXPECT_EQ(decode(encode_vmad(after), "QUST"), expected);
}

TEST(VmadBlock, EveryUnusualValueOfTheModelSurvives) {
  Vmad v;
  v.version = 3;
  v.object_format = 1;
  v.scripts.push_back({"S", Script::kLocal,
                       {{"A", Property::kEdited, VmadObject{0xFF123456, -2, 0xFFFF}},
                        {"F", Property::kEdited, std::bit_cast<float>(0xFF800000u)},
                        {"G", Property::kEdited, 1e-45f},
                        {"H", Property::kEdited, 3.4028235e38f},
                        {"I", Property::kEdited, std::int32_t{2147483647}}}});
  QuestFragments q;
  q.unknown = 0;
  q.file_name = "QF 1";
  q.fragments.push_back({65535, -32768, -1, {255, "", "Fragment \"x\""}});
  q.aliases.push_back({VmadObject{0, -1, 0}, 2, 2, {}});
  v.fragments = q;
  const std::string text = render(v);
  EXPECT_EQ(parse(text, "QUST"), v) << text;
  EXPECT_EQ(decode(encode_vmad(v), "QUST"), v);
}

TEST(VmadBlock, FormsThatTheNamerCannotReadBackAreWrittenInHex) {
  // A namer whose names do not resolve: every form falls back to its FormID written out, @01000800.
  class Lossy final : public text::FormNamer {
   public:
    std::string name(std::uint32_t) const override { return "alias"; }
    std::optional<std::uint32_t> resolve(std::string_view text) const override {
      return text::HexFormNamer().resolve(text);
    }
  };
  const Lossy lossy;
  const text::BlockTextOptions o{&lossy, &kCodec, Game::SkyrimSE};
  Vmad v;
  v.scripts.push_back({"S", Script::kLocal, {{"O", Property::kEdited, VmadObject::quest_alias(0x01000800, 1)}}});
  const std::string text = text::vmad_block_text(v, o);
  EXPECT_EQ(text, "version 5 object-format 2\nscript S\n  object O = alias 1 of @01000800\n");
  EXPECT_EQ(text::parse_vmad_block(text, "ACTI", o), v);
}

TEST(VmadBlock, ErrorsNameTheLineAndColumn) {
  // Lines and columns are 1-based; comments and blank lines count.
  EXPECT_EQ(error_of("# c\n\nscrpt Foo\n"),
            "3:1: unknown keyword 'scrpt' (expected version, script, a property type (object, string, int, float, bool), "
            "fragments)");
  EXPECT_EQ(error_of("script S\n  int I = 1.5\n"), "2:11: expected an int value (-2147483648 to 2147483647), not '1.5'");
  EXPECT_EQ(error_of("script S\n  int I = 2147483648\n"),
            "2:11: expected an int value (-2147483648 to 2147483647), not '2147483648'");
  EXPECT_EQ(error_of("script S\n  float F = fast\n"), "2:13: expected a float value, not 'fast'");
  EXPECT_EQ(error_of("script S\n  bool B = 1\n"), "2:12: expected true or false");
  EXPECT_EQ(error_of("script S\n  string T = hello\n"), "2:14: expected a quoted string");
  EXPECT_EQ(error_of("script S\n  int[] A = [1, \"2\"]\n"), "2:17: expected an int value");
  EXPECT_EQ(error_of("script S\n  int[] A = [1 2]\n"), "2:16: expected ',' or ']'");
  EXPECT_EQ(error_of("script S\n  int[] A = 1\n"), "2:13: expected '[' and the array items");
  EXPECT_EQ(error_of("script S\n  object O = Nobody\n"), "2:14: unknown form 'Nobody': expected an EditorID, File.esp:00ABCDEF, @00ABCDEF or NONE");
  EXPECT_EQ(error_of("script S\n  object O = alias 3 MyQuest\n"), "2:22: expected 'of' and the quest");
  EXPECT_EQ(error_of("script S\n  int I 1\n"), "2:9: expected '=' and the value");
  EXPECT_EQ(error_of("script S\n  int I = 1 stat=removed\n"), "2:13: unexpected 'stat' (expected status=, or the end of the line)");
  EXPECT_EQ(error_of("script S status=gone\n"),
            "1:17: expected a status (local, inherited, removed, or a number to 255), not 'gone'");
  EXPECT_EQ(error_of("script S status=1 status=1\n"), "1:19: 'status=' is given twice");
  EXPECT_EQ(error_of("  int I = 1\n"), "1:3: a property needs a 'script' line before it");
  EXPECT_EQ(error_of("script S\nversion 5 object-format 2\n"), "2:1: 'version' must be the first line");
  EXPECT_EQ(error_of("version 6 object-format 2\n"), "1:9: expected a VMAD version (2 to 5), not 6");
  EXPECT_EQ(error_of("version 5 format 2\n"), "1:11: expected 'object-format'");
  // Fragments the record type does not have.
  EXPECT_EQ(error_of("fragments F\n"), "1:1: ACTI VMADs have no fragment section");
  EXPECT_EQ(error_of("fragments F\n  stage 10 -> F\n", "INFO"),
            "2:3: INFO VMADs have no 'stage' fragments (expected begin, end, flag)");
  EXPECT_EQ(error_of("fragments F\n  change -> F\n", "SCEN"),
            "2:3: SCEN VMADs have no 'change' fragments (expected begin, end, flag, phase)");
  EXPECT_EQ(error_of("  begin -> F\n", "ACTI"), "1:3: ACTI VMADs have no fragments ('begin')");
  EXPECT_EQ(error_of("  begin -> F\n", "INFO"), "1:3: expected a 'fragments' line before the first 'begin'");
  EXPECT_EQ(error_of("fragments F\n  begin Fragment_0\n", "INFO"), "2:9: expected '->' and the fragment's function");
  EXPECT_EQ(error_of("fragments F\n  begin -> A\n  begin -> B\n", "INFO"),
            "3:3: a second fragment for flag 0x01 (the first is on line 2)");
  EXPECT_EQ(error_of("fragments F\n  flag 3 -> A\n", "PACK"), "2:8: flag 3 is not a single bit");
  EXPECT_EQ(error_of("fragments F\n  stage 70000 -> A\n", "QUST"), "2:9: expected the stage (0 to 65535), not '70000'");
  EXPECT_EQ(error_of("fragments F\nfragments G\n", "QUST"), "2:1: a second 'fragments' line");
  EXPECT_EQ(error_of("fragments F\nscript S\n", "QUST"),
            "2:1: a script here needs an 'alias' line before it (the record's own scripts come before 'fragments')");
  EXPECT_EQ(error_of("fragments F\nalias 1 of MyQuest version=1\n", "QUST"), "2:28: expected a VMAD version (2 to 5), not 1");
  EXPECT_EQ(error_of("fragments F\nalias 1 of MyQuest\n  script S\nstage 1 -> F\n  int I = 1\n", "QUST"),
            "5:3: a property needs a 'script' line before it");
  EXPECT_EQ(error_of("script \"S\n"), "1:8: the string has no closing quote");
}

}  // namespace
