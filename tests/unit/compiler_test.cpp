// The script compiler on small sources: the editor's reference-list rules, the OBSE setups it
// can match (early builds, plugin builds), and names resolved through masters beside a plugin.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_support.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/script/command_table.hpp"
#include "tesmod/script/compiler.hpp"
#include "tesmod/script/decompiler.hpp"
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

TEST(Compiler, RecompilingKeepsThePreviousVariableList) {
  // Variables the previous compile held keep their indices and their SLSD places even when the
  // source declares them in another order; new ones follow in declaration order.
  const ScriptData first = compiled("scn t\nshort a\nfloat b\nBegin GameMode\nset a to b\nEnd\n");
  CompileOptions o;
  o.previous = &first;
  const ScriptData again = compiled("scn t\nshort c\nfloat b\nshort a\nBegin GameMode\nset a to b + c\nEnd\n", o);
  ASSERT_EQ(again.variables.size(), 3u);
  EXPECT_EQ(again.variables[0].name, "a");
  EXPECT_EQ(again.variables[0].index, 1u);
  EXPECT_EQ(again.variables[1].name, "b");
  EXPECT_EQ(again.variables[1].index, 2u);
  EXPECT_EQ(again.variables[2].name, "c");
  EXPECT_EQ(again.variables[2].index, 3u);
  // A new script takes the declaration order.
  const ScriptData fresh = compiled("scn t\nshort c\nfloat b\nshort a\nBegin GameMode\nEnd\n");
  EXPECT_EQ(fresh.variables[0].name, "c");
  EXPECT_EQ(fresh.variables[0].index, 1u);
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

TEST(Compiler, AlternateBuildsShadowTheDefaultOwnersOfTheirOpcodes) {
  // OOArena's OblivionOnline build registers other commands at 0x2000-0x2015, opcodes the
  // 0x2000 build with MPLogModOffset claims first: it is used only when chosen.
  const std::string arena = find_obse_plugin_build("ooarena");
  EXPECT_NE(arena.find("OOArena 2007-09-03"), std::string::npos);
  EXPECT_THROW(find_obse_plugin_build("OblivionOnline"), std::invalid_argument);  // three builds
  EXPECT_THROW(find_obse_plugin_build("NoSuchPlugin"), std::invalid_argument);
  const std::vector<std::string> builds{arena};
  EXPECT_EQ(find_command(std::uint16_t{0x2013})->name, "MPTotalPlayers");
  EXPECT_EQ(find_command(std::uint16_t{0x2013}, builds)->name, "MPGetSpawnedRef");
  EXPECT_EQ(find_command("MPSendPos"), nullptr);
  EXPECT_EQ(find_command("MPSendPos", builds)->opcode, 0x2001);
  EXPECT_EQ(find_command("MPGetStat", builds)->opcode, 0x2012);  // 0x200F in the default build

  const std::string source = "scn t\nref r\nBegin GameMode\nplayer.MPSendPos\nset r to MPGetSpawnedRef 0\nEnd\n";
  try {
    compiled(source);
    ADD_FAILURE() << "compiled without the build";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.message()).find(arena), std::string::npos) << e.message();
  }
  // The source names the build (MPSendPos is its own), the bytes alone could not.
  EXPECT_EQ(alternate_builds_named_in(source), builds);
  EXPECT_TRUE(alternate_builds_named_in("scn t\nBegin GameMode\nMPConnect\nEnd\n").empty());
  CompileOptions o;
  o.obse_plugins = builds;
  const ScriptData s = compiled(source, o);
  EXPECT_TRUE(contains(s.bytecode, {0x01, 0x20, 0x00, 0x00}));  // MPSendPos, no arguments
  EXPECT_TRUE(contains(s.bytecode, {0x13, 0x20}));
  DecompileOptions d;
  d.obse_plugins = builds;
  const std::string text = decompile(s, d);
  EXPECT_NE(text.find("player.MPSendPos"), std::string::npos) << text;
  EXPECT_NE(text.find("MPGetSpawnedRef 0"), std::string::npos) << text;
  // Read with the default table the same bytes are other commands (0x2013 takes no arguments).
  EXPECT_THROW(decompile(s, {}), Error);
}

TEST(Compiler, DecompiledPluginCommandsReadBackAsTheSameOpcode) {
  // Every argument-less command of every OBSE plugin build, written as the decompiler names it,
  // compiles back to its own opcode with that build chosen.
  std::size_t checked = 0;
  for (const std::string& build : obse_plugin_builds()) {
    const std::vector<std::string> builds{build};
    for (std::uint32_t op = 0x2000; op < 0x3000; ++op) {
      const CommandInfo* c = find_command(static_cast<std::uint16_t>(op), builds);
      if (!c || c->plugin != build || c->param_count != 0 || c->parse != ParseStyle::Default) continue;
      const std::string_view name = find_command(c->name, builds) == c ? c->name : c->short_name;
      if (find_command(name, builds) != c) continue;  // not reachable by any name of its build
      CompileOptions o;
      o.obse_plugins = builds;
      const ScriptData s = compiled("scn t\nBegin GameMode\n" + std::string(name) + "\nEnd\n", o);
      DecompileOptions d;
      d.obse_plugins = builds;
      EXPECT_EQ(compiled(decompile(s, d), o).bytecode, s.bytecode) << build << " " << c->name;
      ++checked;
    }
  }
  EXPECT_GT(checked, 50u);
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
  const MasterFacts facts = learn_master_facts(stored, CompileOptions{}, 1);
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
  EXPECT_FALSE(learn_master_facts(stale, CompileOptions{}, 1).problem.empty());
}

// ---------------------------------------------------------------------------------------------
// Found while fuzzing the compiler (fuzz/script_compile_fuzzer.cpp)

namespace {

CompileOptions result_script() {
  CompileOptions o;
  o.result_script = true;
  return o;
}

std::string compile_error(std::string_view source) {
  try {
    compiled(source);
  } catch (const CompileError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST(Compiler, ScriptNameOnlyAtTheStart) {
  // A ScriptName after code compiled to bytes the decompiler rejects ("ScriptName after the
  // start of the script").
  EXPECT_NE(compile_error("scn a\nBegin GameMode\nscn b\nEnd\n").find("line 3"), std::string::npos);
  EXPECT_NE(compile_error("scn a\nscn b\n").find("line 2"), std::string::npos);
  // Declarations write no code: a ScriptName after them is still the first statement.
  EXPECT_EQ(compiled("short x\nscn a\nBegin GameMode\nEnd\n").bytecode, compiled("scn a\nshort x\nBegin GameMode\nEnd\n").bytecode);
}

TEST(Compiler, NumbersPastTheirTypeAreHeldToItsRange) {
  // Float-to-integer casts of numbers out of range were undefined (UBSan in the fuzz build).
  // AddItem's count is an int32: 'n' and its bytes.
  EXPECT_TRUE(contains(compiled("AddItem @00001234 99999999999", result_script()).bytecode, {'n', 0xFF, 0xFF, 0xFF, 0x7F}));
  EXPECT_TRUE(contains(compiled("AddItem @00001234 -99999999999", result_script()).bytecode, {'n', 0x00, 0x00, 0x00, 0x80}));
  EXPECT_TRUE(contains(compiled("AddItem @00001234 -7", result_script()).bytecode, {'n', 0xF9, 0xFF, 0xFF, 0xFF}));
  // A crime type is a u16: -1 is FFFF as before, larger numbers keep their low bits.
  const std::vector<std::uint8_t> crime = compiled("if GetCrimeKnown -1 @00001234 @00001235\nendif", result_script()).bytecode;
  EXPECT_TRUE(contains(crime, {0x03, 0x00, 0xFF, 0xFF}));  // argument count 3, then the crime type
  // Message's seconds are a u32.
  EXPECT_TRUE(contains(compiled("Message \"x\" 99999999999", result_script()).bytecode, {0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF}));
}

TEST(Compiler, StatementsLongerThanTheirLengthFieldAreErrors) {
  // Lengths are u16: a 70000-byte MessageBox text wrapped around into bytes that did not decompile.
  const std::string text(70000, 'x');
  EXPECT_NE(compile_error("scn a\nBegin GameMode\nMessageBox \"" + text + "\"\nEnd\n").find("line 3"), std::string::npos);
  EXPECT_NE(compile_error("scn a\nstring_var s\nBegin GameMode\nlet s := \"" + text + "\"\nEnd\n").find("at most 65535"),
            std::string::npos);
  // The longest that fits still compiles, and decompiles.
  const std::string fits(65535 - 2 - 2 - 2 - 2, 'x');  // count, text length, variable count, button count
  const ScriptData s = compiled("scn a\nBegin GameMode\nMessageBox \"" + fits + "\"\nEnd\n");
  EXPECT_NO_THROW(decompile(s, {}));
}

TEST(Compiler, FunctionHeaderCountsAreBytes) {
  // Begin Function {...}: parameter and array-variable counts are u8 and wrapped past 255.
  std::string params, arrays;
  for (int i = 0; i < 256; ++i) {
    params += "float f" + std::to_string(i) + "\n";
    arrays += "array_var a" + std::to_string(i) + "\n";
  }
  std::string list;
  for (int i = 0; i < 256; ++i) list += (i ? ", f" : "f") + std::to_string(i);
  EXPECT_NE(compile_error("scn a\n" + params + "Begin Function {" + list + "}\nEnd\n").find("255 function parameters"),
            std::string::npos);
  EXPECT_NE(compile_error("scn a\n" + arrays + "Begin Function {}\nEnd\n").find("255 array variables"), std::string::npos);
  // 255 of each fit.
  list.erase(list.rfind(", "));
  arrays.erase(arrays.rfind("array_var"));
  EXPECT_NO_THROW(decompile(compiled("scn a\n" + params + arrays + "Begin Function {" + list + "}\nEnd\n"), {}));
}

TEST(Compiler, LetAndLoopsNeedAnExpression) {
  // `let` alone (or `let ,`) compiled to an empty argument list, which the decompiler rejects
  // ("let with other than one expression"). Found by script_compile_fuzzer.
  EXPECT_NE(compile_error("scn a\nshort x\nBegin GameMode\nlet\nEnd\n").find("line 4"), std::string::npos);
  EXPECT_NE(compile_error("scn a\nshort x\nBegin GameMode\nlet ,\nEnd\n").find("without an expression"), std::string::npos);
  EXPECT_NE(compile_error("scn a\nBegin GameMode\nwhile\nloop\nEnd\n").find("without an expression"), std::string::npos);
  EXPECT_NO_THROW(decompile(compiled("scn a\nshort x\nBegin GameMode\nlet x := 1\nwhile x\nloop\nEnd\n"), {}));
}

TEST(Compiler, StatementCommandsAreNoValuesInVanillaExpressions) {
  // `if x + let y := 1` compiled let as a call whose expression had to end the line; its
  // decompiled text `x + (let (y := 1))` did not compile. Found by script_compile_fuzzer.
  EXPECT_NE(compile_error("scn a\nshort x\nshort y\nBegin GameMode\nif x + let y := 1\nendif\nEnd\n").find("not a value"),
            std::string::npos);
  EXPECT_NE(compile_error("scn a\nshort x\nBegin GameMode\nset x to loop\nEnd\n").find("not a value"), std::string::npos);
  EXPECT_NE(compile_error("scn a\nshort x\nBegin GameMode\nset x to player.while x\nEnd\n").find("not a value"),
            std::string::npos);
}
