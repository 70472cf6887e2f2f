// What the CLI says to a new user: a file of the wrong kind is named as what it is with the
// command that reads it; counts read in the singular when they are 1; export's counts are the
// files it wrote and the records info counts; lists of notes are separated.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sample_builder.hpp"
#include "test_support.hpp"
#include "tesmod/io/counted.hpp"

using namespace tesmod;
using test::run_cli;
namespace fs = std::filesystem;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class MessagesCli : public ::testing::Test {
 protected:
  void SetUp() override { samples::write_all(samples_.path()); }
  fs::path sample(const char* name) const { return samples_ / name; }
  test::TempDir samples_, work_;
};

}  // namespace

TEST(Counted, SingularForOne) {
  EXPECT_EQ(counted(1, "record"), "1 record");
  EXPECT_EQ(counted(0, "record"), "0 records");
  EXPECT_EQ(counted(2, "entry", "entries"), "2 entries");
  EXPECT_EQ(counted(1, "entry", "entries"), "1 entry");
}

TEST_F(MessagesCli, ASaveGivenForAPluginNamesTheSaveCommand) {
  const std::string save = sample("TesmodSample.ess").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"info", save}, {"dump", save}, {"conditions", save}, {"script", "list", save},
        {"export", save, (work_ / "out").string()}, {"rewrite", save, "-o", (work_ / "x.esp").string()}}) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 1) << args[0];
    EXPECT_EQ(r.err, "tesmod: error: " + save + ": this is an Oblivion save, not a plugin: use tesmod save info (or "
                     "save npc, save edit)\n") << args[0];
  }
  // The other way round.
  const std::string plugin = sample("TesmodSampleOblivion.esp").string();
  const auto r = run_cli({"save", "info", plugin});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "tesmod: error: " + plugin + ": this is a plugin, not a save: use tesmod info\n");
}

TEST_F(MessagesCli, SkyrimSavesAreNamedAsNotSupported) {
  TESMOD_REQUIRE_CORPUS();
  const fs::path save = test::corpus_dir() / "saves-skyrim/Voxtric__Skyrim-Mod/Voxtric_Save4.ess";
  ASSERT_TRUE(fs::exists(save));
  const auto r = run_cli({"save", "info", save.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "tesmod: error: " + save.string() +
                       ": this is a Skyrim save: only Oblivion saves are supported (Skyrim saves are not)\n");
  const auto info = run_cli({"info", save.string()});
  EXPECT_EQ(info.exit_code, 1);
  EXPECT_TRUE(contains(info.err, "this is a Skyrim save, not a plugin")) << info.err;
  // verify reads plugins and saves: the library says what the file is.
  const auto verify = run_cli({"verify", save.string()});
  EXPECT_EQ(verify.exit_code, 1);
  EXPECT_TRUE(contains(verify.err, "this is a Skyrim save, not a plugin")) << verify.err;
}

// Export prints the number of files it wrote (every one of them) and the records as info
// counts them (the TES4 header apart).
TEST_F(MessagesCli, ExportCountsWhatItWrote) {
  for (const char* name : {"TesmodSample.esp", "TesmodSampleOblivion.esp", "TesmodLocalized.esm"}) {
    SCOPED_TRACE(name);
    const fs::path dir = work_ / (std::string("text-") + name);
    const auto r = run_cli({"export", sample(name).string(), dir.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::size_t files = 0, folders = 0, scripts = 0, records = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      files += e.is_regular_file();
      folders += e.is_directory();
      scripts += e.path().extension() == ".obl";
      const std::string file = e.path().filename().string();
      records += e.path().extension() == ".txt" && file != "_group.txt" && e.path().parent_path() != dir;
    }
    const auto info = nlohmann::json::parse(run_cli({"info", "--json", sample(name).string()}).out);
    EXPECT_TRUE(r.out.starts_with(fmt::format(
        "exported the TES4 header, {} and {} into {} and {} ({}, {}, a _group.txt in each folder, plugin.txt and "
        "names.txt; ",
        counted(info["records"].get<std::uint64_t>(), "record"), counted(info["groups"].get<std::uint64_t>(), "group"),
        counted(files, "file"), counted(folders, "folder"), counted(records, "record file"),
        counted(scripts, "script source"))))
        << r.out;
    EXPECT_EQ(records + scripts + folders + 2, files);  // and nothing else: plugin.txt, names.txt

    const fs::path out = work_ / (std::string("again-") + name);
    const auto back = run_cli({"import", dir.string(), "-o", out.string()});
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_TRUE(back.out.starts_with(fmt::format("imported the TES4 header, {} and ",
                                                 counted(info["records"].get<std::uint64_t>(), "record"))))
        << back.out;
  }
}

// The masters export could not read are listed one by one ("Skyrim.esm: not found; ...").
TEST_F(MessagesCli, MissingMastersAreSeparated) {
  TESMOD_REQUIRE_CORPUS();
  const fs::path plugin = test::corpus_dir() / "skyrim/chesko256__Campfire/CampfireTutorial_Chair.esp";
  ASSERT_TRUE(fs::exists(plugin));
  const auto info = nlohmann::json::parse(run_cli({"info", "--json", plugin.string()}).out);
  const auto masters = info["masters"].get<std::vector<std::string>>();
  ASSERT_EQ(masters, (std::vector<std::string>{"Skyrim.esm", "Update.esm", "Campfire.esm"}));
  const auto r = run_cli({"export", plugin.string(), (work_ / "text").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "tesmod: note: masters not read, so their forms are shown as File:ID (3): Skyrim.esm: not found; "
                   "Update.esm: not found; Campfire.esm: not found\n");
}

TEST_F(MessagesCli, CountsOfOneAreSingular) {
  // One file in the list: singular; the per-script line of script list.
  const auto list = run_cli({"script", "list", sample("TesmodSampleOblivion.esp").string()});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  // Each line ends with "N bytes, N variables, N refs", each noun singular for 1.
  std::istringstream lines(list.out);
  std::size_t checked = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream parts(line.substr(line.rfind("  ") + 2));
    for (const char* noun : {"byte", "variable", "ref"}) {
      std::uint64_t n = 0;
      std::string word;
      parts >> n >> word;
      if (word.ends_with(',')) word.pop_back();
      EXPECT_EQ(word, n == 1 ? std::string(noun) : std::string(noun) + "s") << line;
      ++checked;
    }
  }
  EXPECT_GE(checked, 3u) << list.out;
  // One edit of a save.
  const fs::path out = work_ / "edited.ess";
  const auto edit = run_cli({"save", "edit", sample("TesmodSample.ess").string(), "--player", "--set", "skill.Blade=40",
                             "-o", out.string()});
  ASSERT_EQ(edit.exit_code, 0) << edit.err;
  EXPECT_TRUE(contains(edit.out, ": 1 edit, ")) << edit.out;
}
