// The script compiler on small sources: the editor's reference-list rules, the OBSE setups it
// can match (early builds, plugin builds), and names resolved through masters beside a plugin.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_support.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/script/command_table.hpp"
#include "tesmod/script/compiler.hpp"
#include "tesmod/script/obse_profile.hpp"
#include "tesmod/script/plugin_names.hpp"

using namespace tesmod;
using namespace tesmod::script;

namespace {

constexpr std::string_view kTrunk = "OblivionOnline (trunk build, base 0x22D0)";

bool contains(const std::vector<std::uint8_t>& code, std::initializer_list<std::uint8_t> bytes) {
  return std::search(code.begin(), code.end(), bytes.begin(), bytes.end()) != code.end();
}

ScriptData compiled(std::string_view source, const CompileOptions& options = {}) { return compile(source, options).script; }

}  // namespace

TEST(Compiler, NoBreakSpaceIsABlank) {
  // Windows-1252 0xA0 in a source line is skipped like a space, as the editor does.
  const ScriptData plain = compiled("scn t\nshort x\nBegin GameMode\n\nset x to 1\nEnd\n");
  const ScriptData nbsp = compiled("scn t\nshort x\nBegin GameMode\n\xA0\xA0\r\nset x to\xA0" "1\nEnd\n");
  EXPECT_EQ(nbsp.bytecode, plain.bytecode);
}

TEST(Compiler, BareObsePlayerSharesVanillaPlayersEntry) {
  // Vanilla `player` and a bare OBSE `player` are one entry; an OBSE command's calling
  // reference is keyed PlayerRef, a second entry for the same object.
  const ScriptData s = compiled("scn t\nshort d\nBegin GameMode\nset d to player.GetDead\nLet d := player\n"
                                "Let d := player.GetDead\nEnd\n");
  ASSERT_EQ(s.refs.size(), 2u);
  EXPECT_EQ(s.refs[0].value, kPlayerRef);
  EXPECT_EQ(s.refs[1].value, kPlayerRef);
  EXPECT_TRUE(contains(s.bytecode, {0x52, 0x01, 0x00}));        // Let d := player: form token, entry 1
  EXPECT_TRUE(contains(s.bytecode, {0x58, 0x02, 0x00, 0x2E, 0x10}));  // player.GetDead (0x102E) in a Let: entry 2
}

TEST(Compiler, RecompilingNeverReadsThePreviousCode) {
  // Two entries for the player. Which name made which entry is history the kept list does not
  // show; the compiler must not look for it in the old bytes: names take the entries in list
  // order as they first appear, whatever the previous SCDA holds.
  const std::string source = "scn t\nBegin GameMode\nif player.GetDead == 0\nendif\nif PlayerRef.GetDead == 0\nendif\nEnd\n";
  ScriptData old = compiled(source);
  ASSERT_EQ(old.refs.size(), 2u);
  ScriptData swapped = old;  // the same lists, the old code using the entries the other way round
  const std::vector<std::uint8_t> one{0x72, 0x01, 0x00}, two{0x72, 0x02, 0x00};
  auto a = std::search(swapped.bytecode.begin(), swapped.bytecode.end(), one.begin(), one.end());
  auto b = std::search(swapped.bytecode.begin(), swapped.bytecode.end(), two.begin(), two.end());
  ASSERT_TRUE(a != swapped.bytecode.end() && b != swapped.bytecode.end() && a < b);
  a[1] = 0x02;
  b[1] = 0x01;
  swapped.bytecode.push_back(0xFF);  // nor does damage there matter

  CompileOptions from_old, from_swapped;
  from_old.previous = &old;
  from_swapped.previous = &swapped;
  const ScriptData x = compiled(source, from_old), y = compiled(source, from_swapped);
  EXPECT_EQ(x.bytecode, old.bytecode);
  EXPECT_EQ(y.bytecode, old.bytecode);
  EXPECT_EQ(y.refs, old.refs);
}

TEST(Compiler, EarlyObseKeepsPercentEscapesAndGetInputTextHasNoArgumentCount) {
  const std::string source = "scn t\nstring_var s\nBegin GameMode\nPrintC \"a%rb%qc\"\nset s to GetInputText\nEnd\n";
  const ScriptData current = compiled(source);
  CompileOptions early_options;
  early_options.obse_profile = ObseProfile::Early;
  const ScriptData early = compiled(source, early_options);

  EXPECT_TRUE(contains(current.bytecode, {'a', '\n', 'b', '"', 'c'}));
  EXPECT_TRUE(contains(early.bytecode, {'a', '%', 'r', 'b', '%', 'q', 'c'}));
  // GetInputText (0x1701) in an expression: length 2 and a zero count now, length 0 then.
  EXPECT_TRUE(contains(current.bytecode, {0x58, 0x01, 0x17, 0x02, 0x00, 0x00, 0x00}));
  EXPECT_TRUE(contains(early.bytecode, {0x58, 0x01, 0x17, 0x00, 0x00}));
  EXPECT_FALSE(contains(early.bytecode, {0x58, 0x01, 0x17, 0x02, 0x00}));

  // Only the early bytes show an early OBSE; `%%r` is an escaped percent, not evidence.
  EXPECT_TRUE(obse_evidence(early).early_strings);
  EXPECT_FALSE(obse_evidence(current).early_strings);
  EXPECT_FALSE(obse_evidence(compiled("scn t\nBegin GameMode\nPrintC \"100%%rate\"\nEnd\n", early_options)).early_strings);

  ObseProfile p;
  EXPECT_TRUE(parse_obse_profile("early", p));
  EXPECT_EQ(p, ObseProfile::Early);
  EXPECT_FALSE(parse_obse_profile("old", p));
}

TEST(Compiler, PluginBuildsChooseTheirOwnOpcodes) {
  // Two OblivionOnline builds register MPSendActor at different opcodes.
  const std::vector<std::string> trunk{std::string(kTrunk)};
  ASSERT_NE(find_command("MPSendActor"), nullptr);
  EXPECT_EQ(find_command("MPSendActor")->opcode, 0x2001);
  EXPECT_EQ(find_command("MPSendActor", trunk)->opcode, 0x22D1);
  EXPECT_EQ(find_command("GetDead", trunk), find_command("GetDead"));

  CompileOptions o;
  o.obse_plugins = trunk;
  const ScriptData s = compiled("scn t\nBegin GameMode\nMPSendActor\nEnd\n", o);
  EXPECT_TRUE(contains(s.bytecode, {0xD1, 0x22}));
  // The compiled bytes tell which build they were made with.
  EXPECT_EQ(obse_evidence(s).plugins, trunk);
  EXPECT_TRUE(obse_evidence(compiled("scn t\nBegin GameMode\nMPSendActor\nEnd\n")).plugins.front().find("0x2000") !=
              std::string::npos);
}

namespace {

// Master.esm defines "Sword"; Child.esp's script uses it from there (SCRO 00000800). The master
// file beside the child is either that build or another whose Sword has a different FormID.
PluginFile write_child(const test::TempDir& dir, std::uint32_t sword_in_master) {
  Plugin m = Plugin::create(Game::Oblivion, "Master.esm");
  m.add(Record("WEAP", sword_in_master, {Field::zstring("EDID", "Sword")}));
  m.save(dir / "Master.esm");
  Plugin c = Plugin::create(Game::Oblivion, "Child.esp");
  c.set_masters({{"Master.esm", 0}}, std::vector<std::uint32_t>{1});
  c.add(Record("SCPT", c.allocate_form_id(), {Field::zstring("EDID", "ChildScript"), Field::u32("SCRO", 0x00000800)}));
  c.save(dir / "Child.esp");
  return PluginFile::open(dir / "Child.esp");
}

}  // namespace

TEST(PluginNames, UsesTheMasterBuildThePluginWasMadeAgainst) {
  test::TempDir dir;
  const PluginFile child = write_child(dir, 0x00000800);
  const auto names = PluginNames::build(child);
  EXPECT_TRUE(names->masters_mismatched().empty());
  ASSERT_TRUE(names->find("Sword"));
  EXPECT_EQ(names->find("Sword")->form_id, 0x00000800u);
}

TEST(PluginNames, LeavesOutAMasterOfAnotherBuild) {
  // Its Sword is 00000900 while the child uses 00000800: its names would compile to the wrong
  // forms, so it is not used, and says why.
  test::TempDir dir;
  const PluginFile child = write_child(dir, 0x00000900);
  const auto names = PluginNames::build(child);
  ASSERT_EQ(names->masters_mismatched().size(), 1u);
  EXPECT_NE(names->masters_mismatched()[0].find("Master.esm: 0 of the 1 forms"), std::string::npos)
      << names->masters_mismatched()[0];
  EXPECT_FALSE(names->find("Sword"));
}

TEST(Compiler, MasterFactsAreByName) {
  // A stored script whose source names a form of a master that is not at hand.
  ScriptData stored = compiled("scn t\nshort x\nBegin GameMode\nset x to @00012345.GetDead\nEnd\n");
  stored.source = "scn t\nshort x\nBegin GameMode\nset x to MasterThing.GetDead\nEnd\n";
  const MasterFacts facts = learn_master_facts(stored, CompileOptions{});
  ASSERT_TRUE(facts.problem.empty()) << facts.problem;
  ASSERT_EQ(facts.forms.count("masterthing"), 1u);
  EXPECT_EQ(facts.forms.at("masterthing").form_id, 0x12345u);
  EXPECT_FALSE(facts.forms.at("masterthing").global);

  CompileOptions o;
  o.facts = &facts;
  const CompileResult same = compile(stored.source, o);
  EXPECT_EQ(same.script.bytecode, stored.bytecode);
  EXPECT_EQ(same.script.refs, stored.refs);
  EXPECT_EQ(same.hints_used, 1u);
  // An edit naming another master form finds no fact: an error, not the old entry.
  EXPECT_THROW(compile("scn t\nshort x\nBegin GameMode\nset x to OtherThing.GetDead\nEnd\n", o), CompileError);
  // A source that does not pair with the stored code teaches nothing.
  ScriptData stale = stored;
  stale.source = "scn t\nshort x\nBegin GameMode\nset x to MasterThing.GetDead + OtherThing.GetDead\nEnd\n";
  EXPECT_FALSE(learn_master_facts(stale, CompileOptions{}).problem.empty());
}
