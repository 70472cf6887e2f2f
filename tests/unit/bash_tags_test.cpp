// Bash Tags: the description's {{BASH:...}}, BashTags files and --tags, their order (each source
// overriding the ones before), old names translated, unknown tags warned about, per game.
#include <gtest/gtest.h>

#include <algorithm>

#include "plugin_maker.hpp"
#include "tesmod/patch/bash_tags.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "test_support.hpp"

namespace tesmod::patch {
namespace {

using test::TestPlugin;

TEST(BashTags, DescriptionTagsInAnyCase) {
  EXPECT_EQ(tags_in_description("My mod.\n{{BASH:Relev, Delev ,Names}}\nMore text"),
            (std::vector<std::string>{"Relev", "Delev", "Names"}));
  EXPECT_EQ(tags_in_description("{{ bash : Invent }}"), (std::vector<std::string>{"Invent"}));
  EXPECT_EQ(tags_in_description("{{Bash:Stats,,}}"), (std::vector<std::string>{"Stats"}));
  EXPECT_TRUE(tags_in_description("no tags {{BASH}} here").empty());
  EXPECT_TRUE(tags_in_description("").empty());
}

TEST(BashTags, TagListsWithRemovalsAndComments) {
  const auto lines = parse_tag_list("\xEF\xBB\xBFRelev, -Delev # the rest is a comment, Names\n\n  Stats,- Graphics\r\n,,\n");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].tag, "Relev");
  EXPECT_FALSE(lines[0].removed);
  EXPECT_EQ(lines[1].tag, "Delev");
  EXPECT_TRUE(lines[1].removed);
  EXPECT_EQ(lines[2].tag, "Stats");
  EXPECT_EQ(lines[2].line, 3u);
  EXPECT_EQ(lines[3].tag, "Graphics");
  EXPECT_TRUE(lines[3].removed);
}

TEST(BashTags, NamesPerGameAndOldNames) {
  EXPECT_TRUE(is_known_tag(Game::Oblivion, "Scripts"));
  EXPECT_FALSE(is_known_tag(Game::SkyrimSE, "Scripts"));
  EXPECT_TRUE(is_known_tag(Game::SkyrimSE, "Keywords"));
  EXPECT_FALSE(is_known_tag(Game::Oblivion, "Keywords"));
  EXPECT_EQ(canonical_tags(Game::SkyrimSE, "relev"), (std::vector<std::string>{"Relev"}));
  EXPECT_EQ(canonical_tags(Game::Oblivion, "Invent"), (std::vector<std::string>{"Invent.Add", "Invent.Remove"}));
  EXPECT_EQ(canonical_tags(Game::Oblivion, "NpcFaces"), (std::vector<std::string>{"NPC.Eyes", "NPC.Hair", "NPC.FaceGen"}));
  EXPECT_EQ(canonical_tags(Game::SkyrimSE, "Factions"), (std::vector<std::string>{"Actors.Factions"}));
  // An old name whose replacement the game does not have.
  EXPECT_TRUE(canonical_tags(Game::SkyrimSE, "NpcFaces").empty());
  bool obsolete = false;
  EXPECT_TRUE(canonical_tags(Game::Oblivion, "Merge", &obsolete).empty());
  EXPECT_TRUE(obsolete);
  EXPECT_TRUE(canonical_tags(Game::Oblivion, "NoSuchTag", &obsolete).empty());
  EXPECT_FALSE(obsolete);
  const auto all = known_tags(Game::SkyrimSE);
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
}

TEST(BashTags, SourcesInWryeBashsOrder) {
  test::TempDir dir;
  TestPlugin m;
  m.header_flags = record_flags::kMaster;
  m.description = "{{BASH:Names}}";
  TestPlugin p;
  p.masters = {"M.esm"};
  p.description = "{{BASH:Relev,Delev,Invent,Bogus}}";
  test::write_plugin(dir / "M.esm", m);
  test::write_plugin(dir / "P.esp", p);
  std::filesystem::create_directories(dir / "bashtags");  // any case
  test::write_text(dir / "bashtags" / "p.txt", "-Relev, Stats\n# comment\nSound\n");
  loadorder::LoadOrderSource source;
  source.files = {dir / "M.esm", dir / "P.esp"};
  const loadorder::LoadOrder order = loadorder::LoadOrder::open(source);
  TagOptions options;
  options.data = dir.path();
  options.command_line = {{"p.esp", "-Sound,Graphics"}};
  const std::vector<PluginTags> tags = read_bash_tags(order, options);
  ASSERT_EQ(tags.size(), 2u);
  EXPECT_EQ(tags[0].tags, (std::set<std::string>{"Names"}));
  EXPECT_EQ(tags[1].tags, (std::set<std::string>{"Delev", "Graphics", "Invent.Add", "Invent.Remove", "Stats"}));
  // Where each came from, in the order applied.
  std::vector<std::string> changes;
  for (const TagChange& c : tags[1].changes)
    changes.push_back(std::string(c.removed ? "-" : "") + c.tag + "@" + std::string(tag_source_name(c.source)));
  EXPECT_EQ(changes, (std::vector<std::string>{"Relev@description", "Delev@description", "Invent.Add@description",
                                               "Invent.Remove@description", "Stats@bashtags_file",
                                               "Sound@bashtags_file", "-Relev@bashtags_file",
                                               "Graphics@command_line", "-Sound@command_line"}));
  ASSERT_EQ(tags[1].warnings.size(), 1u);
  EXPECT_NE(tags[1].warnings[0].find("Bogus"), std::string::npos) << tags[1].warnings[0];
  EXPECT_NE(tags[1].warnings[0].find("P.esp"), std::string::npos);
  // The BashTags line is named.
  const auto stats = std::find_if(tags[1].changes.begin(), tags[1].changes.end(),
                                  [](const TagChange& c) { return c.tag == "Stats"; });
  ASSERT_NE(stats, tags[1].changes.end());
  EXPECT_EQ(stats->detail, "p.txt line 1");
}

TEST(BashTags, LootMetadataWithConditionsBetweenTheDescriptionAndTheBashTagsFile) {
  test::TempDir dir;
  TestPlugin m;
  m.header_flags = record_flags::kMaster;
  TestPlugin p;
  p.masters = {"M.esm"};
  p.description = "{{BASH:Names}} Version: 1.5";
  test::write_plugin(dir / "M.esm", m);
  test::write_plugin(dir / "P.esp", p);
  std::filesystem::create_directories(dir / "BashTags");
  test::write_text(dir / "BashTags" / "P.txt", "-Sound\n");
  test::write_text(dir / "Some.dll", "MZ");  // a file whose product version cannot be read here
  loadorder::LoadOrderSource source;
  source.files = {dir / "M.esm", dir / "P.esp"};
  const loadorder::LoadOrder order = loadorder::LoadOrder::open(source);
  const LootMetadata masterlist = parse_loot_metadata(R"(
common: &common
  tag: [ Relev ]
plugins:
  - name: 'P.esp'
    <<: *common
  - name: 'P\.es[pm]'
    tag:
      - -Names
      - name: Delev
        condition: 'file("M.esm") and not active("Gone.esp")'
      - name: Stats
        condition: 'active("Gone.esp")'
      - name: Graphics
        condition: 'version("P.esp", "1.2", >)'
      - name: Sound
        condition: 'is_master("M.esm")'
      - name: Text
        condition: 'product_version("Some.dll", "1.0", >=)'
)", "masterlist.yaml", LootFile::Masterlist);
  const LootMetadata userlist = parse_loot_metadata("plugins:\n  - name: p.esp\n    tag: [ Invent ]\n",
                                                    "userlist.yaml", LootFile::Userlist);
  TagOptions options;
  options.data = dir.path();
  options.masterlist = &masterlist;
  options.userlist = &userlist;
  const std::vector<PluginTags> tags = read_bash_tags(order, options);
  // Names from the description is removed by the masterlist; Sound added there and removed by
  // the BashTags file; Stats' and Text's conditions do not hold (Text cannot be evaluated).
  EXPECT_EQ(tags[1].tags, (std::set<std::string>{"Delev", "Graphics", "Invent.Add", "Invent.Remove", "Relev"}));
  const auto userlist_change = std::find_if(tags[1].changes.begin(), tags[1].changes.end(),
                                            [](const TagChange& c) { return c.tag == "Invent.Add"; });
  ASSERT_NE(userlist_change, tags[1].changes.end());
  EXPECT_EQ(userlist_change->source, TagSource::Userlist);
  const auto delev = std::find_if(tags[1].changes.begin(), tags[1].changes.end(),
                                  [](const TagChange& c) { return c.tag == "Delev"; });
  ASSERT_NE(delev, tags[1].changes.end());
  EXPECT_NE(delev->detail.find("condition"), std::string::npos) << delev->detail;
  ASSERT_EQ(tags[1].warnings.size(), 1u);
  EXPECT_NE(tags[1].warnings[0].find("Text"), std::string::npos) << tags[1].warnings[0];
  EXPECT_NE(tags[1].warnings[0].find("product_version"), std::string::npos) << tags[1].warnings[0];
}

TEST(BashTags, ACommandLinePluginNotInTheOrderIsAnError) {
  test::TempDir dir;
  test::write_plugin(dir / "P.esp", TestPlugin{});
  loadorder::LoadOrderSource source;
  source.files = {dir / "P.esp"};
  const loadorder::LoadOrder order = loadorder::LoadOrder::open(source);
  TagOptions options;
  options.data = dir.path();
  options.command_line = {{"Other.esp", "Relev"}};
  EXPECT_THROW(read_bash_tags(order, options), Error);
}

}  // namespace
}  // namespace tesmod::patch
