// `tesmod script` and `verify --deep`: output lines, JSON keys, files written and exit codes, on an
// Oblivion plugin built here with one object script and a quest with a result script.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/script/script_data.hpp"

using namespace tesmod;
using test::run_cli;

namespace {

// `FILE:line:column: ` somewhere in text (line and column numbers).
bool has_location(const std::string& text, const std::string& file) {
  for (std::size_t at = text.find(file + ":"); at != std::string::npos; at = text.find(file + ":", at + 1)) {
    std::size_t p = at + file.size() + 1;
    auto digits = [&] {
      std::size_t start = p;
      while (p < text.size() && text[p] >= '0' && text[p] <= '9') ++p;
      return p > start;
    };
    if (digits() && p < text.size() && text[p++] == ':' && digits() && text.compare(p, 2, ": ") == 0) return true;
  }
  return false;
}

constexpr const char* kGreetingSource =
    "scn TesmodGreeting\r\n\r\nshort count\r\n\r\nbegin GameMode\r\n  set count to count + 1\r\n  if count > 5\r\n"
    "    MessageBox \"Hello\"\r\n  endif\r\nend\r\n";

std::vector<Field> greeting_fields() {
  script::ScriptData s;
  s.bytecode = {0x1D, 0x00, 0x00, 0x00,                                                 // ScriptName
                0x10, 0x00, 0x06, 0x00, 0x00, 0x00, 58, 0x00, 0x00, 0x00,                 // Begin GameMode
                0x15, 0x00, 0x0D, 0x00, 0x73, 0x01, 0x00, 0x08, 0x00,                     // set count to
                0x20, 0x73, 0x01, 0x00, 0x20, '1', 0x20, '+',                             //   count + 1
                0x16, 0x00, 0x0C, 0x00, 0x01, 0x00, 0x08, 0x00,                           // if, jump 1
                0x20, 0x73, 0x01, 0x00, 0x20, '5', 0x20, '>',                             //   count > 5
                0x00, 0x10, 0x0D, 0x00, 0x01, 0x00, 0x05, 0x00, 'H', 'e', 'l', 'l', 'o',  // MessageBox
                0x00, 0x00, 0x00, 0x00,                                                   //
                0x19, 0x00, 0x00, 0x00,                                                   // endif
                0x11, 0x00, 0x00, 0x00};                                                  // end
  s.header = {0, 0, static_cast<std::uint32_t>(s.bytecode.size()), 1, 0};
  s.source = kGreetingSource;
  s.variables = {script::LocalVariable::make(1, true, "count")};
  return script::encode_script(s);
}

// A quest stage's result script: `return`.
std::vector<Field> return_fields() {
  script::ScriptData s;
  s.bytecode = {0x1E, 0x00, 0x00, 0x00};
  s.header = {0, 0, 4, 0, 0};
  s.source = "return";
  return script::encode_script(s);
}

class ScriptCli : public ::testing::Test {
 protected:
  void SetUp() override {
    Plugin p = Plugin::create(Game::Oblivion, "TesmodScripts.esp");
    greeting = p.allocate_form_id();
    std::vector<Field> f{Field::zstring("EDID", "TesmodGreeting")};
    for (Field& x : greeting_fields()) f.push_back(std::move(x));
    p.add(Record("SCPT", greeting, std::move(f)));
    quest = p.allocate_form_id();
    std::vector<Field> q{Field::zstring("EDID", "TesmodQuest"), Field::bytes("INDX", std::vector<std::uint8_t>{10, 0})};
    for (Field& x : return_fields()) q.push_back(std::move(x));
    p.add(Record("QUST", quest, std::move(q)));
    p.save(plugin());
  }
  std::string plugin() const { return (dir / "TesmodScripts.esp").string(); }
  std::string write_source(const std::string& name, const std::string& text) const {
    test::write_file(dir / name, std::vector<std::uint8_t>(text.begin(), text.end()));
    return (dir / name).string();
  }
  test::TempDir dir;
  std::uint32_t greeting = 0, quest = 0;
};

}  // namespace

TEST_F(ScriptCli, Usage) {
  for (const char* sub : {"list", "decompile", "compile", "check"}) {
    auto r = run_cli({"script", sub, "--help"});
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << sub;
  }
  EXPECT_EQ(run_cli({"script"}).exit_code, 2);
  EXPECT_EQ(run_cli({"script", "list"}).exit_code, 2);
  EXPECT_EQ(run_cli({"script", "check"}).exit_code, 2);
  EXPECT_EQ(run_cli({"script", "compile", plugin()}).exit_code, 2);  // no --source
  const std::string src = write_source("s.txt", kGreetingSource);
  auto r = run_cli({"script", "compile", plugin(), "--source", src});  // neither -o nor --in-place
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--in-place"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli({"verify", plugin(), "--no-hints"}).exit_code, 2);  // --no-hints needs --deep
}

TEST_F(ScriptCli, List) {
  auto r = run_cli({"script", "list", plugin()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, fmt::format("SCPT {:08X} TesmodGreeting  object  72 bytes, 1 variable, 0 refs\n"
                               "QUST {:08X} TesmodQuest  object  4 bytes, 0 variables, 0 refs\n",
                               greeting, quest));
  auto j = nlohmann::json::parse(run_cli({"script", "list", plugin(), "--json"}).out);
  ASSERT_EQ(j["scripts"].size(), 2u);
  EXPECT_EQ(j["scripts"][0]["record_type"], "SCPT");
  EXPECT_EQ(j["scripts"][0]["editor_id"], "TesmodGreeting");
  EXPECT_EQ(j["scripts"][0]["compiled_bytes"], 72);
  EXPECT_EQ(j["scripts"][0]["variables"], 1);
  EXPECT_EQ(j["scripts"][1]["record_type"], "QUST");
  EXPECT_EQ(j["scripts"][1]["index"], 0);
  EXPECT_EQ(run_cli({"script", "list", (dir / "missing.esp").string()}).exit_code, 1);
}

TEST_F(ScriptCli, Decompile) {
  auto one = run_cli({"script", "decompile", plugin(), "tesmodgreeting"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_TRUE(one.out.starts_with("ScriptName TesmodGreeting\n")) << one.out;
  EXPECT_NE(one.out.find("  Set count to count + 1\n"), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("    MessageBox \"Hello\"\n"), std::string::npos) << one.out;
  // By FormID.
  EXPECT_EQ(run_cli({"script", "decompile", plugin(), fmt::format("{:08X}", greeting)}).out, one.out);
  // Every script, each after a comment line naming its record.
  auto all = run_cli({"script", "decompile", plugin()});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_NE(all.out.find(fmt::format("; QUST {:08X} TesmodQuest\n", quest)), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("Return\n"), std::string::npos) << all.out;
  // One file per script.
  const auto out = dir / "decompiled";
  ASSERT_EQ(run_cli({"script", "decompile", plugin(), "-o", out.string()}).exit_code, 0);
  EXPECT_TRUE(std::filesystem::exists(out / "TesmodGreeting.txt"));
  EXPECT_TRUE(std::filesystem::exists(out / "TesmodQuest.txt"));
  const auto text = test::read_file(out / "TesmodGreeting.txt");
  EXPECT_EQ(std::string(text.begin(), text.end()), one.out);
  // Nothing by that name.
  auto none = run_cli({"script", "decompile", plugin(), "NoSuchScript"});
  EXPECT_EQ(none.exit_code, 2);  // neither an EditorID nor a FormID
  EXPECT_EQ(run_cli({"script", "decompile", plugin(), "00ABCDEF"}).exit_code, 1);
}

TEST_F(ScriptCli, CheckReportsErrorsAsFileLineColumn) {
  const std::string bad = write_source("bad.txt", "scn Broken\r\nbegin GameMode\r\n  set to\r\nend\r\n");
  auto r = run_cli({"script", "check", bad, "--plugin", plugin()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has_location(r.err, "bad.txt")) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(run_cli({"script", "check", (dir / "missing.txt").string()}).exit_code, 1);
  EXPECT_EQ(run_cli({"script", "check", bad, "--plugin", (dir / "missing.esp").string()}).exit_code, 1);
}

TEST_F(ScriptCli, CheckCompileAndVerifyDeep) {
  // The test plugin's two scripts were compiled by tesmod itself: every figure must be whole.
  const std::string good = write_source("good.txt", kGreetingSource);
  auto check = run_cli({"script", "check", good, "--plugin", plugin()});
  ASSERT_EQ(check.exit_code, 0) << check.err;
  EXPECT_EQ(check.out, "OK\n");

  auto deep = run_cli({"verify", "--deep", "--json", plugin()});
  ASSERT_EQ(deep.exit_code, 0) << deep.out << deep.err;
  auto j = nlohmann::json::parse(deep.out);
  EXPECT_EQ(j["ok"], true);
  const auto& f = j["files"][0];
  for (const char* figure : {"script_recompile", "script_compile_fresh", "script_decompile", "script_decompile_in_place"}) {
    EXPECT_EQ(f["checks"][figure]["total"], 2) << figure;
    EXPECT_EQ(f["checks"][figure]["identical"], 2) << figure;
  }
  EXPECT_EQ(f["checks"]["script_compile_fresh"]["byte_identical"], 2);
  EXPECT_EQ(f["checks"]["script_unsourced"], 0);
  EXPECT_TRUE(f["script_failures"].empty()) << f["script_failures"].dump();
  auto text = run_cli({"verify", "--deep", plugin(), plugin()});
  EXPECT_NE(text.out.find("  scripts: recompile 2/2 identical; compile fresh 2/2 identical by meaning (2 byte for byte)"),
            std::string::npos) << text.out;
  EXPECT_NE(text.out.find("total: 2 files; 2 passed, 0 failed\n  scripts: recompile 4/4 identical"), std::string::npos) << text.out;

  // Compile into a copy: a new script is added, an existing one replaced in place.
  const std::string copy = (dir / "copy.esp").string();
  const std::string fresh = write_source("fresh.txt", "scn TesmodFresh\nbegin GameMode\n  return\nend\n");
  auto added = run_cli({"script", "compile", plugin(), "--source", fresh, "-o", copy});
  ASSERT_EQ(added.exit_code, 0) << added.err;
  EXPECT_TRUE(added.out.starts_with("added SCPT ")) << added.out;
  auto list = run_cli({"script", "list", copy});
  EXPECT_NE(list.out.find(" TesmodFresh  object  "), std::string::npos) << list.out;
  EXPECT_EQ(run_cli({"verify", copy}).exit_code, 0);
  auto src = run_cli({"script", "decompile", copy, "TesmodFresh"});
  EXPECT_NE(src.out.find("Return"), std::string::npos) << src.out;

  auto replaced = run_cli({"script", "compile", copy, "--source", good, "--in-place"});
  ASSERT_EQ(replaced.exit_code, 0) << replaced.err;
  EXPECT_EQ(replaced.out, fmt::format("replaced SCPT {:08X} TesmodGreeting\n", greeting));
  auto after = run_cli({"script", "list", copy});
  EXPECT_EQ(after.out.find("TesmodGreeting"), list.out.find("TesmodGreeting"));  // same place
}

TEST_F(ScriptCli, ObsePluginBuilds) {
  // MPSendPos is a command of OOArena's OblivionOnline build only, whose opcodes other builds
  // use too: the source names the build; the compiled plugin's source tells decompile which.
  const std::string src = write_source("arena.txt", "scn ArenaTest\r\nbegin GameMode\r\n  player.MPSendPos\r\nend\r\n");
  auto check = run_cli({"script", "check", src});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_EQ(run_cli({"script", "check", src, "--obse-plugin", "ooarena"}).exit_code, 0);
  auto unknown = run_cli({"script", "check", src, "--obse-plugin", "NoSuchBuild"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("OOArena 2007-09-03"), std::string::npos) << unknown.err;  // lists the builds
  auto ambiguous = run_cli({"script", "check", src, "--obse-plugin", "OblivionOnline"});
  EXPECT_EQ(ambiguous.exit_code, 2);
  EXPECT_NE(ambiguous.err.find("more than one"), std::string::npos) << ambiguous.err;

  const std::string out = (dir / "Arena.esp").string();
  auto compile = run_cli({"script", "compile", plugin(), "--source", src, "-o", out});
  ASSERT_EQ(compile.exit_code, 0) << compile.err;
  auto dec = run_cli({"script", "decompile", out, "ArenaTest"});
  ASSERT_EQ(dec.exit_code, 0) << dec.err;
  EXPECT_NE(dec.out.find("  player.MPSendPos\n"), std::string::npos) << dec.out;
  auto verify = run_cli({"verify", out, "--deep", "--json"});
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
}
