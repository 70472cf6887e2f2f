// `tesmod patch`'s contract: usage errors, the report (text, --json, --tags-only), --dry-run, the
// same bytes on every run, and bad input — a plugin that does not read, a LOOT masterlist that is
// not YAML, an unknown tag — named, with nothing written and an earlier output left as it was.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "plugin_maker.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "test_support.hpp"

namespace tesmod {
namespace {

using test::run_cli;
using test::TestPlugin;
using test::TestRecord;

Field lvlo(int level, std::uint32_t form) {
  std::vector<std::uint8_t> d(12, 0);
  le::store(d.data(), std::uint16_t(level));
  le::store(d.data() + 4, form);
  le::store(d.data() + 8, std::uint16_t(1));
  return Field::bytes(Signature("LVLO"), d);
}

TestRecord list(std::vector<std::pair<int, std::uint32_t>> entries) {
  std::vector<Field> f{Field::zstring("EDID", "LList"), Field::bytes(Signature("OBND"), std::vector<std::uint8_t>(12, 0)),
                       Field::bytes(Signature("LVLD"), std::vector<std::uint8_t>{0}),
                       Field::bytes(Signature("LVLF"), std::vector<std::uint8_t>{0}),
                       Field::bytes(Signature("LLCT"), std::vector<std::uint8_t>{std::uint8_t(entries.size())})};
  for (const auto& [level, form] : entries) f.push_back(lvlo(level, form));
  return TestRecord(Signature("LVLI"), 0x900, f);
}

// Master.esm (items A-C, a list of A), A.esp adds B, B.esp adds C (tagged Relev in its
// description, and with an unknown tag), plugins.txt.
struct Folder {
  test::TempDir dir;
  Folder() {
    TestPlugin m;
    m.header_flags = record_flags::kMaster;
    for (std::uint32_t id : {0x800u, 0x801u, 0x802u})
      m.records.push_back(TestRecord(Signature("MISC"), id, {Field::zstring("EDID", "Item")}));
    m.records.push_back(list({{1, 0x800}}));
    TestPlugin a;
    a.masters = {"Master.esm"};
    a.records = {list({{1, 0x800}, {2, 0x801}})};
    TestPlugin b = a;
    b.description = "{{BASH:Relev,NoSuchTag}}";
    b.records = {list({{1, 0x800}, {3, 0x802}})};
    test::write_plugin(dir / "Master.esm", m, 1);
    test::write_plugin(dir / "A.esp", a, 2);
    test::write_plugin(dir / "B.esp", b, 3);
    test::write_text(dir / "plugins.txt", "*Master.esm\n*A.esp\n*B.esp\n");
  }
  std::string data() const { return dir.path().string(); }
  std::string out() const { return (dir / "Bashed Patch, 0.esp").string(); }
};

TEST(PatchCli, UsageErrors) {
  Folder f;
  auto r = run_cli({"patch", "--data", f.data()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-o OUT"), std::string::npos) << r.err;
  r = run_cli({"patch", "--data", f.data(), "--dry-run", "--mode", "smart"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--mode"), std::string::npos) << r.err;
  r = run_cli({"patch", "--data", f.data(), "--dry-run", "--tags", "B.esp"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("PLUGIN=Tag"), std::string::npos) << r.err;
}

TEST(PatchCli, WritesThePatchAndSaysWhy) {
  Folder f;
  const auto r = run_cli({"patch", "--data", f.data(), "-o", f.out()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(f.out()));
  EXPECT_NE(r.out.find("LVLI Master.esm:000900 LList: leveled list, over B.esp"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("B.esp [R]"), std::string::npos) << r.out;  // the merge source and its tag
  EXPECT_NE(r.out.find("NoSuchTag"), std::string::npos) << r.out;  // an unknown tag, named with its plugin
  EXPECT_NE(r.out.find("written to"), std::string::npos);
  // No temporary file left beside it; the same bytes on a second run.
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(f.dir.path())) files += e.is_regular_file();
  EXPECT_EQ(files, 5u);
  const auto first = test::read_file(f.out());
  ASSERT_EQ(run_cli({"patch", "--data", f.data(), "-o", f.out()}).exit_code, 0);
  EXPECT_EQ(test::read_file(f.out()), first);
}

TEST(PatchCli, JsonTagsOnlyAndDryRun) {
  Folder f;
  auto r = run_cli({"patch", "--data", f.data(), "--dry-run", "--json", "--tags", "A.esp=Delev"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["written"].is_null());
  EXPECT_FALSE(std::filesystem::exists(f.out()));
  EXPECT_EQ(j["sources"], (std::vector<std::string>{"Master.esm", "A.esp", "B.esp"}));
  ASSERT_EQ(j["records"].size(), 1u);
  EXPECT_EQ(j["records"][0]["form"], "Master.esm:000900");
  EXPECT_EQ(j["records"][0]["part"], "leveled list");
  bool a_delev = false;
  for (const auto& t : j["tags"])
    if (t["plugin"] == "A.esp")
      for (const auto& c : t["changes"]) a_delev |= c["tag"] == "Delev" && c["source"] == "command_line";
  EXPECT_TRUE(a_delev) << j["tags"].dump();
  EXPECT_FALSE(j["warnings"].empty());
  r = run_cli({"patch", "--data", f.data(), "--tags-only"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("B.esp: Relev"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Relev (description: {{BASH:...}})"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(f.out()));
}

TEST(PatchCli, BadInputWritesNothing) {
  Folder f;
  test::write_file(f.out(), {1, 2, 3});  // an earlier output: left as it is on an error
  // A masterlist that is not YAML: named with its line and column.
  test::write_text(f.dir / "masterlist.yaml", "plugins:\n  - name: 'B.esp'\n    tag: [Relev\n");
  auto r = run_cli({"patch", "--data", f.data(), "-o", f.out(), "--masterlist", (f.dir / "masterlist.yaml").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("masterlist.yaml"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_file(f.out()), (std::vector<std::uint8_t>{1, 2, 3}));
  // A plugin whose list group does not read.
  std::vector<std::uint8_t> broken = test::read_file(f.dir / "A.esp");
  broken.resize(broken.size() - 10);
  test::write_file(f.dir / "A.esp", broken);
  r = run_cli({"patch", "--data", f.data(), "-o", f.out()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("A.esp"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_file(f.out()), (std::vector<std::uint8_t>{1, 2, 3}));
}

}  // namespace
}  // namespace tesmod
