// The decompiler on compiled scripts built byte by byte (layouts from the UESP SCPT page and the
// OBSE encoding notes).
#include <gtest/gtest.h>

#include <map>

#include "tesmod/io/ascii.hpp"
#include "tesmod/script/command_table.hpp"
#include "tesmod/script/compiler.hpp"
#include "tesmod/script/decompiler.hpp"

using namespace tesmod;
using namespace tesmod::script;

namespace {

// A few named forms, none with a script.
class FakeNames : public NameSource {
 public:
  explicit FakeNames(std::map<std::uint32_t, std::string> names) : names_(std::move(names)) {}
  std::optional<FormInfo> find(std::string_view editor_id) const override {
    for (const auto& [id, name] : names_)
      if (ascii::iequals(name, editor_id)) return form(id);
    return std::nullopt;
  }
  std::optional<FormInfo> form(std::uint32_t id) const override {
    if (!names_.count(id)) return std::nullopt;
    return FormInfo{id, Signature("NPC_"), Signature(), 0};
  }
  std::optional<std::string> editor_id(std::uint32_t id) const override {
    auto it = names_.find(id);
    if (it == names_.end()) return std::nullopt;
    return it->second;
  }
  const ScriptData* script(std::uint32_t) const override { return nullptr; }

 private:
  std::map<std::uint32_t, std::string> names_;
};

ScriptData script_of(std::vector<std::uint8_t> code) {
  ScriptData s;
  s.header.compiled_size = static_cast<std::uint32_t>(code.size());
  s.bytecode = std::move(code);
  return s;
}

}  // namespace

TEST(Decompiler, EmptyScriptIsItsName) {
  // "Note that an empty script (with just a "scriptname ...") has a 4-byte SCDA of 1D 00 00 00."
  DecompileOptions o;
  o.script_name = "MyScript";
  EXPECT_EQ(decompile(script_of({0x1D, 0x00, 0x00, 0x00}), o), "ScriptName MyScript\n");
}

TEST(Decompiler, BlockWithSetIfAndMessage) {
  // scn Greeting / short count / begin GameMode / set count to count + 1 / if count > 5 /
  // MessageBox "Hello" / endif / end
  ScriptData s = script_of({
      0x1D, 0x00, 0x00, 0x00,                                      // ScriptName
      0x10, 0x00, 0x06, 0x00, 0x00, 0x00, 58, 0x00, 0x00, 0x00,    // Begin GameMode, 58 bytes to follow
      0x15, 0x00, 0x0D, 0x00, 0x73, 0x01, 0x00, 0x08, 0x00,        // set count to
      0x20, 0x73, 0x01, 0x00, 0x20, '1', 0x20, '+',                //   count 1 +
      0x16, 0x00, 0x0C, 0x00, 0x01, 0x00, 0x08, 0x00,              // if (jump 1)
      0x20, 0x73, 0x01, 0x00, 0x20, '5', 0x20, '>',                //   count 5 >
      0x00, 0x10, 0x0D, 0x00, 0x01, 0x00, 0x05, 0x00, 'H', 'e', 'l', 'l', 'o', 0x00, 0x00, 0x00, 0x00,  // MessageBox
      0x19, 0x00, 0x00, 0x00,                                      // endif
      0x11, 0x00, 0x00, 0x00,                                      // end
  });
  s.variables.push_back(LocalVariable::make(1, true, "count"));
  s.header.variable_count = 1;
  DecompileOptions o;
  o.script_name = "Greeting";
  std::string text = decompile(s, o);
  while (text.ends_with("\n\n")) text.pop_back();  // blank lines between blocks are layout
  EXPECT_EQ(text,
            "ScriptName Greeting\n"
            "\n"
            "short count\n"
            "\n"
            "Begin GameMode\n"
            "  Set count to count + 1\n"
            "  If count > 5\n"
            "    MessageBox \"Hello\"\n"
            "  EndIf\n"
            "End\n");
}

TEST(Decompiler, CallingReferenceAndFormArguments) {
  // "MyNPCRef. ModDisposition Player 60" from the UESP page: 1C 00 01 00 53 10 0A 00 02 00 72 02 00 6E 3C 00 00 00
  ScriptData s = script_of({0x1C, 0x00, 0x01, 0x00, 0x53, 0x10, 0x0A, 0x00, 0x02, 0x00, 0x72, 0x02, 0x00, 0x6E, 0x3C,
                            0x00, 0x00, 0x00});
  s.refs = {{ScriptRef::Kind::Object, 0x0001ABCD}, {ScriptRef::Kind::Object, 0x14}};
  FakeNames names({{0x0001ABCD, "MyNPCRef"}});
  DecompileOptions o;
  o.names = &names;
  const std::string text = decompile(s, o);
  EXPECT_NE(text.find("MyNPCRef.ModDisposition player 60\n"), std::string::npos) << text;
  // Without names the FormID is written so that it reads back.
  o.names = nullptr;
  EXPECT_NE(decompile(s, o).find("@0001ABCD.ModDisposition player 60\n"), std::string::npos);
}

TEST(Decompiler, ObseLetWithCompoundAssignment) {
  // `let booksToUpdate -= 1` (lBookwormQuestScript): 65 17 0c 00 01 0b 00 56 01 00 00 23 00 42 01 20
  ScriptData s = script_of({0x65, 0x17, 0x0C, 0x00, 0x01, 0x0B, 0x00, 0x56, 0x01, 0x00, 0x00, 0x23, 0x00, 0x42, 0x01,
                            0x20});
  s.variables.push_back(LocalVariable::make(0x23, true, "booksToUpdate"));
  const std::string text = decompile(s, {});
  EXPECT_NE(text.find("booksToUpdate -= 1\n"), std::string::npos) << text;
  EXPECT_NE(ascii::to_lower(text).find("let bookstoupdate"), std::string::npos) << text;
}

TEST(Decompiler, BadBytecodeIsAnErrorNamingTheByte) {
  DecompileOptions o;
  o.where = ErrorContext{"Test.esp", Error::kNoOffset, RecordRef{Signature("SCPT"), 0x800, "Broken"}};
  // An opcode no table knows.
  EXPECT_THROW(decompile(script_of({0xFF, 0x7F, 0x00, 0x00}), o), Error);
  // A statement running past the end.
  EXPECT_THROW(decompile(script_of({0x1D, 0x00, 0x00, 0x00, 0x15, 0x00, 0x40, 0x00}), o), Error);
  // A local that is not declared.
  try {
    decompile(script_of({0x15, 0x00, 0x07, 0x00, 0x73, 0x02, 0x00, 0x02, 0x00, 0x20, '1'}), o);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Broken"), std::string::npos) << e.what();
  }
}

namespace {

// Compiles source, decompiles the result and compiles that again: the two compiles must agree.
// The decompiled text compiles without the editor's leniency (CompileOptions::unquoted_strings).
std::string round_trip(const std::string& source, const NameSource* names = nullptr) {
  CompileOptions co;
  co.names = names;
  CompileOptions as_editor = co;
  as_editor.unquoted_strings = true;
  const ScriptData first = compile(source, as_editor).script;
  DecompileOptions d;
  d.names = names;
  d.script_name = "t";
  const std::string text = decompile(first, d);
  const ScriptData second = compile(text, co).script;
  EXPECT_EQ(second.bytecode, first.bytecode) << text;
  EXPECT_EQ(second.refs, first.refs) << text;
  return text;
}

}  // namespace

TEST(Decompiler, NumbersComeBackWithoutExponents) {
  // Script tokenizers read no exponent: 1e-11 would come back as other tokens.
  const std::string text = round_trip("scn t\nfloat f\nBegin GameMode\nLet f := 0.00000000001\nLet f := 100000000000000000000\nEnd\n");
  EXPECT_NE(text.find("0.00000000001"), std::string::npos) << text;
  EXPECT_NE(text.find("100000000000000000000.0"), std::string::npos) << text;
  EXPECT_EQ(text.find("e-"), std::string::npos) << text;
}

TEST(Decompiler, PlayerAndPlayerRefKeepTheirOwnEntries) {
  // Vanilla code gives `player` and `PlayerRef` separate reference-list entries.
  const std::string text = round_trip(
      "scn t\nBegin GameMode\nif player.GetDead == 0\nendif\nif PlayerRef.GetDead == 0\nendif\nEnd\n");
  EXPECT_NE(text.find("player.GetDead"), std::string::npos) << text;
  EXPECT_NE(text.find("PlayerRef.GetDead"), std::string::npos) << text;
  // OBSE names a command's calling reference PlayerRef whichever it writes; vanilla code that
  // shares its entry must say PlayerRef too.
  const std::string shared =
      round_trip("scn t\nshort d\nBegin GameMode\nLet d := player.GetDead\nif PlayerRef.GetDead == 0\nendif\nEnd\n");
  EXPECT_NE(shared.find("If PlayerRef.GetDead"), std::string::npos) << shared;
  // A bare `player` in OBSE code is keyed as written: after vanilla `player` it shares its entry;
  // first, it is the Player base form, written by FormID.
  const std::string after =
      round_trip("scn t\nref r\nBegin GameMode\nif player.GetDead == 0\nendif\nLet r := player\nEnd\n");
  EXPECT_NE(after.find("Let r := player\n"), std::string::npos) << after;
  const std::string bare =
      round_trip("scn t\nref r\nBegin GameMode\nLet r := player\nif player.GetDead == 0\nendif\nEnd\n");
  EXPECT_NE(bare.find("Let r := @00000007\n"), std::string::npos) << bare;
  EXPECT_NE(bare.find("If player.GetDead"), std::string::npos) << bare;
  // An entry for the reference first met as a bare OBSE operand is not named `player` (which
  // would compile to the base form there).
  const std::string first_bare =
      round_trip("scn t\nref r\nBegin GameMode\nLet r := PlayerRef\nif PlayerRef.GetDead == 0\nendif\nEnd\n");
  EXPECT_NE(first_bare.find("Let r := PlayerRef\n"), std::string::npos) << first_bare;
}

TEST(Decompiler, BoxedArgumentsAreParenthesized) {
  // `&x` after another argument would read as a binary `&`.
  const std::string text = round_trip("scn t\narray_var a\nshort x\nBegin GameMode\nar_Insert a 0 ( &x )\nEnd\n");
  EXPECT_NE(text.find("(&x)"), std::string::npos) << text;
}

// ---------------------------------------------------------------------------------------------
// Found by fuzz/script_decompile_fuzzer.cpp and fuzz/script_compile_fuzzer.cpp

namespace {

std::vector<std::uint8_t> le16(std::uint16_t v) { return {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8)}; }

// A statement: opcode, u16 length, data.
std::vector<std::uint8_t> statement(std::uint16_t opcode, std::vector<std::uint8_t> data) {
  std::vector<std::uint8_t> out = le16(opcode);
  const auto len = le16(static_cast<std::uint16_t>(data.size()));
  out.insert(out.end(), len.begin(), len.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::uint16_t opcode_of(std::string_view name) {
  const CommandInfo* c = find_command(name);
  EXPECT_NE(c, nullptr) << name;
  return c ? c->opcode : 0;
}

// The error decompile() raises, or an empty string when it returns text.
std::string decompile_error(const ScriptData& s) {
  DecompileOptions o;
  o.bytecode_offset = 0x100;
  try {
    decompile(s, o);
  } catch (const Error& e) {
    EXPECT_GE(e.offset(), 0x100u) << e.what();
    EXPECT_LE(e.offset(), 0x100u + s.bytecode.size()) << e.what();
    return e.what();
  }
  return {};
}

}  // namespace

TEST(Decompiler, StrayEndIfStaysAtTheLeftMargin) {
  // The editor lets a stray EndIf through; its indent went below zero and the line's padding
  // came out as a length_error instead of text.
  // (The body follows a blank line, as after declarations.)
  EXPECT_EQ(decompile(script_of({0x19, 0x00, 0x00, 0x00}), {}), "\nEndIf\n");
  EXPECT_EQ(decompile(script_of({0x19, 0x00, 0x00, 0x00, 0x19, 0x00, 0x00, 0x00, 0x1E, 0x00, 0x00, 0x00}), {}),
            "\nEndIf\nEndIf\nReturn\n");
}

TEST(Decompiler, FloatArgumentsThatNoTextGivesAreErrorsAndInfinityIsANumber) {
  // SetScale <float>: 'z' and 8 bytes. NaN used to come out as `nan` (a word) or `-nan`.
  const auto with_double = [&](std::uint64_t bits) {
    std::vector<std::uint8_t> data = {0x01, 0x00, 'z'};
    for (int i = 0; i < 8; ++i) data.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
    return script_of(statement(opcode_of("SetScale"), data));
  };
  EXPECT_NE(decompile_error(with_double(0x7FF8000000000000)).find("NaN"), std::string::npos);
  EXPECT_NE(decompile_error(with_double(0xFFF8000000000001)).find("NaN"), std::string::npos);
  // Infinity reads back from a number past the largest double.
  for (std::uint64_t inf : {std::uint64_t{0x7FF0000000000000}, std::uint64_t{0xFFF0000000000000}}) {
    const ScriptData s = with_double(inf);
    const std::string text = decompile(s, {});
    EXPECT_EQ(text.find("inf"), std::string::npos) << text;
    CompileOptions co;
    co.result_script = true;
    EXPECT_EQ(compile(text, co).script.bytecode, s.bytecode) << text;
  }
}

TEST(Decompiler, ArgumentTagsThatNoSourceWritesAreErrors) {
  // AddItem <item> <count>: the item is a reference ('r'). An integer ('n') there came out as a
  // number, which the compiler reads as a FormID: `AddItem 5 1` names form 00000005.
  const std::uint16_t add_item = opcode_of("AddItem");
  EXPECT_NE(decompile_error(script_of(statement(add_item, {0x02, 0x00, 'n', 5, 0, 0, 0, 'n', 1, 0, 0, 0}))).find("does not fit"),
            std::string::npos);
  // A double for the integer count, and an integer for SetScale's float.
  ScriptData s = script_of(statement(add_item, {0x02, 0x00, 'r', 0x01, 0x00, 'z', 0, 0, 0, 0, 0, 0, 0xF0, 0x3F}));
  s.refs = {{ScriptRef::Kind::Object, 0x1234}};
  EXPECT_NE(decompile_error(s).find("does not fit"), std::string::npos);
  EXPECT_NE(decompile_error(script_of(statement(opcode_of("SetScale"), {0x01, 0x00, 'n', 1, 0, 0, 0}))).find("does not fit"),
            std::string::npos);
  // What the compiler writes still decompiles.
  s = script_of(statement(add_item, {0x02, 0x00, 'r', 0x01, 0x00, 'n', 3, 0, 0, 0}));
  s.refs = {{ScriptRef::Kind::Object, 0x1234}};
  EXPECT_EQ(decompile(s, {}), "\nAddItem @00001234 3\n");
}

TEST(Decompiler, NumberTokensThatReadBackAsOtherTokensAreErrors) {
  // Set x to 2; : vanilla expressions keep a number's text, and `2;` would read back as 2 and a
  // comment.
  const auto set_to = [&](std::string_view number) {
    std::vector<std::uint8_t> expr = {0x20};
    expr.insert(expr.end(), number.begin(), number.end());
    std::vector<std::uint8_t> data = {'s', 0x01, 0x00};
    const auto n = le16(static_cast<std::uint16_t>(expr.size()));
    data.insert(data.end(), n.begin(), n.end());
    data.insert(data.end(), expr.begin(), expr.end());
    ScriptData s = script_of(statement(0x15, data));
    s.variables.push_back(LocalVariable::make(1, true, "x"));
    return s;
  };
  for (std::string_view bad : {"2;", "1.2.3", "7a", "."})
    EXPECT_NE(decompile_error(set_to(bad)).find("number token"), std::string::npos) << bad;
  for (std::string_view good : {"2", "1.5", "1.", ".5", "007"})
    EXPECT_NE(decompile(set_to(good), {}).find(std::string("Set x to ") + std::string(good) + "\n"), std::string::npos) << good;
}

TEST(Decompiler, ObseVariableOwnerIsNamedLikeACallingReference) {
  // The compiler keys `player.var` in OBSE code as PlayerRef (like a command's calling
  // reference), apart from vanilla `player`: the two entries must come back under names that
  // keep them apart.
  const std::string text =
      round_trip("scn t\nshort d\nBegin GameMode\nLet d := player.@s1\nif player.GetDead == 0\nendif\nEnd\n");
  EXPECT_NE(text.find("Let d := PlayerRef.@s1"), std::string::npos) << text;
  EXPECT_NE(text.find("If player.GetDead"), std::string::npos) << text;
}

TEST(Decompiler, MemberNamesThatAreNoBareWordStayQuoted) {
  // `a->"b c"`: the compiler takes a quoted member; written bare, `a->b c` and `a->` do not
  // compile.
  const std::string text = round_trip(
      "scn t\narray_var a\nstring_var s\nBegin GameMode\nLet s := a->\"b c\"\nLet s := a->\"\"\n"
      "Let s := a->\"x\\y.nif\"\nLet s := a->\"12\"\nLet s := a->key\nEnd\n");
  EXPECT_NE(text.find("a->\"b c\""), std::string::npos) << text;
  EXPECT_NE(text.find("a->\"\""), std::string::npos) << text;
  EXPECT_NE(text.find("a->\"x\\y.nif\""), std::string::npos) << text;
  EXPECT_NE(text.find("a->\"12\""), std::string::npos) << text;
  EXPECT_NE(text.find("a->key"), std::string::npos) << text;
}

TEST(Decompiler, MoreObseArgumentsThanTheCommandTakesAreAnError) {
  // sv_ToLower takes one argument; the compiler reads at most that many and leaves the rest of
  // the line, so `sv_ToLower "a" "b"` compiled to one argument.
  const std::vector<std::uint8_t> a = {0x06, 0x00, 'S', 0x01, 0x00, 'a'}, b = {0x06, 0x00, 'S', 0x01, 0x00, 'b'};
  std::vector<std::uint8_t> one = {0x01};
  one.insert(one.end(), a.begin(), a.end());
  EXPECT_EQ(decompile(script_of(statement(opcode_of("sv_ToLower"), one)), {}), "\nsv_ToLower \"a\"\n");
  std::vector<std::uint8_t> two = {0x02};
  two.insert(two.end(), a.begin(), a.end());
  two.insert(two.end(), b.begin(), b.end());
  EXPECT_NE(decompile_error(script_of(statement(opcode_of("sv_ToLower"), two))).find("at most 1"), std::string::npos);
}

TEST(Decompiler, MessageVariableOfAnotherScriptIsShortOrFloat) {
  // Message "%.0f", ref.var: the variable's kind byte came out as written (`@00001234.@?5`),
  // which does not compile; only 's' and 'f' do.
  const auto message = [&](std::uint8_t kind) {
    ScriptData s = script_of(statement(opcode_of("Message"), {0x01, 0x00, 0x04, 0x00, '%', '.', '0', 'f', 0x01, 0x00, 'r', 0x01,
                                                               0x00, kind, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00}));
    s.refs = {{ScriptRef::Kind::Object, 0x1234}};
    return s;
  };
  EXPECT_EQ(decompile(message('f'), {}), "\nMessage \"%.0f\", @00001234.@f5\n");
  EXPECT_NE(decompile_error(message(0xF3)).find("message variable"), std::string::npos);
}

TEST(Decompiler, RefVariableOfAScriptWithoutBlocksIsDeclaredRef) {
  // A result script has no Begin, so its ref variables get no SCRV entry; OBSE code still names
  // the type (V token 4), and `float r` compiled to type 0 there.
  CompileOptions co;
  co.result_script = true;
  const ScriptData first = compile("ref r\nLet r := PlayerRef\n", co).script;
  ASSERT_EQ(first.refs, (std::vector<ScriptRef>{{ScriptRef::Kind::Object, kPlayerRef}}));
  const std::string text = decompile(first, {});
  EXPECT_NE(text.find("ref r\n"), std::string::npos) << text;
  EXPECT_EQ(compile(text, co).script.bytecode, first.bytecode) << text;
}

TEST(Decompiler, ObseCallsInVanillaExpressionsAreParenthesized) {
  // `if eval (x) -1 && y`: eval's OBSE argument stops at `-1` (a new argument), and the vanilla
  // expression goes on with `- 1 && y`. Written `eval x - 1 && y`, the OBSE argument took it all.
  // Found by script_compile_fuzzer.
  const std::string text = round_trip("scn t\nshort x\nshort y\nBegin GameMode\nif eval (x) -1 && y\nendif\n"
                                      "if 2 * (eval x + 1)\nendif\nif -(eval x)\nendif\nif eval x\nendif\nEnd\n");
  EXPECT_NE(text.find("If (eval x) - 1 && y\n"), std::string::npos) << text;
  EXPECT_NE(text.find("If 2 * (eval (x + 1))\n"), std::string::npos) << text;
  EXPECT_NE(text.find("If -(eval x)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("If eval x\n"), std::string::npos) << text;
  // Vanilla arguments end at the operator: no parentheses.
  EXPECT_NE(round_trip("scn t\nBegin GameMode\nif GetStage @00001234 == 5\nendif\nEnd\n").find("If GetStage @00001234 == 5\n"),
            std::string::npos);
}

TEST(Decompiler, CompoundCallFunctionTokenReadsBack) {
  // Call's function token may be a call with arguments; the decompiler writes it in
  // parentheses so that its arguments stay apart from the function's, and the compiler did not
  // read `Call (...)`. Found by script_compile_fuzzer.
  const std::string text = round_trip("scn t\nref r\nBegin GameMode\nCall r.GetItemCount @00001234 1\nEnd\n");
  EXPECT_NE(text.find("Call (r.GetItemCount @00001234) 1\n"), std::string::npos) << text;
  EXPECT_EQ(round_trip(text), text);
}

TEST(Decompiler, ObseCallWithoutItsOptionalArgumentsIsParenthesized) {
  // `ar_Map 4::(GetBipedIconPath) 5::x`: written bare, GetBipedIconPath took the next
  // argument's 5 as its own. Found by script_compile_fuzzer.
  const std::string text = round_trip(
      "scn t\narray_var a\nshort x\nBegin GameMode\nLet a := ar_Map 4::(GetBipedIconPath) 5::x\n"
      "Let x := GetSelf\nEnd\n");
  EXPECT_NE(text.find("4::(GetBipedIconPath) 5::x"), std::string::npos) << text;
  EXPECT_NE(text.find("Let x := GetSelf\n"), std::string::npos) << text;  // takes no arguments
}

TEST(Decompiler, ThirdEntryOfThePlayerIsItsFormIdEscape) {
  // `player`, `PlayerRef` and `@00000014` are three entries for the player; with two names, the
  // third came back as one of them and two entries compiled into one. Found by
  // script_compile_fuzzer.
  const std::string text = round_trip(
      "scn t\nshort d\nBegin GameMode\nplayer.AddItem @00001234 1\nplayer.EquipItem @00000014\n"
      "player.AddItem PlayerRef 1\nEnd\n");
  // Names go to the entries in list order: player, PlayerRef, then the escape.
  EXPECT_NE(text.find("player.EquipItem PlayerRef\n  player.AddItem @00000014 1\n"), std::string::npos) << text;
  // Two calling references of OBSE code: PlayerRef and the escape key them apart.
  round_trip("scn t\nshort d\nBegin GameMode\nif player.GetDead\nendif\nLet d := player.GetDead\n"
             "Let d := @00000014.GetDead\nEnd\n");
}

TEST(Decompiler, MemberAccessTakesOnlyAString) {
  // `a->b`: the compiler writes b as a string; a form there came out bare (`a->@00001234`),
  // which reads back as the string "@00001234". Found by script_decompile_fuzzer.
  // Let a := a->x, with the member token S "x" replaced by a form R 01 00.
  const auto let_member = [&](std::vector<std::uint8_t> member) {
    std::vector<std::uint8_t> expr = {'V', 0x03, 0x00, 0x00, 0x01, 0x00, 'V', 0x03, 0x00, 0x00, 0x01, 0x00};
    expr.insert(expr.end(), member.begin(), member.end());
    expr.insert(expr.end(), {0x23, 0x00});  // ->, :=
    std::vector<std::uint8_t> data = {0x01};
    const auto n = le16(static_cast<std::uint16_t>(expr.size() + 2));
    data.insert(data.end(), n.begin(), n.end());
    data.insert(data.end(), expr.begin(), expr.end());
    ScriptData s = script_of(statement(opcode_of("Let"), data));
    s.variables.push_back(LocalVariable::make(1, false, "a"));
    s.refs = {{ScriptRef::Kind::Object, 0x1234}};
    return s;
  };
  EXPECT_NE(decompile(let_member({'S', 0x01, 0x00, 'x'}), {}).find("Let a := a->x\n"), std::string::npos);
  EXPECT_NE(decompile_error(let_member({'R', 0x01, 0x00})).find("'->' takes a string"), std::string::npos);
}

TEST(Decompiler, AFormIdEscapeBeforeAPairIsAForm) {
  // `@0100237A::1`: a bare word before `::` is a pair key (a string) unless it names something;
  // a FormID escape names a form, so it must stay one. It read back as the string "@0100237A"
  // and decompiled quoted. Found by script_decompile_fuzzer.
  const std::string text =
      round_trip("scn t\narray_var a\nBegin GameMode\nLet a := ar_Map @0100237A::1 key::2\nEnd\n");
  EXPECT_NE(text.find("ar_Map @0100237A::1 \"key\"::2"), std::string::npos) << text;
}
