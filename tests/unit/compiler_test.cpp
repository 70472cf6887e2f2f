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

TEST(Compiler, RecompilingKeepsWhichDuplicateEntryEachNameHad) {
  // Two entries for the player; the old bytes use entry 2 (for `player`) before entry 1 (for
  // `PlayerRef`), as the editor's history can leave them. Recompiling the same text must give
  // the same bytes: the first name takes the entry the old bytecode used first.
  const std::string source = "scn t\nBegin GameMode\nif player.GetDead == 0\nendif\nif PlayerRef.GetDead == 0\nendif\nEnd\n";
  ScriptData old = compiled(source);
  ASSERT_EQ(old.refs.size(), 2u);
  const std::vector<std::uint8_t> one{0x72, 0x01, 0x00}, two{0x72, 0x02, 0x00};
  auto a = std::search(old.bytecode.begin(), old.bytecode.end(), one.begin(), one.end());
  auto b = std::search(old.bytecode.begin(), old.bytecode.end(), two.begin(), two.end());
  ASSERT_TRUE(a != old.bytecode.end() && b != old.bytecode.end() && a < b);
  a[1] = 0x02;
  b[1] = 0x01;

  CompileOptions o;
  o.previous = &old;
  const ScriptData again = compiled(source, o);
  EXPECT_EQ(again.bytecode, old.bytecode);
  EXPECT_EQ(again.refs, old.refs);
  // Without the old script, first use decides: entry 1 for player.
  EXPECT_NE(compiled(source).bytecode, old.bytecode);
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
