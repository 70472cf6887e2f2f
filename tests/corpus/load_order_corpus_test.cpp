// Load orders of real plugins with the masters the corpus has: the Blank.esm family of LOOT's
// testing plugins (Oblivion and Skyrim), lNameless Overhaul.esp and its patches,
// OblivionOnline_trunk.esm with OblivionOnline.esp; and tesmod check over every corpus folder.
#include <gtest/gtest.h>

#include <set>

#include "plugin_maker.hpp"
#include "tesmod/loadorder/conflicts.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/loadorder/load_order_check.hpp"
#include "tesmod/loadorder/plugin_list.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "test_support.hpp"

namespace tesmod::loadorder {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> plugins_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && has_plugin_extension(e.path().filename().string())) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

LoadOrder open_files(std::vector<fs::path> files) {
  LoadOrderSource s;
  s.files = std::move(files);
  s.threads = 2;
  return LoadOrder::open(s);
}

// The record's fields as bytes, inflated, read straight from its file's index: what the
// conflict categories must agree with.
std::vector<std::uint8_t> content(const LoadOrder& o, const RecordVersion& v) {
  Inflater inflater;
  const auto body = o.file(v.plugin).body(v.entry, inflater);
  return {body.begin(), body.end()};
}

// Checks every conflict record against the bytes: equal versions (flags apart from Compressed,
// fields) share a class; the category and states follow from the classes.
void expect_categories_match_bytes(const LoadOrder& o, const std::vector<ConflictRecord>& records) {
  for (const ConflictRecord& r : records) {
    std::vector<std::pair<std::uint32_t, std::vector<std::uint8_t>>> values;
    for (const ConflictVersion& v : r.versions)
      values.emplace_back(v.version.entry.flags & ~record_flags::kCompressed, content(o, v.version));
    std::vector<std::size_t> cls;
    std::vector<std::size_t> firsts;
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::size_t c = firsts.size();
      for (std::size_t k = 0; k < firsts.size(); ++k)
        if (values[firsts[k]] == values[i]) c = k;
      if (c == firsts.size()) firsts.push_back(i);
      cls.push_back(c);
    }
    const ConflictCategory want = firsts.size() == 1                             ? ConflictCategory::NoConflict
                                  : firsts.size() == 2 && cls.back() != cls[0] ? ConflictCategory::Override
                                                                               : ConflictCategory::Conflict;
    EXPECT_EQ(category_name(r.category), category_name(want)) << r.type.str() << " " << std::hex << r.form.object_id;
    for (std::size_t i = 1; i < values.size(); ++i)
      EXPECT_EQ(r.versions[i].state == VersionState::IdenticalToMaster, cls[i] == cls[0]);
  }
}

TEST(LoadOrderCorpus, BlankFamilyOblivionAndSkyrim) {
  TESMOD_REQUIRE_CORPUS();
  for (const char* game : {"oblivion", "skyrim"}) {
    const fs::path dir = test::corpus_dir() / game / "Ortham__testing-plugins";
    ASSERT_TRUE(fs::is_directory(dir)) << dir;
    // As a data folder: times set, plugins.txt written, in a copy.
    test::TempDir data;
    std::int64_t t = 1000;
    std::string list;
    for (const fs::path& p : plugins_in(dir)) {
      fs::copy_file(p, data / p.filename().string());
      test::set_mtime(data / p.filename().string(), t--);  // newest first: the order must come from the rules
      list += p.filename().string() + "\n";
    }
    test::write_text(data / "plugins.txt", list);
    if (std::string(game) == "skyrim") test::write_text(data / "loadorder.txt", list);
    LoadOrderSource s;
    s.data = data.path();
    const LoadOrder o = LoadOrder::open(s);
    EXPECT_EQ(o.game(), std::string(game) == "oblivion" ? Game::Oblivion : Game::SkyrimLE);
    // Every active plugin loads after all of its masters, masters before the other plugins.
    bool seen_plugin = false;
    for (std::uint32_t i = 0; i < o.plugins().size(); ++i) {
      const LoadOrderPlugin& p = o.plugin(i);
      EXPECT_TRUE(p.readable()) << p.error;
      EXPECT_TRUE(p.active);
      if (!p.master) seen_plugin = true;
      else {
        EXPECT_FALSE(seen_plugin) << p.name << " (a master) loads after a plugin";
      }
      for (const auto& m : p.master_positions) {
        ASSERT_TRUE(m) << p.name;
        EXPECT_LT(*m, i) << p.name;
      }
    }
    std::vector<Problem> problems;
    const auto records = find_conflicts(o, {}, problems);
    EXPECT_TRUE(problems.empty());
    EXPECT_FALSE(records.empty()) << game << ": Blank - Master Dependent.esm overrides Blank.esm's records";
    expect_categories_match_bytes(o, records);
    const auto checked = check_load_order(o);
    EXPECT_TRUE(checked.empty()) << problem_line(checked.front(), TextCodec());
  }
}

TEST(LoadOrderCorpus, NamelessOverhaulAndItsPatches) {
  TESMOD_REQUIRE_CORPUS();
  const fs::path dir = test::corpus_dir() / "oblivion" / "Laulajatar__my-oblivion-mods";
  std::vector<fs::path> files{dir / "lNameless Overhaul.esp"};
  for (const fs::path& p : plugins_in(dir))
    if (p.filename().string().starts_with("lNameless Overhaul - ")) files.push_back(p);
  ASSERT_GE(files.size(), 6u);
  const LoadOrder o = open_files(files);
  ASSERT_EQ(o.active().size(), files.size());
  EXPECT_EQ(o.plugin(0).name, "lNameless Overhaul.esp");
  std::vector<Problem> problems;
  const auto records = find_conflicts(o, {}, problems);
  // Every record a patch takes from the overhaul (the file index its master list gives the
  // overhaul) that the overhaul has is listed with both versions. The overhaul's own records
  // have its index after its one master, Oblivion.esm: 01.
  std::set<std::uint32_t> overhaul;
  for (const IndexEntry& e : o.file(0).entries())
    if (!e.is_group() && (e.id >> 24) == 1) overhaul.insert(e.id & 0xFFFFFF);
  std::size_t taken = 0;
  for (std::uint32_t p = 1; p < o.plugins().size(); ++p) {
    const auto& masters = o.plugin(p).masters;
    const auto at = std::find(masters.begin(), masters.end(), "lNameless Overhaul.esp");
    if (at == masters.end()) continue;
    const std::uint32_t index = std::uint32_t(at - masters.begin());
    const auto& f = o.file(p);
    for (std::uint32_t i = 1; i < f.entries().size(); ++i) {
      const IndexEntry& e = f.entry(i);
      if (e.is_group() || (e.id >> 24) != index || !overhaul.count(e.id & 0xFFFFFF)) continue;
      ++taken;
      const FormKey key{0, e.id & 0xFFFFFF};
      const auto it = std::find_if(records.begin(), records.end(), [&](const ConflictRecord& r) { return r.form == key; });
      ASSERT_NE(it, records.end()) << o.plugin(p).name << " " << std::hex << e.id;
      EXPECT_EQ(it->versions.front().version.plugin, 0u);
      EXPECT_EQ(it->winner().version.plugin, p);
    }
  }
  EXPECT_GT(taken, 0u);
  EXPECT_EQ(records.size(), taken) << "each record is taken by one patch";
  expect_categories_match_bytes(o, records);
  // check: the masters the corpus lacks (Oblivion.esm, the DLCs), and nothing else.
  const auto checked = check_load_order(o);
  std::size_t missing = 0;
  for (const CheckProblem& c : checked) {
    EXPECT_EQ(c.check, "missing_master") << problem_line(c, TextCodec());
    missing += c.check == "missing_master";
  }
  std::size_t masters_absent = 0;
  for (const LoadOrderPlugin& p : o.plugins())
    for (const auto& m : p.master_positions) masters_absent += !m;
  EXPECT_EQ(missing, masters_absent);
}

TEST(LoadOrderCorpus, OblivionOnline) {
  TESMOD_REQUIRE_CORPUS();
  const fs::path dir = test::corpus_dir() / "oblivion" / "klusark__OblivionOnline";
  const LoadOrder o = open_files({dir / "OblivionOnline_trunk.esm", dir / "OblivionOnline.esp"});
  ASSERT_EQ(o.active().size(), 2u);
  EXPECT_TRUE(o.plugin(0).master);
  for (const LoadOrderPlugin& p : o.plugins()) EXPECT_EQ(p.masters, (std::vector<std::string>{"Oblivion.esm"}));
  // Both take their records from Oblivion.esm only, which is not here: nothing to compare.
  std::vector<Problem> problems;
  EXPECT_TRUE(find_conflicts(o, {}, problems).empty());
  const auto checked = check_load_order(o);
  ASSERT_EQ(checked.size(), 2u);
  for (const CheckProblem& c : checked) EXPECT_EQ(c.message, "master 'Oblivion.esm' is not in the data folder");
  // Each plugin's own records are found through the load order, in its file.
  for (std::uint32_t p = 0; p < 2; ++p) {
    const auto& f = o.file(p);
    std::size_t seen = 0;
    for (std::uint32_t i = 1; i < f.entries().size() && seen < 50; ++i) {
      const IndexEntry& e = f.entry(i);
      if (e.is_group() || (e.id >> 24) != 1) continue;
      ++seen;
      const auto key = o.key(p, e.id);
      ASSERT_TRUE(key);
      EXPECT_EQ(key->plugin, p);
      const auto versions = o.versions(*key);
      ASSERT_FALSE(versions.empty());
      EXPECT_EQ(versions.front().plugin, p);
      EXPECT_EQ(o.stored_form_id(p, *key), e.id);
    }
    EXPECT_GT(seen, 0u);
  }
}

TEST(LoadOrderCorpus, CheckOverEveryCorpusFolder) {
  TESMOD_REQUIRE_CORPUS();
  std::size_t folders = 0;
  for (const auto& game : fs::directory_iterator(test::corpus_dir())) {
    if (!game.is_directory() || game.path().filename().string().starts_with("saves")) continue;
    for (const auto& repo : fs::directory_iterator(game.path())) {
      if (!repo.is_directory()) continue;
      auto files = plugins_in(repo.path());
      if (files.empty()) continue;
      ++folders;
      const LoadOrder o = open_files(files);
      for (const CheckProblem& c : check_load_order(o)) {
        const std::string line = problem_line(c, TextCodec());
        if (c.check == "missing_master") continue;
        // A reference the master at hand does not have: that master file must really lack it.
        ASSERT_EQ(c.check, "unresolved_reference") << line;
        // "refers to XXXXXXXX (Master.esm:YYYYYY)", read by hand (GCC 12's <regex> fails the
        // sanitizer build with maybe-uninitialized).
        const std::size_t at = line.find("refers to ");
        ASSERT_NE(at, std::string::npos) << line;
        const std::size_t open = at + 10 + 8;
        ASSERT_TRUE(line.compare(open, 2, " (") == 0) << line;
        const std::size_t close = line.find(')', open);
        ASSERT_NE(close, std::string::npos) << line;
        const std::string inside = line.substr(open + 2, close - open - 2);
        const std::size_t colon = inside.rfind(':');
        ASSERT_TRUE(colon != std::string::npos && inside.size() - colon - 1 == 6) << line;
        const auto master = o.find(inside.substr(0, colon));
        ASSERT_TRUE(master) << line;
        EXPECT_NE(o.plugin(*master).name, c.file) << "a plugin's own forms are all there: " << line;
        const std::uint32_t object = std::uint32_t(std::stoul(inside.substr(colon + 1), nullptr, 16));
        const auto& f = o.file(*master);
        for (std::uint32_t i = 1; i < f.entries().size(); ++i)
          if (!f.entry(i).is_group()) {
            EXPECT_NE(f.entry(i).id & 0xFFFFFF, object) << line;
          }
      }
    }
  }
  EXPECT_GT(folders, 10u);
}

}  // namespace
}  // namespace tesmod::loadorder
