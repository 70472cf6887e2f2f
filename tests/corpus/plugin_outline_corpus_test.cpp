// PluginOutline on every corpus plugin: the records of each type it reads (from the groups it
// chooses) are the full index's records of that type, its groups' entries are the full index's,
// the EditorIDs read on threads are the one-by-one ones, and damage inside each top-level group
// is reported, when the group is read, with the full open's message.
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "tesmod/plugin/editor_ids.hpp"
#include "tesmod/plugin/plugin_outline.hpp"

using namespace tesmod;

TEST(PluginOutlineCorpus, EveryTypeReadsAsTheFullIndexHasIt) {
  TESMOD_REQUIRE_CORPUS();
  std::size_t plugins = 0, types = 0, records = 0, nested_types = 0;
  for (const auto& path : test::corpus_plugins()) {
    const auto bytes = FileBytes::hold(test::read_file(path), path.filename().string());
    const PluginFile full = PluginFile::parse(bytes);
    PluginOutline outline = PluginOutline::parse(bytes);
    SCOPED_TRACE(path.filename().string());
    EXPECT_EQ(outline.header().masters.size(), full.header().masters.size());
    if (outline.game_is_known()) EXPECT_EQ(outline.game(), full.game());
    else EXPECT_EQ(outline.index_all().game(), full.game());

    // Top-level groups: the full index's entries without a parent.
    std::vector<std::uint32_t> top;
    for (std::uint32_t i = 1; i < full.entries().size(); ++i)
      if (full.entry(i).parent == kNoParent) top.push_back(i);
    ASSERT_EQ(outline.top_groups().size(), top.size());
    for (std::size_t g = 0; g < top.size(); ++g) EXPECT_EQ(outline.top_groups()[g].offset, full.entry(top[g]).offset);

    for (const auto& [type, count] : full.stats().records_by_type) {
      std::vector<std::uint64_t> want;
      std::vector<IndexEntry> want_entries;
      for (const IndexEntry& e : full.entries().subspan(1)) {
        if (!e.is_group() && e.type == type) {
          want.push_back(e.offset);
          want_entries.push_back(e);
        }
      }
      std::vector<std::uint64_t> got;
      std::vector<IndexEntry> got_entries;
      const auto groups = outline.groups_holding(type);
      for (std::size_t g : groups) {
        for (const IndexEntry& e : outline.group(g)) {
          if (!e.is_group() && e.type == type) {
            got.push_back(e.offset);
            got_entries.push_back(e);
          }
        }
      }
      ASSERT_EQ(got, want) << type.str();
      if (groups.size() > 1) ++nested_types;
      const auto ids = editor_ids_of(outline, got_entries, 2);
      for (std::size_t k = 0; k < want_entries.size(); ++k)
        ASSERT_EQ(ids[k], full.editor_id(want_entries[k])) << type.str() << " at " << want_entries[k].offset;
      ++types;
      records += want.size();
    }
    ++plugins;
  }
  ASSERT_GT(plugins, 0u);
  std::cout << "outline: " << plugins << " plugins, " << types << " record types (" << nested_types
            << " read from more than one top-level group), " << records << " records read as indexed in full\n";
}

TEST(PluginOutlineCorpus, DamageInsideAGroupIsReportedWhenItIsRead) {
  TESMOD_REQUIRE_CORPUS();
  std::size_t cases = 0;
  for (const auto& path : test::corpus_plugins()) {
    const std::vector<std::uint8_t> original = test::read_file(path);
    const std::string name = path.filename().string();
    const PluginFile full = PluginFile::parse(FileBytes::hold(original, name));
    std::vector<std::uint32_t> top;
    for (std::uint32_t i = 1; i < full.entries().size(); ++i)
      if (full.entry(i).parent == kNoParent) top.push_back(i);
    for (std::size_t g = 0; g < top.size(); ++g) {
      const IndexEntry& group = full.entry(top[g]);
      if (group.end == top[g] + 1) continue;  // empty
      // The group's last entry gets a type no record has.
      std::vector<std::uint8_t> bytes = original;
      std::copy_n("a!b?", 4, bytes.begin() + std::ptrdiff_t(full.entry(group.end - 1).offset));
      const auto damaged = FileBytes::hold(std::move(bytes), name);
      std::string want;
      try {
        PluginFile::parse(damaged);
      } catch (const Error& e) {
        want = e.what();
      }
      ASSERT_FALSE(want.empty()) << name << " group " << g;
      PluginOutline outline = PluginOutline::parse(damaged);
      for (std::size_t other = 0; other < top.size(); ++other)
        if (other != g) outline.group(other);  // the sound groups read
      try {
        outline.group(g);
        ADD_FAILURE() << name << ": damage in group " << g << " not reported";
      } catch (const Error& e) {
        ASSERT_EQ(std::string(e.what()), want);
      }
      ++cases;
    }
  }
  std::cout << "outline: " << cases << " damaged groups, each reported as a full open reports it\n";
}
