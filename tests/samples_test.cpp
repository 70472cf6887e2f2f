// The sample plugins and save in samples/ are what the sample builder writes today: the writers
// are deterministic, and the committed files stay in step with them.
#include <gtest/gtest.h>

#include "load_order_sample.hpp"
#include "sample_builder.hpp"
#include "test_support.hpp"

using namespace tesmod;

TEST(Samples, CommittedSamplesMatchTheBuilder) {
  test::TempDir dir;
  samples::write_all(dir.path());
  const std::filesystem::path committed = std::filesystem::path(TESMOD_SOURCE_DIR) / "samples";
  std::size_t compared = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir.path())) {
    if (!e.is_regular_file()) continue;
    const auto rel = std::filesystem::relative(e.path(), dir.path());
    SCOPED_TRACE(rel.string());
    ASSERT_TRUE(std::filesystem::exists(committed / rel)) << "regenerate with: build/tools/make_samples/tesmod_make_samples samples";
    EXPECT_EQ(test::read_file(e.path()), test::read_file(committed / rel));
    ++compared;
  }
  // Three plugins, three string tables, a save; the load order's six plugins and plugins.txt.
  EXPECT_EQ(compared, 14u);
}

TEST(Samples, BuildingTwiceGivesTheSameBytes) {
  EXPECT_EQ(samples::skyrim_sample().serialize(), samples::skyrim_sample().serialize());
  EXPECT_EQ(samples::oblivion_sample().serialize(), samples::oblivion_sample().serialize());
  EXPECT_EQ(samples::oblivion_save_sample().to_bytes(), samples::oblivion_save_sample().to_bytes());
  auto first = samples::load_order_sample(), second = samples::load_order_sample();
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i].serialize(), second[i].serialize()) << first[i].name();
}
