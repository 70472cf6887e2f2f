// Conditions as text: the spec page's example, real corpus conditions (bytes copied from the
// plugins, text worked out by hand from the spec's field table), parse errors with columns,
// random bytes through text and back, and the plugin-aware FormNamer.
#include "tesmod/text/condition_text.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <random>

#include "tesmod/fields/condition.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/plugin/form_names.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "test_support.hpp"

using namespace tesmod;
using namespace tesmod::fields;
using text::parse_condition;
using text::render_condition;

namespace {

const ErrorContext kWhere{"Test.esp", Error::kNoOffset, std::nullopt};

// Names from a fixed list; anything else as 8 hex digits.
class MapNamer final : public text::FormNamer {
 public:
  MapNamer(std::initializer_list<std::pair<const std::uint32_t, std::string>> names) : names_(names) {}
  std::string name(std::uint32_t id) const override {
    auto it = names_.find(id);
    return it != names_.end() ? it->second : hex_.name(id);
  }
  std::optional<std::uint32_t> resolve(std::string_view text) const override {
    for (const auto& [id, n] : names_)
      if (ascii::iequals(n, text)) return id;
    return hex_.resolve(text);
  }

 private:
  std::map<std::uint32_t, std::string> names_;
  text::HexFormNamer hex_;
};

std::vector<std::uint8_t> from_hex(std::string_view hex) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(std::uint8_t(std::stoul(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

Condition decode_hex(Game game, std::string_view hex, Signature type = kCTDA) {
  return decode_condition(game, type, from_hex(hex), kWhere);
}

// The text of c, after checking that it reads back to the same bytes.
std::string round_trip(const Condition& c, const text::FormNamer& namer) {
  const std::string line = render_condition(c, namer);
  const Condition back = parse_condition(line, condition_game(c.layout), namer);
  EXPECT_EQ(encode_condition(back), encode_condition(c)) << line;
  return line;
}

std::size_t error_column(std::string_view line, Game game, const text::FormNamer& namer) {
  try {
    parse_condition(line, game, namer);
  } catch (const text::ConditionSyntaxError& e) {
    return e.column();
  }
  ADD_FAILURE() << "parsed: " << line;
  return 0;
}

}  // namespace

TEST(ConditionText, SpecExample) {
  // <Reference>.<Function>(<Param1>, <Param2>) <Operator> <Value>:
  // PlayerRef.GetDistance(MQ304AlduinHideInMistSouthMarker) > 6500
  Condition c;
  c.op = CompareOp::Greater;
  c.set(condition_flag::kOr, true);
  c.set_value_float(6500.0f);
  c.function = 1;
  c.param1 = 0x000E1A2B;
  c.run_on = RunOn::Reference;
  c.reference = 0x14;
  const MapNamer namer{{0x14, "PlayerRef"}, {0x000E1A2B, "MQ304AlduinHideInMistSouthMarker"}};
  EXPECT_EQ(round_trip(c, namer), "PlayerRef.GetDistance(MQ304AlduinHideInMistSouthMarker) > 6500.0 OR");
  // Written by hand, with spacing and case of a modder's own.
  const Condition typed =
      parse_condition("  playerref.getdistance( MQ304AlduinHideInMistSouthMarker )>6500 or", Game::SkyrimSE, namer);
  EXPECT_EQ(encode_condition_data(typed), encode_condition_data(c));
}

TEST(ConditionText, RealSkyrimConditions) {
  const MapNamer namer{{0x0206A548, "DSilHand_R04Keyword"}, {0x02022033, "_Camp_MainQuest"}};
  // DawnOfTheSilverHand.esp SMQN DSilHand_R04QuestNode: GetEventData (576), event function 0
  // (GetIsID), member "K1", the keyword 0206A548.
  EXPECT_EQ(
      round_trip(decode_hex(Game::SkyrimLE, "000000000000803f4002000000004b3148a506020000000000000000ffffffff"), namer),
      "GetEventData(GetIsID, K1, DSilHand_R04Keyword) == 1.0");
  // Dwemer Secrets.esp PACK ForceGreet: flag 0x08 (use pack data), GetDetected (45) of package
  // data 17.
  EXPECT_EQ(
      round_trip(decode_hex(Game::SkyrimLE, "080000000000803f2d00000011000000000000000000000000000000ffffffff"), namer),
      "GetDetected(PackData(17)) == 1.0 [UsePackData]");
  // The same record: run on package data 17 (param3), GetWithinPackageLocation (325) of 62.
  EXPECT_EQ(
      round_trip(decode_hex(Game::SkyrimLE, "000000000000803f450100003e00000000000000060000000000000011000000"), namer),
      "PackData(17).GetWithinPackageLocation(PackData(62)) == 1.0");
  // Campfire.esp ENCH _Camp_Backpack_Dibella: GetVMQuestVariable (629) with the name in CIS2;
  // unused bytes and the "very high" param2 are kept as annotations.
  Condition vm = decode_hex(Game::SkyrimLE, "00d92b01000000007502000033200202588605390000000000000000ffffffff");
  vm.cis2 = std::string("::IsSkyrimVR_var\0", 17);
  EXPECT_EQ(round_trip(vm, namer),
            "GetVMQuestVariable(_Camp_MainQuest, \"::IsSkyrimVR_var\") == 0.0 [unused=D92B01 p2=39058658]");
}

TEST(ConditionText, RealOblivionConditions) {
  const MapNamer namer{{0x01000CEA, "a000CTAddPoseQuest"}};
  // CTAddPose_Custom.esp IDLE CTAddPose: 0x20 = not equal, -1.0, GetQuestVariable (0x4F), the
  // quest, variable 14.
  EXPECT_EQ(round_trip(decode_hex(Game::Oblivion, "20000000000080bf4f000000ea0c00010e00000000000000"), namer),
            "GetQuestVariable(a000CTAddPoseQuest, 14) != -1.0");
  // Oblivion Less Bound.esp INFO 000711B8: 0x42 = greater, run on target; GetActorValue of 39
  // (Infamy, tes4_actor_values.tsv).
  EXPECT_EQ(round_trip(decode_hex(Game::Oblivion, "420000000000c8420e000000270000000000000000000000"), namer),
            "Target.GetActorValue(Infamy) > 100.0");
  // The 20-byte CTDT says so.
  EXPECT_EQ(round_trip(decode_hex(Game::Oblivion, "020000000000803f7f0000000000000000000000", kCTDT), namer),
            "Target.CanPayCrimeGold() == 1.0 [CTDT]");
}

TEST(ConditionText, EverythingThePlainFormCannotSayIsAnnotated) {
  const text::HexFormNamer namer;
  Condition c;
  c.op = CompareOp(7);
  c.flags = condition_flag::kUseGlobal | condition_flag::kSwapSubjectTarget | condition_flag::kUseAliases;
  c.value = 0x00000063;
  c.function = 4000;  // no such function
  c.param1 = 0xFFFFFFFF;
  c.param2 = 12;
  c.run_on = RunOn(9);
  c.reference = 0x00000014;
  c.param3 = 5;
  c.unused = {1, 2, 3};
  c.padding = 0xBEEF;
  c.cis1 = std::string("x\"y\\z\x01\xE9", 7);  // no terminator
  EXPECT_EQ(round_trip(c, namer),
            "RunOn(9).Function4000(\"x\\\"y\\\\z\\x01\\xE9\", 12) op7 global 00000063 [UseAliases SwapSubjectTarget "
            "unused=010203 pad=BEEF p1=FFFFFFFF ref=00000014 p3=5 cis1-unterminated]");

  Condition nan;
  nan.value = 0x7FC00001;  // a NaN with a payload: written as its bits
  nan.function = 1;
  nan.param1 = 0x07;
  EXPECT_EQ(round_trip(nan, namer), "GetDistance(00000007) == 0x7FC00001");

  Condition ob;
  ob.layout = ConditionLayout::Oblivion;
  ob.flags = 0x18;
  ob.function = 70;  // GetIsSex
  ob.param1 = 1;
  ob.tail = {0, 0, 0, 9};
  ob.cis2 = std::string("v\0", 2);
  ob.set_value_float(-0.0f);
  EXPECT_EQ(round_trip(ob, namer), "GetIsSex(Female) == -0.0 [flags=0x18 tail=00000009 cis2=\"v\"]");
}

TEST(ConditionText, FormsTheNamerCannotNameSafely) {
  // Names that the grammar would read differently, or that do not resolve back, fall back to @FormID.
  const MapNamer namer{{0x100, "Target"}, {0x101, "A, B"}, {0x102, "With Space"}, {0x103, "Unresolvable"}};
  Condition c;
  c.function = 72;  // GetIsID
  for (std::uint32_t id : {0x100u, 0x101u}) {
    c.param1 = id;
    EXPECT_EQ(round_trip(c, namer), fmt::format("GetIsID(@{:08X}) == 0.0", id));
  }
  c.param1 = 0x102;  // spaces are fine in arguments, not in a global's name
  c.set(condition_flag::kUseGlobal, true);
  c.value = 0x102;
  EXPECT_EQ(round_trip(c, namer), "GetIsID(With Space) == global @00000102");
  c.param1 = 0;
  c.set(condition_flag::kUseGlobal, false);
  c.value = 0;
  c.run_on = RunOn::Reference;
  c.reference = 0x100;
  EXPECT_EQ(round_trip(c, namer), "@00000100.GetIsID(NONE) == 0.0");
}

TEST(ConditionText, ParseErrorsPointAtTheColumn) {
  const MapNamer namer{{0x800, "MQ101"}};
  const Game g = Game::SkyrimSE;
  EXPECT_EQ(error_column("NoSuchFunction() == 1.0", g, namer), 1u);
  EXPECT_EQ(error_column("GetStage(MQ101) => 10.0", g, namer), 17u);
  EXPECT_EQ(error_column("GetStage(MQ101) == ten", g, namer), 20u);
  EXPECT_EQ(error_column("GetStage(Nothing) == 1.0", g, namer), 10u);
  EXPECT_EQ(error_column("GetDistance(MQ101, MQ101) == 1.0", g, namer), 20u);
  EXPECT_EQ(error_column("GetIsSex(Neuter) == 1.0", g, namer), 10u);
  EXPECT_EQ(error_column("GetStage(MQ101 == 1.0", g, namer), 15u);  // where the argument most likely ended
  EXPECT_EQ(error_column("GetStage(MQ101) == 1.0 [pad=12]", g, namer), 29u);
  EXPECT_EQ(error_column("GetStage(MQ101) == 1.0 [what]", g, namer), 25u);
  EXPECT_EQ(error_column("GetStage(MQ101) == 1.0 OR extra", g, namer), 27u);
  EXPECT_EQ(error_column("GetStage(MQ101) == global", g, namer), 26u);
  EXPECT_EQ(error_column("GetIsSex(\"open) == 1.0", g, namer), 10u);
  EXPECT_EQ(error_column("CombatTarget.GetDead() == 1.0", Game::Oblivion, namer), 1u);
  try {
    parse_condition("GetStage(MQ101) => 10.0", g, namer);
  } catch (const text::ConditionSyntaxError& e) {
    EXPECT_EQ(std::string(e.what()), "column 17: expected a comparison operator: ==, !=, >, >=, <, <=");
  }
}

// Any bytes of the three layouts, with or without CIS strings, come back from their text.
TEST(ConditionText, RandomBytesRoundTrip) {
  std::mt19937 rng(20240611);
  const MapNamer namer{{0x14, "PlayerRef"}, {0x01000800, "SomeForm"}};
  struct Layout {
    Game game;
    Signature type;
    std::size_t size;
  };
  const Layout layouts[] = {{Game::SkyrimSE, kCTDA, 32}, {Game::Oblivion, kCTDA, 24}, {Game::Oblivion, kCTDT, 20}};
  int cases = 0;
  for (const Layout& l : layouts) {
    for (int n = 0; n < 20000; ++n) {
      std::vector<std::uint8_t> bytes(l.size);
      for (auto& b : bytes) b = std::uint8_t(rng());
      // Mostly functions and run-on types that exist, so their parameter kinds are exercised.
      if (rng() % 4) {
        bytes[8] = std::uint8_t(rng() % 256), bytes[9] = std::uint8_t(rng() % 3);
        if (l.size == 32 && rng() % 2) bytes[20] = std::uint8_t(rng() % 9), bytes[21] = bytes[22] = bytes[23] = 0;
        for (int p : {12, 16})
          if (rng() % 2) bytes[p + 1] = bytes[p + 2] = bytes[p + 3] = 0, bytes[p] = std::uint8_t(rng() % 100);
        if (rng() % 2) bytes[12] = 0x00, bytes[13] = 0x08, bytes[14] = 0x00, bytes[15] = 0x01;  // SomeForm
      }
      Condition c = decode_condition(l.game, l.type, bytes, kWhere);
      for (auto* cis : {&c.cis1, &c.cis2}) {
        if (rng() % 3) continue;
        std::string s(rng() % 6, '\0');
        for (char& ch : s) ch = char(rng() % 4 ? 'a' + rng() % 26 : rng() % 256);
        if (rng() % 4) s += '\0';
        *cis = s;
      }
      const std::string line = render_condition(c, namer);
      Condition back;
      try {
        back = parse_condition(line, l.game, namer);
      } catch (const std::exception& e) {
        ADD_FAILURE() << line << ": " << e.what();
        continue;
      }
      ASSERT_EQ(encode_condition(back), encode_condition(c)) << line;
      ++cases;
    }
  }
  EXPECT_EQ(cases, 60000);
}

// Damaged text is a syntax error, never a crash or another exception.
TEST(ConditionText, MangledTextFailsCleanly) {
  std::mt19937 rng(7);
  const MapNamer namer{{0x14, "PlayerRef"}};
  const std::string lines[] = {
      "PlayerRef.GetDistance(PlayerRef) > 6500.0 OR [unused=D92B01 pad=0054]",
      "GetEventData(GetIsID, K1, PlayerRef) == 1.0",
      "PackData(17).GetWithinPackageLocation(PackData(62)) == 1.0 [UsePackData ref=00000014]",
      "GetVMQuestVariable(PlayerRef, \"::x\\x41\") == global PlayerRef [p2=39058658 cis1=\"q\" cis1-unterminated]"};
  const std::string noise = "()[]\",.=@ \\xX0A9-+ORglobalNONE";
  int parsed = 0, rejected = 0;
  for (const std::string& line : lines) {
    ASSERT_NO_THROW(parse_condition(line, Game::SkyrimSE, namer)) << line;
    for (int n = 0; n < 5000; ++n) {
      std::string s = line;
      for (int k = 1 + int(rng() % 3); k > 0 && !s.empty(); --k) {
        const std::size_t at = rng() % s.size();
        switch (rng() % 3) {
          case 0: s.erase(at, 1 + rng() % 3); break;
          case 1: s.insert(at, 1, noise[rng() % noise.size()]); break;
          default: s[at] = noise[rng() % noise.size()];
        }
      }
      try {
        const Condition c = parse_condition(s, Game::SkyrimSE, namer);
        // What parses renders to a text that parses to the same condition.
        EXPECT_EQ(parse_condition(render_condition(c, namer), Game::SkyrimSE, namer), c) << s;
        ++parsed;
      } catch (const text::ConditionSyntaxError& e) {
        EXPECT_GE(e.column(), 1u);
        EXPECT_LE(e.column(), s.size() + 1) << s << ": " << e.what();
        ++rejected;
      }
    }
  }
  EXPECT_GT(rejected, 10000);
  EXPECT_GT(parsed, 100);
}

TEST(ConditionText, Json) {
  const MapNamer namer{{0x14, "PlayerRef"}, {0x000E1A2B, "Marker"}};
  Condition c;
  c.op = CompareOp::Greater;
  c.set_value_float(6500.0f);
  c.function = 1;
  c.param1 = 0x000E1A2B;
  c.run_on = RunOn::Reference;
  c.reference = 0x14;
  c.padding = 0x54;
  const nlohmann::ordered_json j = text::condition_json(c, namer);
  EXPECT_EQ(j["text"], "PlayerRef.GetDistance(Marker) > 6500.0 [pad=0054]");
  EXPECT_EQ(j["function"]["name"], "GetDistance");
  EXPECT_EQ(j["function"]["index"], 1);
  EXPECT_EQ(j["operator"], ">");
  EXPECT_EQ(j["value"], 6500.0);
  EXPECT_EQ(j["run_on"], "Reference");
  EXPECT_EQ(j["reference"], "PlayerRef");
  ASSERT_EQ(j["params"].size(), 1u);
  EXPECT_EQ(j["params"][0]["type"], "ObjectReference");
  EXPECT_EQ(j["params"][0]["value"], "Marker");
  // 6500.0f is 0x45CB2000.
  EXPECT_EQ(j["bytes"],
            "40000000"
            "0020CB45"
            "0100"
            "5400"
            "2B1A0E00"
            "00000000"
            "02000000"
            "14000000"
            "FFFFFFFF");
}

namespace {

// Master.esm defines 000800 "Sword" and 000801 "Shared"; Mod.esp (masters Master.esm and the
// absent Missing.esm) overrides 000800, adds 02000800 "Shield" and 02000801 "Shared" (the same
// EditorID as the master's other form), and 02000802 without an EditorID.
void write_plugins(const std::filesystem::path& dir) {
  Plugin m = Plugin::create(Game::SkyrimSE, "Master.esm");
  m.add(Record("WEAP", m.allocate_form_id(), {Field::zstring("EDID", "Sword")}));
  m.add(Record("GLOB", m.allocate_form_id(), {Field::zstring("EDID", "Shared")}));
  m.save(dir / "master.ESM");  // matched without regard to case
  Plugin p = Plugin::create(Game::SkyrimSE, "Mod.esp");
  p.set_masters({{"Master.esm", 0}, {"Missing.esm", 0}}, std::vector<std::uint32_t>{2});
  p.add(Record("WEAP", 0x00000800, {Field::zstring("EDID", "Sword")}));
  p.add(Record("ARMO", p.allocate_form_id(), {Field::zstring("EDID", "Shield")}));
  p.add(Record("GLOB", p.allocate_form_id(), {Field::zstring("EDID", "shared")}));
  p.add(Record("MISC", p.allocate_form_id(), {}));
  p.save(dir / "Mod.esp");
}

}  // namespace

TEST(PluginFormNamer, NamesByEditorIdOrFileAndObjectId) {
  test::TempDir dir;
  write_plugins(dir.path());
  const PluginFile mod = PluginFile::open(dir / "Mod.esp");
  const PluginFormNamer names = PluginFormNamer::build(mod);
  EXPECT_EQ(names.files(), (std::vector<std::string>{"Master.esm", "Missing.esm", "Mod.esp"}));
  EXPECT_EQ(names.masters_loaded(), (std::vector<std::string>{"Master.esm"}));
  ASSERT_EQ(names.masters_missing().size(), 1u);

  EXPECT_EQ(names.name(0x00000800), "Sword");
  EXPECT_EQ(names.name(0x02000800), "Shield");
  // "Shared" names two forms: neither gets it.
  EXPECT_EQ(names.name(0x00000801), "Master.esm:00000801");
  EXPECT_EQ(names.name(0x02000801), "Mod.esp:00000801");
  EXPECT_EQ(names.name(0x02000802), "Mod.esp:00000802");
  EXPECT_EQ(names.name(0x01000ABC), "Missing.esm:00000ABC");
  EXPECT_EQ(names.name(0x05000001), "@05000001");  // no file has index 5: written out, as it reads back

  EXPECT_EQ(names.resolve("sword"), 0x00000800u);
  EXPECT_EQ(names.resolve("SHIELD"), 0x02000800u);
  EXPECT_FALSE(names.resolve("Shared"));
  EXPECT_FALSE(names.resolve("Nothing"));
  EXPECT_EQ(names.resolve("master.esm:801"), 0x00000801u);
  EXPECT_EQ(names.resolve("Mod.esp:00000802"), 0x02000802u);
  EXPECT_EQ(names.resolve("Missing.esm:00000ABC"), 0x01000ABCu);
  EXPECT_EQ(names.resolve("0x05000001"), 0x05000001u);
  EXPECT_EQ(names.resolve("@05000001"), 0x05000001u);
  EXPECT_FALSE(names.resolve("Other.esm:000001"));
  EXPECT_FALSE(names.resolve("Mod.esp:01000000"));  // more than 24 bits
  for (std::uint32_t id : {0x00000800u, 0x00000801u, 0x02000800u, 0x02000801u, 0x02000802u, 0x01000ABCu, 0x05000001u})
    EXPECT_EQ(names.resolve(names.name(id)), id) << names.name(id);
}

TEST(PluginFormNamer, WithoutMastersOverridesStillName) {
  test::TempDir dir;
  write_plugins(dir.path());
  const PluginFile mod = PluginFile::open(dir / "Mod.esp");
  PluginFormNamer::Options o;
  o.load_masters = false;
  const PluginFormNamer names = PluginFormNamer::build(mod, o);
  EXPECT_TRUE(names.masters_loaded().empty());
  EXPECT_EQ(names.name(0x00000800), "Sword");  // from the plugin's override
  EXPECT_EQ(names.name(0x00000801), "Master.esm:00000801");
  EXPECT_EQ(names.name(0x02000801), "shared");  // unique without the master
}
