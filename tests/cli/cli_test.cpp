// The command-line contract: commands, JSON keys, output lines and exit codes.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sample_builder.hpp"
#include "test_support.hpp"
#include "tesmod/io/little_endian.hpp"

using namespace tesmod;
using test::run_cli;

namespace {

class Cli : public ::testing::Test {
 protected:
  void SetUp() override { samples::write_all(dir.path()); }
  std::string sample() const { return (dir / "TesmodSample.esp").string(); }
  test::TempDir dir;
};

}  // namespace

TEST_F(Cli, HelpAndUsage) {
  EXPECT_EQ(run_cli({"--help"}).exit_code, 0);
  for (const char* cmd : {"info", "dump", "verify", "rewrite"}) {
    auto r = run_cli({cmd, "--help"});
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << cmd;
  }
  EXPECT_EQ(run_cli({}).exit_code, 2);
  EXPECT_EQ(run_cli({"frobnicate"}).exit_code, 2);
  EXPECT_EQ(run_cli({"info"}).exit_code, 2);
  EXPECT_EQ(run_cli({"info", sample(), "--no-such-option"}).exit_code, 2);
  EXPECT_EQ(run_cli({"dump", sample(), "--type", "TOOLONG"}).exit_code, 2);
  EXPECT_EQ(run_cli({"dump", sample(), "--formid", "xyz"}).exit_code, 2);
}

TEST_F(Cli, InfoJson) {
  auto r = run_cli({"info", sample(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"game", "groups", "records", "compressed", "records_by_type", "masters", "flags", "format_version"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["game"], "skyrimse");
  EXPECT_EQ(j["compressed"], 1);
  EXPECT_EQ(j["records_by_type"]["MISC"], 2);
  EXPECT_EQ(j["author"], "tesmod");
  EXPECT_FALSE(j.contains("subrecords"));
  auto s = nlohmann::json::parse(run_cli({"info", sample(), "--json", "--subrecords", "--threads", "1"}).out);
  EXPECT_GT(s["subrecords"].get<int>(), 20);
  EXPECT_EQ(s["oversize_subrecords"], 1);
  EXPECT_EQ(nlohmann::json::parse(run_cli({"info", sample(), "--json", "--subrecords", "--threads", "2"}).out), s);
}

TEST_F(Cli, InfoText) {
  auto r = run_cli({"info", (dir / "TesmodSampleOblivion.esp").string()});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Oblivion (20-byte headers, HEDR 1.00)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("REFR"), std::string::npos);
  // The text shows the breakdowns the JSON has: groups by type and (Skyrim) by form version.
  for (const std::string& plugin : {(dir / "TesmodSampleOblivion.esp").string(), sample()}) {
    const auto text = run_cli({"info", plugin}).out;
    const auto j = nlohmann::json::parse(run_cli({"info", plugin, "--json"}).out);
    EXPECT_NE(text.find("\ngroups by type:\n"), std::string::npos) << text;
    for (const auto& [type, n] : j["groups_by_type"].items())
      EXPECT_NE(text.find(fmt::format("\n  {:<24} {:>10}\n", type, n.get<int>())), std::string::npos) << type << text;
    EXPECT_EQ(text.find("records by form version") != std::string::npos, j.contains("form_versions")) << text;
    if (j.contains("form_versions")) {
      for (const auto& [v, n] : j["form_versions"].items())
        EXPECT_NE(text.find(fmt::format("\n  {:<4} {:>10}\n", v, n.get<int>())), std::string::npos) << v << text;
    }
    EXPECT_NE(text.find(fmt::format("\nrecords       {} (", j["records"].get<int>())), std::string::npos) << text;
  }
}

TEST_F(Cli, DumpFiltersAndFormats) {
  auto all = run_cli({"dump", sample()});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_NE(all.out.find("EDID \"TesmodSampleCoin\""), std::string::npos);
  EXPECT_NE(all.out.find("MODT (XXXX) (70000 bytes)"), std::string::npos);
  EXPECT_NE(all.out.find("GRUP cell_children 00000805 TesmodSampleRoom"), std::string::npos) << all.out;
  auto one = run_cli({"dump", sample(), "--edid", "tesmodsamplenote"});
  EXPECT_NE(one.out.find("BOOK [00000801]"), std::string::npos);
  EXPECT_EQ(one.out.find("MISC"), std::string::npos);
  auto by_id = run_cli({"dump", sample(), "--formid", "TesmodSample.esp:000800"});
  EXPECT_NE(by_id.out.find("MISC [00000800]"), std::string::npos) << by_id.out << by_id.err;
  EXPECT_EQ(by_id.out.find("BOOK"), std::string::npos);
  // A FormID written out as the texts write it, or with 0x, names the same record.
  for (const char* id : {"00000800", "0x00000800", "@00000800"})
    EXPECT_EQ(run_cli({"dump", sample(), "--formid", id}).out, by_id.out) << id;
  auto refs = run_cli({"dump", sample(), "--type", "REFR", "--json"});
  auto j = nlohmann::json::parse(refs.out);
  // The REFR, inside its four enclosing groups.
  auto node = j["items"][0];
  for (int depth = 0; depth < 4; ++depth) {
    ASSERT_EQ(node["kind"], "group");
    node = node["items"][0];
  }
  ASSERT_EQ(node["kind"], "group");
  EXPECT_EQ(node["group_type"], "cell_temporary_children");
  EXPECT_EQ(node["items"][0]["type"], "REFR");
  EXPECT_EQ(node["items"][0]["fields"][0]["hex"], "00080000");
}

// A --formid or --edid that no record has is an error naming the file and the value (exit 1),
// not an empty dump that exits 0; what did match is still shown.
TEST_F(Cli, DumpFilterThatMatchesNothing) {
  auto r = run_cli({"dump", sample(), "--formid", "00012345"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "tesmod: error: " + sample() + ": no record with FormID 00012345\n");
  EXPECT_EQ(r.out, "");
  r = run_cli({"dump", sample(), "--edid", "NoSuchThing"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "tesmod: error: " + sample() + ": no record with EditorID NoSuchThing\n");
  r = run_cli({"dump", sample(), "--edid", "TesmodSampleNote", "--edid", "Gone", "--json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("TesmodSampleNote"), std::string::npos) << r.out;
  EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out;
  EXPECT_EQ(r.err, "tesmod: error: " + sample() + ": no record with EditorID Gone\n");
  // Both there, but not on one record: said as such.
  r = run_cli({"dump", sample(), "--type", "BOOK", "--formid", "00000800"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no record matches all the filters together"), std::string::npos) << r.err;
  // A match exits 0 with nothing on stderr; a type with no record stays an empty answer.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"dump", sample(), "--formid", "00000800"}, {"dump", sample(), "--edid", "tesmodsamplenote"},
        {"dump", sample(), "--type", "WEAP"}}) {
    r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << args[2] << ' ' << args[3];
    EXPECT_EQ(r.err, "") << args[3];
  }
}

TEST_F(Cli, VerifyAndRewrite) {
  const std::string out = (dir / "copy.esp").string();
  auto v = run_cli({"verify", sample(), (dir / "TesmodSampleOblivion.esp").string()});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out, "OK " + sample() + "\nOK " + (dir / "TesmodSampleOblivion.esp").string() +
                       "\ntotal: 2 files; 2 passed, 0 failed\n");
  EXPECT_EQ(run_cli({"rewrite", sample(), "-o", out}).exit_code, 0);
  EXPECT_EQ(test::read_file(out), test::read_file(sample()));
  // The input is only replaced when asked.
  auto same = run_cli({"rewrite", sample(), "-o", sample()});
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_NE(same.err.find("--in-place"), std::string::npos);
  EXPECT_EQ(run_cli({"rewrite", sample(), "--in-place"}).exit_code, 0);
  EXPECT_EQ(test::read_file(out), test::read_file(sample()));
}

TEST_F(Cli, BadInputExitsOneWithAPreciseMessage) {
  auto bytes = test::read_file(sample());
  bytes.resize(bytes.size() - 100);
  const auto broken = dir / "broken.esp";
  test::write_file(broken, bytes);
  auto r = run_cli({"info", broken.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("broken.esp: offset 0x"), std::string::npos) << r.err;
  auto v = run_cli({"verify", sample(), broken.string(), "--json"});
  EXPECT_EQ(v.exit_code, 1);
  auto j = nlohmann::json::parse(v.out);
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["files"][0]["identical"], true);
  EXPECT_EQ(j["files"][1]["status"], "error");
  EXPECT_EQ(run_cli({"info", (dir / "missing.esp").string()}).exit_code, 1);
  // A failed rewrite leaves no output behind.
  EXPECT_EQ(run_cli({"rewrite", broken.string(), "-o", (dir / "never.esp").string()}).exit_code, 1);
  EXPECT_FALSE(std::filesystem::exists(dir / "never.esp"));
}

TEST_F(Cli, VerifyOnTheCorpus) {
  TESMOD_REQUIRE_CORPUS();
  std::vector<std::string> args{"verify", "--json"};
  for (const auto& p : test::corpus_plugins()) args.push_back(p.string());
  auto r = run_cli(args);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["files"].size(), test::corpus_plugins().size());
}
