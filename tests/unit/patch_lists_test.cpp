// The patch's leveled lists, rule by rule: Wrye Bash's Relev/Delev table (none, Relev, Delev,
// both), duplicates, sticky Delev, flags, chance none, the 255 cut, empty sublists, when a list is
// written; the three-way merge; the patch file itself (masters, ESL flag, the same bytes twice);
// bad input. Each case is a small load order written to a temporary folder.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "plugin_maker.hpp"
#include "tesmod/io/file_bytes.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/patch/patch.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "test_support.hpp"

namespace tesmod::patch {
namespace {

using test::TestPlugin;
using test::TestRecord;

// (level, object id in the master or "File:id", count)
using Entry = std::tuple<int, std::string, int>;

constexpr std::uint32_t kList = 0x900;
constexpr std::uint32_t kItemA = 0x800, kItemB = 0x801, kItemC = 0x802, kItemD = 0x803;

Field lvlo(int level, std::uint32_t form, int count) {
  std::vector<std::uint8_t> d(12, 0);
  le::store(d.data(), std::uint16_t(level));
  le::store(d.data() + 4, form);
  le::store(d.data() + 8, std::uint16_t(count));
  return Field::bytes(Signature("LVLO"), d);
}

struct ListSpec {
  std::uint32_t id = kList;
  std::string edid = "LList";
  std::uint8_t chance = 0;
  std::uint8_t flags = 0;
  std::vector<std::tuple<int, std::uint32_t, int>> entries;  // level, FormID as the plugin stores it, count
  Signature type{"LVLI"};
};

TestRecord list(Game game, const ListSpec& s) {
  std::vector<Field> f{Field::zstring("EDID", s.edid)};
  if (game != Game::Oblivion) f.push_back(Field::bytes(Signature("OBND"), std::vector<std::uint8_t>(12, 0)));
  f.push_back(Field::bytes(Signature("LVLD"), std::vector<std::uint8_t>{s.chance}));
  f.push_back(Field::bytes(Signature("LVLF"), std::vector<std::uint8_t>{s.flags}));
  if (game != Game::Oblivion)
    f.push_back(Field::bytes(Signature("LLCT"), std::vector<std::uint8_t>{std::uint8_t(s.entries.size())}));
  for (const auto& [level, form, count] : s.entries) f.push_back(lvlo(level, form, count));
  return TestRecord(s.type, s.id, f);
}

// A master with items A-D (and more when asked) and one list holding A (1) and B (5).
TestPlugin master(Game game, std::size_t extra_items = 0) {
  TestPlugin m;
  m.game = game;
  m.header_flags = record_flags::kMaster;
  for (std::uint32_t id = kItemA; id < kItemA + 4 + extra_items; ++id)
    m.records.push_back(TestRecord(Signature("MISC"), id, {Field::zstring("EDID", "Item" + std::to_string(id))}));
  m.records.push_back(list(game, ListSpec{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}}}));
  return m;
}

TestPlugin mod(Game game, std::vector<ListSpec> lists, std::string tags = {}, std::vector<std::string> masters = {"M.esm"}) {
  TestPlugin p;
  p.game = game;
  p.masters = std::move(masters);
  if (!tags.empty()) p.description = "{{BASH:" + tags + "}}";
  for (const ListSpec& s : lists) p.records.push_back(list(game, s));
  return p;
}

struct Built {
  PatchPlan plan;
  std::vector<std::uint8_t> bytes;
  std::vector<std::string> masters;
};

Built build(const test::TempDir& dir, const std::vector<std::pair<std::string, TestPlugin>>& plugins,
            PatchOptions options = {}) {
  loadorder::LoadOrderSource source;
  for (const auto& [name, p] : plugins) {
    test::write_plugin(dir / name, p);
    source.files.push_back(dir / name);
  }
  source.threads = 1;
  const loadorder::LoadOrder order = loadorder::LoadOrder::open(source);
  options.tags.data = dir.path();
  Built b;
  b.plan = plan_patch(order, options);
  b.bytes = patch_bytes(order, b.plan);
  for (std::uint32_t m : b.plan.masters) b.masters.push_back(order.plugin(m).name);
  return b;
}

struct ReadList {
  std::uint8_t chance = 0, flags = 0;
  std::vector<Entry> entries;
};

// The list with this object id of the first master, read back from the patch's bytes.
std::optional<ReadList> read_list(const Built& b, std::uint32_t object_id = kList, Signature type = Signature("LVLI")) {
  const PluginFile file = PluginFile::parse(FileBytes::hold(b.bytes, "patch.esp"));
  const auto& masters = file.header().masters;
  Inflater inflater;
  for (const IndexEntry& e : file.entries()) {
    if (e.is_group() || e.type != type || (e.id & 0xFFFFFF) != object_id) continue;
    ReadList out;
    for (const SubrecordView& v : read_subrecords(file.body(e, inflater), file.context(e))) {
      if (v.type == Signature("LVLD")) out.chance = v.data[0];
      if (v.type == Signature("LVLF")) out.flags = v.data[0];
      if (v.type == Signature("LVLO")) {
        const std::uint32_t form = le::u32(v.data.data() + 4);
        const std::string file_name = (form >> 24) < masters.size() ? masters[form >> 24].name : "patch";
        const std::string id = file_name == "M.esm" ? fmt::format("{:X}", form & 0xFFFFFF)
                                                    : fmt::format("{}:{:X}", file_name, form & 0xFFFFFF);
        out.entries.push_back({le::u16(v.data.data()), id, le::u16(v.data.data() + 8)});
      }
    }
    return out;
  }
  return std::nullopt;
}

const Game kSse = Game::SkyrimSE;

TEST(PatchLists, WithoutTagsNewEntriesOfEveryPluginAreMerged) {
  test::TempDir dir;
  const Built b = build(dir, {{"M.esm", master(kSse)},
                              {"P1.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {2, kItemC, 1}}}})},
                              {"P2.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {3, kItemD, 1}}}})}});
  const auto l = read_list(b);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->entries, (std::vector<Entry>{{1, "800", 1}, {2, "802", 1}, {3, "803", 1}, {5, "801", 1}}));
  EXPECT_EQ(b.masters, (std::vector<std::string>{"M.esm"}));
}

TEST(PatchLists, TheRelevDelevTable) {
  // Add.esp (untagged) adds C; then Tagged.esp changes A's level (1 -> 7) and drops B. Per its tags:
  struct Case {
    std::string tags;
    std::vector<Entry> expected;
  };
  const Case cases[] = {
      {"", {{1, "800", 1}, {2, "802", 1}, {5, "801", 1}}},        // neither: A's level kept, B stays
      {"Relev", {{2, "802", 1}, {5, "801", 1}, {7, "800", 1}}},   // A relevelled, B stays
      {"Delev", {{1, "800", 1}, {2, "802", 1}}},                  // B removed, A's level kept
      {"Relev,Delev", {{2, "802", 1}, {7, "800", 1}}},            // both
  };
  for (const Case& c : cases) {
    test::TempDir dir;
    const Built b = build(dir, {{"M.esm", master(kSse)},
                                {"Add.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {2, kItemC, 1}}}})},
                                {"Tagged.esp", mod(kSse, {{kList, "LList", 10, 0, {{7, kItemA, 1}}}}, c.tags)}});
    const auto l = read_list(b);
    ASSERT_TRUE(l) << c.tags;
    EXPECT_EQ(l->entries, c.expected) << "tags: '" << c.tags << "'";
  }
}

TEST(PatchLists, DelevIsStickyAgainstALaterUntaggedPlugin) {
  test::TempDir dir;
  // P1 [Delev] drops B; P2 (made against the master only) still lists B: B stays out.
  const Built b = build(dir, {{"M.esm", master(kSse)},
                              {"P1.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {4, kItemC, 1}}}}, "Delev")},
                              {"P2.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {6, kItemD, 1}}}})}});
  const auto l = read_list(b);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->entries, (std::vector<Entry>{{1, "800", 1}, {4, "802", 1}, {6, "803", 1}}));
}

TEST(PatchLists, DuplicatesAreKeptAndACountChangeNeedsRelev) {
  test::TempDir dir;
  TestPlugin m = master(kSse);
  m.records.back() = list(kSse, {kList, "LList", 10, 0, {{1, kItemA, 1}, {1, kItemA, 1}, {5, kItemB, 1}}});
  // P1 changes B's count (untagged: not taken) and adds C.
  const Built b = build(dir, {{"M.esm", m},
                              {"P1.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {1, kItemA, 1}, {5, kItemB, 3}, {2, kItemC, 2}}}})},
                              {"P2.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {1, kItemA, 1}, {5, kItemB, 1}, {8, kItemD, 1}}}})}});
  const auto l = read_list(b);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->entries, (std::vector<Entry>{{1, "800", 1}, {1, "800", 1}, {2, "802", 2}, {5, "801", 1}, {8, "803", 1}}));
}

TEST(PatchLists, FlagsAreOredUnlessRelevAndChanceNoneIsTheLastPlugins) {
  test::TempDir dir;
  const Built b = build(dir, {{"M.esm", master(kSse)},
                              {"P1.esp", mod(kSse, {{kList, "LList", 30, 0x02, {{1, kItemA, 1}, {5, kItemB, 1}, {2, kItemC, 1}}}})},
                              {"P2.esp", mod(kSse, {{kList, "LList", 40, 0x04, {{1, kItemA, 1}, {5, kItemB, 1}, {3, kItemD, 1}}}})}});
  auto l = read_list(b);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->flags, 0x06);
  EXPECT_EQ(l->chance, 40);
  test::TempDir dir2;
  const Built r = build(dir2, {{"M.esm", master(kSse)},
                               {"P1.esp", mod(kSse, {{kList, "LList", 30, 0x02, {{1, kItemA, 1}, {5, kItemB, 1}, {2, kItemC, 1}}}})},
                               {"P2.esp", mod(kSse, {{kList, "LList", 40, 0x04, {{1, kItemA, 1}, {5, kItemB, 1}, {3, kItemD, 1}}}}, "Relev")}});
  l = read_list(r);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->flags, 0x04);  // copied exactly
  EXPECT_EQ(l->entries.size(), 4u);
}

TEST(PatchLists, AListIsWrittenOnlyWhereTheMergeDiffersFromTheLastVersion) {
  test::TempDir dir;
  // One plugin adds an entry: the merge is its version, nothing to write.
  const Built b = build(dir, {{"M.esm", master(kSse)},
                              {"P1.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {2, kItemC, 1}}}})}});
  EXPECT_FALSE(read_list(b));
  EXPECT_TRUE(b.plan.records.empty());
  EXPECT_TRUE(b.masters.empty());
  // Untagged, a level change alone is undone by the patch (the merge keeps the master's level).
  test::TempDir dir2;
  const Built c = build(dir2, {{"M.esm", master(kSse)},
                               {"P1.esp", mod(kSse, {{kList, "LList", 10, 0, {{9, kItemA, 1}, {5, kItemB, 1}}}})}});
  const auto l = read_list(c);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->entries, (std::vector<Entry>{{1, "800", 1}, {5, "801", 1}}));
}

TEST(PatchLists, SkyrimListsAreCutAt255WithAWarning) {
  test::TempDir dir;
  TestPlugin m = master(kSse, 300);
  ListSpec big{kList, "LBig", 0, 0, {}};
  for (std::uint32_t i = 0; i < 200; ++i) big.entries.push_back({1, kItemA + i, 1});
  m.records.back() = list(kSse, big);
  ListSpec more = big;
  for (std::uint32_t i = 200; i < 260; ++i) more.entries.push_back({2, kItemA + i, 1});
  ListSpec other = big;
  other.entries.push_back({3, kItemA + 299, 1});
  const Built b = build(dir, {{"M.esm", m}, {"P1.esp", mod(kSse, {more})}, {"P2.esp", mod(kSse, {other})}});
  const auto l = read_list(b);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->entries.size(), 255u);
  ASSERT_FALSE(b.plan.warnings.empty());
  EXPECT_NE(b.plan.warnings.front().find("LBig"), std::string::npos) << b.plan.warnings.front();
  EXPECT_NE(b.plan.warnings.front().find("255"), std::string::npos);
}

TEST(PatchLists, EmptySublistsAreTakenOutWhenAsked) {
  for (RemoveEmpty mode : {RemoveEmpty::Auto, RemoveEmpty::On, RemoveEmpty::Off}) {
    for (Game game : {Game::Oblivion, kSse}) {
      test::TempDir dir;
      // P1 makes an empty list (its own 0x900 -> stored 01000900) and puts it into the master's list.
      TestPlugin p1 = mod(game, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {3, 0x01000900, 1}}},
                                 {0x01000900, "LEmpty", 0, 0, {}}});
      TestPlugin p2 = mod(game, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {6, kItemC, 1}}}});
      PatchOptions options;
      options.remove_empty = mode;
      const Built b = build(dir, {{"M.esm", master(game)}, {"P1.esp", p1}, {"P2.esp", p2}}, options);
      const auto l = read_list(b);
      ASSERT_TRUE(l);
      const bool removed = mode == RemoveEmpty::On || (mode == RemoveEmpty::Auto && game == Game::Oblivion);
      const bool has_empty = std::any_of(l->entries.begin(), l->entries.end(),
                                         [](const Entry& e) { return std::get<1>(e) == "P1.esp:900"; });
      EXPECT_EQ(has_empty, !removed) << game_id(game) << " mode " << int(mode);
      EXPECT_EQ(b.plan.remove_empty, removed);
    }
  }
}

TEST(PatchLists, OblivionCalcFromAllLevelsInTheChanceByte) {
  test::TempDir dir;
  const Game obl = Game::Oblivion;
  // LVLD 128 + 30: chance 30 with flag 0x01, as the game reads it; written normalised.
  const Built b = build(dir, {{"M.esm", master(obl)},
                              {"P1.esp", mod(obl, {{kList, "LList", 128 + 30, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {2, kItemC, 1}}}})},
                              {"P2.esp", mod(obl, {{kList, "LList", 128 + 30, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {3, kItemD, 1}}}})}});
  const auto l = read_list(b);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->chance, 30);
  EXPECT_EQ(l->flags, 0x01);
  EXPECT_EQ(l->entries.size(), 4u);
}

TEST(PatchLists, ThreeWayMergeReplaysEachPluginsOwnChanges) {
  // P1 removes B and changes A's level and chance none; P2, untagged, adds D. Wrye Bash's rules
  // (no tags) keep B and A's old level; the three-way merge takes every plugin's own change.
  const std::vector<std::pair<std::string, TestPlugin>> plugins{
      {"M.esm", master(kSse)},
      {"P1.esp", mod(kSse, {{kList, "LList", 50, 0, {{7, kItemA, 1}}}})},
      {"P2.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {6, kItemD, 1}}}})}};
  test::TempDir dir;
  const Built wb = build(dir, plugins);
  test::TempDir dir2;
  PatchOptions merge;
  merge.mode = ListMode::Merge;
  const Built m = build(dir2, plugins, merge);
  // Wrye Bash's merge is P2's own version (B kept, A's level kept, D added): nothing to write.
  EXPECT_FALSE(read_list(wb));
  const auto lm = read_list(m);
  ASSERT_TRUE(lm);
  EXPECT_EQ(lm->entries, (std::vector<Entry>{{6, "803", 1}, {7, "800", 1}}));
  EXPECT_EQ(lm->chance, 50);  // the last plugin that changed it from the master's
}

TEST(PatchLists, ThreeWayMergeCountsDuplicatesAndComparesWithItsMastersVersion) {
  // M: A x2. P1 (master M) removes one A. P2 (masters M, P1) adds B to P1's version: it removes
  // nothing (P1's version is what it was made against).
  test::TempDir dir;
  TestPlugin m = master(kSse);
  m.records.back() = list(kSse, {kList, "LList", 10, 0, {{1, kItemA, 1}, {1, kItemA, 1}}});
  TestPlugin p1 = mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}}}});
  TestPlugin p2 = mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {2, kItemB, 1}}}}, "", {"M.esm", "P1.esp"});
  TestPlugin p3 = mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {1, kItemA, 1}, {4, kItemC, 1}}}});
  PatchOptions merge;
  merge.mode = ListMode::Merge;
  const Built b = build(dir, {{"M.esm", m}, {"P1.esp", p1}, {"P2.esp", p2}, {"P3.esp", p3}}, merge);
  const auto l = read_list(b);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->entries, (std::vector<Entry>{{1, "800", 1}, {2, "801", 1}, {4, "802", 1}}));
}

TEST(PatchLists, ThePatchFile) {
  test::TempDir dir;
  TestPlugin p1 = mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {2, 0x01000800, 1}}}});
  p1.records.push_back(TestRecord(Signature("MISC"), 0x01000800, {Field::zstring("EDID", "NewItem")}));
  TestPlugin p2 = mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {3, kItemD, 1}}}});
  TestPlugin unrelated = mod(kSse, {});
  unrelated.records.push_back(TestRecord(Signature("MISC"), kItemC, {Field::zstring("EDID", "Changed")}));
  const std::vector<std::pair<std::string, TestPlugin>> plugins{
      {"M.esm", master(kSse)}, {"P1.esp", p1}, {"Unrelated.esp", unrelated}, {"P2.esp", p2}};
  const Built b = build(dir, plugins);
  // Masters: exactly the plugins whose forms it uses, in load order.
  EXPECT_EQ(b.masters, (std::vector<std::string>{"M.esm", "P1.esp"}));
  const PluginFile file = PluginFile::parse(FileBytes::hold(b.bytes, "patch.esp"));
  EXPECT_TRUE(file.header().is_light());  // adds no forms of its own
  EXPECT_EQ(file.header().record_count, 2);  // one group, one record
  EXPECT_EQ(file.header().next_object_id, 0x800u);
  const auto l = read_list(b);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->entries, (std::vector<Entry>{{1, "800", 1}, {2, "P1.esp:800", 1}, {3, "803", 1}, {5, "801", 1}}));
  // The same bytes again.
  test::TempDir dir2;
  EXPECT_EQ(build(dir2, plugins).bytes, b.bytes);
}

TEST(PatchLists, AnEarlierPatchOfTheSameNameIsNotRead) {
  test::TempDir dir;
  // An old patch that dropped every entry: read as a source, it would be the winner.
  TestPlugin old = mod(kSse, {{kList, "LList", 0, 0, {}}});
  PatchOptions options;
  options.name = "Bashed Patch, 0.esp";
  const Built b = build(dir, {{"M.esm", master(kSse)},
                              {"P1.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {2, kItemC, 1}}}})},
                              {"P2.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {3, kItemD, 1}}}})},
                              {"Bashed Patch, 0.esp", old}},
                        options);
  ASSERT_TRUE(b.plan.skipped_patch.has_value());
  const auto l = read_list(b);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->entries.size(), 4u);
}

TEST(PatchLists, AnEntryNamingAMissingFormIsAWarning) {
  test::TempDir dir;
  const Built b = build(dir, {{"M.esm", master(kSse)},
                              {"P1.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {2, 0x00000FFF, 1}}}})},
                              {"P2.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}, {5, kItemB, 1}, {3, kItemD, 1}}}})}});
  ASSERT_EQ(b.plan.warnings.size(), 1u);
  EXPECT_NE(b.plan.warnings[0].find("M.esm:000FFF"), std::string::npos) << b.plan.warnings[0];
  EXPECT_NE(b.plan.warnings[0].find("LList"), std::string::npos);
}

TEST(PatchLists, BadInputIsAnErrorNamingTheFile) {
  // A master missing from the load order.
  {
    test::TempDir dir;
    test::write_plugin(dir / "P1.esp", mod(kSse, {{kList, "LList", 10, 0, {{1, kItemA, 1}}}}, "", {"Gone.esm"}));
    loadorder::LoadOrderSource source;
    source.data = dir.path();
    source.files = {dir / "P1.esp"};
    const loadorder::LoadOrder order = loadorder::LoadOrder::open(source);
    try {
      plan_patch(order, {});
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.file(), "P1.esp");
      EXPECT_NE(std::string(e.what()).find("Gone.esm"), std::string::npos) << e.what();
    }
  }
  // An LVLO of the wrong size.
  {
    test::TempDir dir;
    TestPlugin p1 = mod(kSse, {});
    TestRecord bad = list(kSse, {kList, "LList", 10, 0, {{1, kItemA, 1}}});
    bad.fields.push_back(Field::bytes(Signature("LVLO"), std::vector<std::uint8_t>(7, 0)));
    p1.records.push_back(bad);
    try {
      build(dir, {{"M.esm", master(kSse)}, {"P1.esp", p1}});
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(std::filesystem::path(e.file()).filename(), "P1.esp");
      ASSERT_TRUE(e.record().has_value());
      EXPECT_EQ(e.record()->type, Signature("LVLI"));
      EXPECT_NE(std::string(e.what()).find("LVLO of 7 bytes"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace tesmod::patch
