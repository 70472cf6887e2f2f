// Script syntax that scripts by other authors use and the corpus does not show: locals named
// like type keywords, MessageBox arguments mixing button texts and string variables, OBSE pairs
// as command arguments, and OBSE's documented syntax (arrays, strings, loops, user functions,
// event handlers) through compile -> decompile -> compile.
//
// Expected bytes come from the UESP SCPT page (tes4-scpt-record.txt: statements, vanilla
// arguments, MessageBox) and OBSE's compiler source (xOBSE ScriptUtils.cpp ExpressionParser::
// ParseArgs/ParseSubExpression, ScriptTokens.cpp ScriptToken::Write, the s_operators table).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "tesmod/io/ascii.hpp"
#include "tesmod/script/command_table.hpp"
#include "tesmod/script/compiler.hpp"
#include "tesmod/script/decompiler.hpp"

using namespace tesmod;
using namespace tesmod::script;

namespace {

// Forms by EditorID, none with a script.
class Names : public NameSource {
 public:
  Names() {
    add(0x1000, "MyFunction", Signature("SCPT"));
    add(0x1001, "SomeItem", Signature("MISC"));
    add(0x1002, "SomeRef", Signature("REFR"));
    add(0x1003, "SomeGlobal", Signature("GLOB"));
  }
  std::optional<FormInfo> find(std::string_view editor_id) const override {
    for (const auto& [id, f] : forms_)
      if (ascii::iequals(f.first, editor_id)) return form(id);
    return std::nullopt;
  }
  std::optional<FormInfo> form(std::uint32_t id) const override {
    auto it = forms_.find(id);
    if (it == forms_.end()) return std::nullopt;
    return FormInfo{id, it->second.second, Signature(), 0};
  }
  std::optional<std::string> editor_id(std::uint32_t id) const override {
    auto it = forms_.find(id);
    if (it == forms_.end()) return std::nullopt;
    return it->second.first;
  }
  const ScriptData* script(std::uint32_t) const override { return nullptr; }

 private:
  void add(std::uint32_t id, std::string name, Signature type) { forms_[id] = {std::move(name), type}; }
  std::map<std::uint32_t, std::pair<std::string, Signature>> forms_;
};

const Names kNames;

ScriptData compiled(const std::string& source) {
  CompileOptions o;
  o.names = &kNames;
  return compile(source, o).script;
}

// As the editor compiles it: a bare word nothing resolves in OBSE code is a string.
ScriptData compiled_as_editor(const std::string& source) {
  CompileOptions o;
  o.names = &kNames;
  o.unquoted_strings = true;
  return compile(source, o).script;
}

using Bytes = std::vector<std::uint8_t>;

bool contains(const Bytes& code, const Bytes& part) {
  return std::search(code.begin(), code.end(), part.begin(), part.end()) != code.end();
}

void append(Bytes& b, std::initializer_list<std::uint8_t> more) { b.insert(b.end(), more); }
void append_u16(Bytes& b, std::uint16_t v) { append(b, {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8)}); }
void append_text(Bytes& b, std::string_view s) { b.insert(b.end(), s.begin(), s.end()); }

std::uint16_t opcode(std::string_view name) {
  const CommandInfo* c = find_command(name);
  EXPECT_NE(c, nullptr) << name;
  return c ? c->opcode : 0;
}

// compile(source) -> decompile -> compile again: the same SCDA, SLSD/SCVR and SCRO/SCRV.
// The decompiled text compiles without the editor's leniency (CompileOptions::unquoted_strings).
std::string round_trip(const std::string& source) {
  const ScriptData first = compiled_as_editor(source);
  DecompileOptions d;
  d.names = &kNames;
  d.script_name = "t";
  const std::string text = decompile(first, d);
  ScriptData second;
  try {
    second = compiled(text);
  } catch (const CompileError& e) {
    ADD_FAILURE() << "decompiled text does not compile: " << e.what() << "\n" << text;
    return text;
  }
  EXPECT_EQ(second.bytecode, first.bytecode) << text;
  EXPECT_EQ(second.refs, first.refs) << text;
  EXPECT_EQ(second.variables.size(), first.variables.size()) << text;
  for (std::size_t i = 0; i < std::min(first.variables.size(), second.variables.size()); ++i) {
    EXPECT_EQ(second.variables[i].name, first.variables[i].name) << text;
    EXPECT_EQ(second.variables[i].slsd, first.variables[i].slsd) << text;
  }
  return text;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// a. Locals named like type keywords

TEST(ScriptSyntax, RefVariableNamedRef) {
  const ScriptData s = compiled("scn t\nref ref\nBegin GameMode\nref.AddItem SomeItem 1\nset ref to GetSelf\nEnd\n");
  ASSERT_EQ(s.variables.size(), 1u);
  EXPECT_EQ(s.variables[0].name, "ref");
  EXPECT_FALSE(s.variables[0].is_integer());
  // The ref variable enters the reference list (SCRV), then SomeItem (SCRO).
  ASSERT_EQ(s.refs.size(), 2u);
  EXPECT_EQ(s.refs[0], (ScriptRef{ScriptRef::Kind::Variable, 1}));
  EXPECT_EQ(s.refs[1], (ScriptRef{ScriptRef::Kind::Object, 0x1001}));

  // "[reference]. 1C 00 [Index(2)]", then the call: opcode, length 10, count 2, SomeItem as
  // "72 [Index(2)]", 1 as "6E [Value(4)]".
  Bytes call{0x1C, 0x00, 0x01, 0x00};
  append_u16(call, opcode("AddItem"));
  append(call, {0x0A, 0x00, 0x02, 0x00, 0x72, 0x02, 0x00, 0x6E, 0x01, 0x00, 0x00, 0x00});
  EXPECT_TRUE(contains(s.bytecode, call));
  // set ref to GetSelf: the target as "66 [Index(2)]" (a ref local), the expression " X" + opcode
  // + 00 00 (no parameters).
  Bytes set{0x15, 0x00, 0x0B, 0x00, 0x66, 0x01, 0x00, 0x06, 0x00, 0x20, 0x58};
  append_u16(set, opcode("GetSelf"));
  append(set, {0x00, 0x00});
  EXPECT_TRUE(contains(s.bytecode, set));

  const std::string text = round_trip("scn t\nref ref\nBegin GameMode\nref.AddItem SomeItem 1\nset ref to GetSelf\nEnd\n");
  EXPECT_NE(text.find("ref ref\n"), std::string::npos) << text;
  EXPECT_NE(text.find("ref.AddItem SomeItem 1"), std::string::npos) << text;
}

TEST(ScriptSyntax, EveryTypeKeywordAsAVariableName) {
  const std::string source =
      "scn t\nshort short\nlong long\nint int\nfloat float\nref reference\nstring_var string_var\n"
      "array_var array_var\nBegin GameMode\nset short to short + 1\nset float to long * 2\nlet int := float\n"
      "let reference := GetSelf\nreference.AddItem SomeItem short\nlet string_var := \"x\"\n"
      "let array_var := ar_Construct Array\nMessageBox \"%.0f %.0f\" short int\nif short == long\nendif\nEnd\n";
  const ScriptData s = compiled(source);
  ASSERT_EQ(s.variables.size(), 7u);
  EXPECT_EQ(s.variables[0].name, "short");
  EXPECT_TRUE(s.variables[0].is_integer());
  EXPECT_FALSE(s.variables[3].is_integer());  // float
  // set short to short + 1: " s 01 00", " 1", " +".
  EXPECT_TRUE(contains(s.bytecode, {0x15, 0x00, 0x0D, 0x00, 0x73, 0x01, 0x00, 0x08, 0x00, 0x20, 0x73, 0x01, 0x00, 0x20,
                                    '1', 0x20, '+'}));
  round_trip(source);
}

TEST(ScriptSyntax, KeywordFollowedByADotIsNotADeclaration) {
  // Without a local named `ref`, `ref.AddItem` is an unknown reference, not a declaration.
  try {
    compiled("scn t\nBegin GameMode\nref.AddItem SomeItem 1\nEnd\n");
    FAIL() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.line(), 3u);
    EXPECT_EQ(e.message().find("expected a variable name"), std::string::npos) << e.message();
  }
}

// ---------------------------------------------------------------------------------------------
// b. MessageBox with button texts and string variables

TEST(ScriptSyntax, MessageBoxMixesButtonTextsAndStringVariables) {
  // MessageBox: "01 00" + the text, the variable count and variables, the button count and
  // "01 00" + each button text. `$Icon` is text OBSE reads as the string variable at run time
  // (OBSE v0017: any string argument may name a string_var as $name); a bare string variable is
  // a format argument (%z) and goes into the variable list wherever it stands.
  const ScriptData s = compiled(
      "scn t\nstring_var Icon\nstring_var sv\nBegin GameMode\nMessageBox \"Pick %z\" \"OK\" $Icon sv\nEnd\n");
  Bytes box{0x00, 0x10};
  Bytes args{0x01, 0x00};
  append_u16(args, 7);
  append_text(args, "Pick %z");
  append(args, {0x01, 0x00, 0x73, 0x02, 0x00});  // one variable: sv
  append(args, {0x02, 0x00});                    // two buttons
  append(args, {0x01, 0x00, 0x02, 0x00, 'O', 'K'});
  append(args, {0x01, 0x00, 0x05, 0x00});
  append_text(args, "$Icon");
  append_u16(box, static_cast<std::uint16_t>(args.size()));
  box.insert(box.end(), args.begin(), args.end());
  EXPECT_TRUE(contains(s.bytecode, box));

  // The variable and button lists do not depend on where the variable was written.
  EXPECT_EQ(compiled("scn t\nstring_var Icon\nstring_var sv\nBegin GameMode\nMessageBox \"Pick %z\" sv \"OK\" $Icon\nEnd\n")
                .bytecode,
            s.bytecode);
  round_trip("scn t\nstring_var Icon\nstring_var sv\nBegin GameMode\nMessageBox \"Pick %z\" \"OK\" $Icon sv\nEnd\n");
  round_trip("scn t\nstring_var Msg\nstring_var b\nshort n\nBegin GameMode\n"
             "MessageBox $Msg \"[Cancel]\" $b, n, \"Next\" SomeGlobal\nEnd\n");
}

TEST(ScriptSyntax, MessageBoxButtonThatIsNoVariableIsAnError) {
  try {
    compiled("scn t\nBegin GameMode\nMessageBox \"Pick\" \"OK\" Cancel\nEnd\n");
    FAIL() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.column(), 24u);
    EXPECT_NE(e.message().find("'Cancel' is not a variable"), std::string::npos) << e.message();
  }
}

TEST(ScriptSyntax, MessageBoxExTakesStringVariablesAsFormatArguments) {
  // MessageBoxEX "formatString" var1..var20: buttons sit in the format string after '|'; a
  // string_var is shown by %z and passed like any variable ("73 [Index(2)]").
  const ScriptData s =
      compiled("scn t\nstring_var Icon\nBegin GameMode\nMessageBoxEX \"%z|OK|Cancel\" Icon\nMessageBoxEX $Icon\nEnd\n");
  Bytes ex;
  append_u16(ex, opcode("MessageBoxEX"));
  append(ex, {0x13, 0x00, 0x02, 0x00, 0x0C, 0x00});
  append_text(ex, "%z|OK|Cancel");
  append(ex, {0x73, 0x01, 0x00});
  EXPECT_TRUE(contains(s.bytecode, ex));
  Bytes text{0x01, 0x00, 0x05, 0x00};
  append_text(text, "$Icon");
  EXPECT_TRUE(contains(s.bytecode, text));
  round_trip("scn t\nstring_var Icon\nBegin GameMode\nMessageBoxEX \"%z|OK|Cancel\" Icon\nMessageBoxEX $Icon\nEnd\n");
}

// ---------------------------------------------------------------------------------------------
// c. OBSE pairs as command arguments

TEST(ScriptSyntax, PairArgumentBytes) {
  // A command parsed by OBSE (Cmd_Expression_Parse -> ParseArgs): u8 argument count, then per
  // argument a u16 length that counts itself and the argument's postfix tokens. "OnRelease" is
  // 'S' + u16 length + text; MyFunction, a form, 'R' + u16 reference index; `"ref"::Player` is
  // the key, the value, then the MakePair operator: its index in s_operators, 36 = 0x24.
  // OBSE looks a bare `Player` up by name: with no entry of that name yet, the form whose
  // EditorID it is, the Player base form (NPC_ 00000007), as the editor stored it.
  const ScriptData s = compiled("scn t\nBegin GameMode\nSetEventHandler \"OnRelease\" MyFunction \"ref\"::Player\nEnd\n");
  ASSERT_EQ(s.refs.size(), 2u);
  EXPECT_EQ(s.refs[0], (ScriptRef{ScriptRef::Kind::Object, 0x1000}));
  EXPECT_EQ(s.refs[1], (ScriptRef{ScriptRef::Kind::Object, kPlayerBase}));
  Bytes stmt;
  append_u16(stmt, opcode("SetEventHandler"));
  append(stmt, {0x20, 0x00, 0x03});
  append(stmt, {0x0E, 0x00, 'S', 0x09, 0x00});
  append_text(stmt, "OnRelease");
  append(stmt, {0x05, 0x00, 'R', 0x01, 0x00});
  append(stmt, {0x0C, 0x00, 'S', 0x03, 0x00, 'r', 'e', 'f', 'R', 0x02, 0x00, 0x24});
  EXPECT_TRUE(contains(s.bytecode, stmt));

  // An unquoted key is a string too, as the editor takes an unknown bare word (with a warning);
  // tesmod wants it quoted unless asked to compile like the editor.
  EXPECT_EQ(compiled_as_editor("scn t\nBegin GameMode\nSetEventHandler \"OnRelease\" MyFunction ref::Player\nEnd\n").bytecode,
            s.bytecode);
  EXPECT_THROW(compiled("scn t\nBegin GameMode\nSetEventHandler \"OnRelease\" MyFunction ref::Player\nEnd\n"), CompileError);
  const std::string text = round_trip("scn t\nBegin GameMode\nSetEventHandler \"OnRelease\" MyFunction \"ref\"::Player\nEnd\n");
  // Written back the way OBSE's documentation writes pairs; the base form by FormID, since
  // `Player` compiles to the player's reference wherever an entry of that name exists.
  EXPECT_NE(text.find("SetEventHandler \"OnRelease\" MyFunction \"ref\"::@00000007\n"), std::string::npos) << text;
  // The player's reference, named so.
  const ScriptData ref = compiled("scn t\nBegin GameMode\nSetEventHandler \"OnRelease\" MyFunction \"ref\"::PlayerRef\nEnd\n");
  EXPECT_EQ(ref.refs[1], (ScriptRef{ScriptRef::Kind::Object, kPlayerRef}));
}

TEST(ScriptSyntax, BarePlayerInObseCodeTakesAnEntryOfThatName) {
  // After vanilla `player` made an entry of that name, a bare `player` in OBSE code finds it.
  const ScriptRef var_r{ScriptRef::Kind::Variable, 1}, item{ScriptRef::Kind::Object, 0x1001};
  const ScriptRef reference{ScriptRef::Kind::Object, kPlayerRef}, base{ScriptRef::Kind::Object, kPlayerBase};
  const ScriptData after = compiled("scn t\nref r\nBegin GameMode\nplayer.AddItem SomeItem 1\nLet r := player\nEnd\n");
  EXPECT_EQ(after.refs, (std::vector<ScriptRef>{var_r, reference, item}));
  // First: the base form; a later vanilla `player` is still the player's reference.
  const ScriptData first = compiled("scn t\nref r\nBegin GameMode\nLet r := player\nplayer.AddItem SomeItem 1\nEnd\n");
  EXPECT_EQ(first.refs, (std::vector<ScriptRef>{var_r, base, reference, item}));
  // Calling a command (`player.GetDead`) in OBSE code is the reference, keyed PlayerRef.
  const ScriptData calling = compiled("scn t\nshort d\nBegin GameMode\nLet d := player.GetDead\nEnd\n");
  EXPECT_EQ(calling.refs, (std::vector<ScriptRef>{reference}));
  // In compiler-override blocks the arguments of vanilla commands are OBSE code too.
  const ScriptData override_block = compiled("scn t\nfloat f\nBegin _GameMode\nset f to GetDistance player\nEnd\n");
  EXPECT_EQ(override_block.refs, (std::vector<ScriptRef>{base}));
  // A recompile keeps the previous list without the names its entries had: a bare `player`
  // takes a kept entry of the player's reference when the list has none for the base form.
  CompileOptions o;
  o.names = &kNames;
  o.previous = &after;
  const ScriptData again = compile("scn t\nref r\nBegin GameMode\nLet r := player\nplayer.AddItem SomeItem 1\nEnd\n", o).script;
  EXPECT_EQ(again.refs, after.refs);
  for (const char* source : {"scn t\nref r\nBegin GameMode\nLet r := player\nplayer.AddItem SomeItem 1\nEnd\n",
                             "scn t\nfloat f\nBegin _GameMode\nset f to GetDistance player\nEnd\n",
                             "scn t\nBegin GameMode\nSetEventHandler \"OnRelease\" MyFunction \"ref\"::Player\nEnd\n"})
    round_trip(source);
}

TEST(ScriptSyntax, UnknownBareWordsInObseCode) {
  // OBSE compiles a bare word nothing resolves as a string, so would a misspelled name be: an
  // error, at the word, unless the previous compile holds that string (an unedited line) or the
  // caller asks for the editor's behaviour.
  const std::string source = "scn t\nref r\nBegin GameMode\nLet r := SomeRefTypo\nEnd\n";
  try {
    compiled(source);
    ADD_FAILURE() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.line(), 4u);
    EXPECT_EQ(e.column(), 10u);
    EXPECT_TRUE(e.unknown_name());
    EXPECT_NE(e.message().find("SomeRefTypo"), std::string::npos) << e.message();
  }
  const ScriptData lenient = compiled_as_editor(source);
  CompileOptions o;
  o.names = &kNames;
  o.previous = &lenient;
  EXPECT_EQ(compile(source, o).script.bytecode, lenient.bytecode);
  EXPECT_THROW(compile("scn t\nref r\nBegin GameMode\nLet r := OtherTypo\nEnd\n", o), CompileError);
  // Values of a vanilla parameter's type are meant as such in compiler-override blocks.
  compiled("scn t\nfloat f\nBegin _GameMode\nset f to GetPos z\nset f to GetActorValue Strength\nEnd\n");
  EXPECT_THROW(compiled("scn t\nfloat f\nBegin _GameMode\nset f to GetPos Typo\nEnd\n"), CompileError);
}

TEST(ScriptSyntax, PairsInArMapAndWithCommandValues) {
  // ar_Map "a"::1 "b"::SomeRef: nested command token 'X' + u16 calling ref + u16 opcode + u16
  // length counting itself, then the argument list as above; 1 is a byte 'B' 01.
  const ScriptData s = compiled("scn t\narray_var a\nBegin GameMode\nlet a := ar_Map \"a\"::1 \"b\"::SomeRef\nEnd\n");
  Bytes map{'X', 0x00, 0x00};
  append_u16(map, opcode("ar_Map"));
  append(map, {0x16, 0x00, 0x02, 0x09, 0x00, 'S', 0x01, 0x00, 'a', 'B', 0x01, 0x24});
  append(map, {0x0A, 0x00, 'S', 0x01, 0x00, 'b', 'R', 0x01, 0x00, 0x24});
  EXPECT_TRUE(contains(s.bytecode, map));
  round_trip("scn t\narray_var a\nBegin GameMode\nlet a := ar_Map \"a\"::1 \"b\"::SomeRef\nEnd\n");
  round_trip("scn t\nBegin GameMode\nSetEventHandler \"OnHitWith\" MyFunction \"object\"::(player.GetEquippedObject 16)\n"
             "SetEventHandler \"OnHit\" MyFunction first::PlayerRef second::SomeRef\nEnd\n");
}

// ---------------------------------------------------------------------------------------------
// OBSE's documented syntax, compile -> decompile -> compile

TEST(ScriptSyntax, UserFunctionsRoundTrip) {
  // The examples of OBSE's "User-Defined Functions" section.
  const std::string text = round_trip(
      "ScriptName Multiply\nfloat arg1\nfloat arg2\nfloat localVar\nBegin Function {arg1, arg2}\n"
      "\tLet localVar := arg1 * arg2\n\tSetFunctionValue localVar\n\tReturn\nEnd\n");
  EXPECT_NE(text.find("Begin Function {arg1, arg2}"), std::string::npos) << text;
  round_trip("ScriptName Pow\nfloat base\nshort exp\nshort val\nbegin Function {base, exp}\n\tif exp == 0\n\t\tlet val := 1\n"
             "\telse\n\t\tlet val := base * Call MyFunction base, exp - 1\n\tendif\n\tSetFunctionValue val\nend\n");
  round_trip("scn t\nstring_var arg\nstring_var local0\narray_var arr\nBegin Function { arg }\n\tlet local0 := \"some string\"\n"
             "\tsv_Destruct local0\nEnd\n");
  round_trip("scn t\nshort a\nBegin Function { }\nSetFunctionValue 1\nEnd\n");
  round_trip("scn t\nref r\nshort i\nBegin GameMode\nCall MyFunction\nlet i := Call MyFunction 10 5\nlet r := MyFunction\n"
             "let i := Call r 1\nr.Call MyFunction\nlet r := GetCallingScript\nEnd\n");
}

TEST(ScriptSyntax, ArraysRoundTrip) {
  round_trip("scn t\narray_var arr_1\narray_var arr_2\narray_var it\nref r\nshort i\nBegin GameMode\n"
             "let arr_1 := ar_Construct Array\nlet arr_1[0] := \"a string\"\nlet arr_1[1] := 1.234\n"
             "let arr_1[2] := Player.GetEquippedObject 16\nlet arr_1[3] := Player.GetEquippedItems\n"
             "let arr_1[4] := arr_1[3][0]\nlet arr_2 := arr_1[1:3]\nlet arr_2 := arr_1[1:-2]\n"
             "let arr_2 := ar_List 1, 2, 3\nlet arr_2 := ar_Map \"a\"::1, \"b\"::2\nlet i := ar_Size arr_1\n"
             "let i := (ar_Size arr_1) + ar_Size arr_2\nar_Dump arr_1\nar_Erase arr_1 1:2\nar_Insert arr_1 0 (&i)\n"
             "let r := *it\nlet i := arr_2->a\nlet arr_2->b := 2\nlet i := ar_Find 5 arr_1\nar_Sort arr_1\n"
             "let arr_2 := ar_Keys arr_1\nlet i := ar_HasKey arr_1 \"k\"\nlet arr_2 := ar_Range 0 10 2\n"
             "let arr_2 := ar_Null\nEnd\n");
}

TEST(ScriptSyntax, LoopsRoundTripAndIndent) {
  const std::string text = round_trip(
      "scn t\narray_var a\narray_var it\nstring_var s\nshort i\nref r\nBegin GameMode\nforeach it <- a\n"
      "let i := it[\"key\"]\nwhile (i < 10)\nlet i += 1\nif i == 5\nbreak\nendif\ncontinue\nloop\nloop\n"
      "foreach s <- \"abc\"\nprint s\nloop\nforeach r <- player\nlet i += r.GetRefCount\nloop\nEnd\n");
  // The loop statement sits at the level of the code around it, its body one level in.
  EXPECT_NE(text.find("\n  ForEach it <- a\n    Let i := it[\"key\"]\n    while i < 10\n      Let i += 1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n    loop\n  loop\n"), std::string::npos) << text;
}

TEST(ScriptSyntax, StringsRoundTrip) {
  // The examples of OBSE's "String Variables" and "OBSE Expressions" sections.
  round_trip("scn t\nstring_var str\nstring_var msg\narray_var arr\nshort num\nref activatingRef\nBegin OnActivate\n"
             "let str := \"a string\"\nlet str := str[0:num] + player.GetName + \" some more text\"\n"
             "let arr := ar_Construct Map\nlet arr[(num + player.GetPos Z) / player.GetPos X] := player.GetDistance SomeRef ^ 2\n"
             "if eval (arr[0] > 1)\nendif\nif testexpr (arr[5] := 2)\nendif\nlet str := $(num + 1)\nlet num := #str\n"
             "let str := ToString (num + 1)\nlet str := TypeOf arr[0]\nPrint str + \"Fan\"\n"
             "let msg := \"Greetings from Stonekeep, \" + player.GetName + \"!!!\"\nMessageBox $msg\n"
             "set activatingRef to GetActionRef\nset msg to activatingRef.GetName\n"
             "if (sv_Count \"e\" msg > 0)\nMessage \"Your name contains the letter e\"\nendif\n"
             "set str to sv_Construct \"%z%z\" str msg\nsv_Destruct str msg\nset msg to sv_Destruct\n"
             "PrintC \"%g %z\" num str\nMessageEx \"%z\" str\nEnd\n");
}

TEST(ScriptSyntax, EventHandlersRoundTrip) {
  round_trip("scn t\nref target\nref attacker\nBegin Function {target, attacker}\nif target == player\nreturn\nendif\nEnd\n");
  round_trip("scn t\narray_var a\nstring_var s\nBegin GameMode\nSetEventHandler \"OnHit\" MyFunction \"ref\"::player \"object\"::SomeRef\n"
             "SetEventHandler \"OnHealthDamage\" MyFunction \"object\"::PlayerRef\nSetEventHandler \"MyMod:Event\" MyFunction\n"
             "RemoveEventHandler \"OnHit\" MyFunction\nDispatchEvent \"MyMod:Event\" a \"sender\"\n"
             "let s := GetCurrentEventName\nEnd\n");
}

// ---------------------------------------------------------------------------------------------
// OBSE's compiler override: `Begin _GameMode` (obse_command_doc "Using OBSE expressions in
// scripts"; xOBSE Hooks_Script.cpp/.h CompilerOverride). In such a block OBSE's hook of the
// editor's default parser writes a mode word where the argument count goes (0xFFFE for the
// block type's arguments, 0xFFFF for commands) and then the arguments as OBSE expressions
// (ParseArgs); after the Begin statement it adds @PushExecutionContext (0x19A5), before End
// @PopExecutionContext (0x19A6), each with length 0, the block length counting both.

TEST(ScriptSyntax, CompilerOverrideBlockBytes) {
  const ScriptData s = compiled("scn t\nBegin _GameMode\nplayer.AddItem SomeItem 1\nEnd\n");
  Bytes expected{0x1D, 0x00, 0x00, 0x00,                                // ScriptName
                 0x10, 0x00, 0x06, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00,  // Begin GameMode, block 32 bytes
                 0xA5, 0x19, 0x00, 0x00,                                // @PushExecutionContext
                 0x1C, 0x00, 0x01, 0x00};                               // player.
  append_u16(expected, opcode("AddItem"));
  append(expected, {0x0C, 0x00, 0xFF, 0xFF, 0x02,                       // length 12, mode, 2 arguments
                    0x05, 0x00, 'R', 0x02, 0x00,                        // SomeItem
                    0x04, 0x00, 'B', 0x01,                              // 1
                    0xA6, 0x19, 0x00, 0x00,                             // @PopExecutionContext
                    0x11, 0x00, 0x00, 0x00});                           // End
  EXPECT_EQ(s.bytecode, expected);
  const std::string text = round_trip("scn t\nBegin _GameMode\nplayer.AddItem SomeItem 1\nEnd\n");
  EXPECT_NE(text.find("Begin _GameMode\n  player.AddItem SomeItem 1\nEnd"), std::string::npos) << text;
  // Without the underscore the same line is vanilla.
  EXPECT_FALSE(contains(compiled("scn t\nBegin GameMode\nplayer.AddItem SomeItem 1\nEnd\n").bytecode, {0xFF, 0xFF}));
}

TEST(ScriptSyntax, CompilerOverrideBlockArgumentsAndNestedCalls) {
  // The block type's argument: mode 0xFFFE, then 1001 as a short 'I' E9 03; the block is the
  // push, the pop and End: 12 bytes.
  const ScriptData menu = compiled("scn t\nBegin _MenuMode 1001\nEnd\n");
  EXPECT_TRUE(contains(menu.bytecode, {0x10, 0x00, 0x0E, 0x00, 0x01, 0x00, 0x0C, 0x00, 0x00, 0x00, 0xFE, 0xFF, 0x01,
                                       0x05, 0x00, 'I', 0xE9, 0x03, 0xA5, 0x19, 0x00, 0x00}));
  // A call with arguments in a vanilla expression: the unquoted axis is a string.
  const ScriptData pos = compiled("scn t\nfloat f\nBegin _GameMode\nset f to GetPos z\nDisable\nEnd\n");
  Bytes get{0x20, 'X'};
  append_u16(get, opcode("GetPos"));
  append(get, {0x09, 0x00, 0xFF, 0xFF, 0x01, 0x06, 0x00, 'S', 0x01, 0x00, 'z'});
  EXPECT_TRUE(contains(pos.bytecode, get));
  // A command without parameters gets no argument bytes, as in vanilla code.
  Bytes disable;
  append_u16(disable, opcode("Disable"));
  append(disable, {0x00, 0x00, 0xA6, 0x19});
  EXPECT_TRUE(contains(pos.bytecode, disable));
  // Inside an OBSE expression the parser always runs: mode and a zero count.
  const ScriptData let = compiled("scn t\nref r\nBegin _GameMode\nlet r := GetSelf\nEnd\n");
  Bytes self{'X', 0x00, 0x00};
  append_u16(self, opcode("GetSelf"));
  append(self, {0x05, 0x00, 0xFF, 0xFF, 0x00});
  EXPECT_TRUE(contains(let.bytecode, self));

  round_trip("scn t\nBegin _MenuMode 1001\nEnd\n");
  round_trip("scn t\nfloat f\nBegin _GameMode\nset f to GetPos z\nDisable\nEnd\n");
  round_trip("scn t\nref r\nBegin _GameMode\nlet r := GetSelf\nEnd\n");
  const std::string function = round_trip("scn t\nshort n\nBegin _Function {n}\nplayer.AddItem SomeItem n\nEnd\n");
  EXPECT_NE(function.find("Begin _Function {n}\n"), std::string::npos) << function;
  // The documentation's example, with a second, ordinary block after it.
  const std::string text = round_trip(
      "scn t\narray_var someArray\nshort index\nBegin _GameMode\n  setPos someArray[index], (call MyFunction) + SomeRef.getPos z\n"
      "  if index\n    player.AddItem someArray[0] index + 1\n  endif\nEnd\nBegin GameMode\n  SetPos z 5\nEnd\n");
  EXPECT_NE(text.find("Begin _GameMode\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Begin GameMode\n  SetPos Z 5.0\n"), std::string::npos) << text;
}
