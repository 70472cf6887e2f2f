// Damaged input: every corpus plugin truncated at 200 offsets and with random bytes flipped at
// 200 more. Each case either reads (and then writes back exactly the bytes it read) or fails
// with a tesmod::Error that names the file and a byte offset; and the outline reader agrees with
// the full index on it. Run under ASan+UBSan, an out-of-bounds read or a crash fails the suite.
#include <gtest/gtest.h>

#include <random>

#include "read_all_layers.hpp"
#include "test_support.hpp"
#include "tesmod/plugin/plugin_file.hpp"

using namespace tesmod;

namespace {

struct Tally {
  std::uint64_t parsed = 0, rejected = 0;
};

void exercise(const std::vector<std::uint8_t>& bytes, const std::string& name, std::uint32_t form_id, unsigned threads,
              Tally& tally) {
  ASSERT_EQ(test::outline_disagreement(bytes, name), "") << name;
  try {
    const test::LayersResult r = test::read_all_layers(bytes, name, form_id, threads);
    ASSERT_TRUE(r.written_back_identically)
        << name << ": a damaged file that reads must be written back as read (first difference at "
        << r.first_difference << ")";
    ++tally.parsed;
  } catch (const Error& e) {
    ++tally.rejected;
    ASSERT_EQ(e.file(), name);
    ASSERT_NE(e.offset(), Error::kNoOffset) << e.what();
    ASSERT_LE(e.offset(), bytes.size()) << e.what();
    ASSERT_FALSE(e.detail().empty());
  }
}

}  // namespace

TEST(Robustness, TruncatedAndCorruptedCorpusPlugins) {
  TESMOD_REQUIRE_CORPUS();
  Tally truncated, flipped;
  for (const auto& path : test::corpus_plugins()) {
    const std::vector<std::uint8_t> original = test::read_file(path);
    const std::string name = path.filename().string();
    PluginFile index = PluginFile::parse(FileBytes::hold(original, name));
    auto form_id_at = [&](std::size_t offset) {
      auto i = index.entry_at(offset);
      return i ? index.entry(*i).id : 0u;
    };
    // 200 truncation points spread over the file.
    constexpr int kCases = 200;
    for (int k = 0; k < kCases; ++k) {
      const std::size_t cut = original.size() * std::size_t(k) / kCases;
      std::vector<std::uint8_t> bytes(original.begin(), original.begin() + std::ptrdiff_t(cut));
      exercise(bytes, name, form_id_at(cut), 1 + unsigned(k % 2), truncated);
      if (HasFatalFailure()) return;
    }
    // 200 cases of 1 to 4 random bytes overwritten, seeded by the file so runs repeat.
    std::mt19937_64 rng(std::hash<std::string>{}(name));
    for (int k = 0; k < kCases && !original.empty(); ++k) {
      std::vector<std::uint8_t> bytes = original;
      const int n = 1 + int(rng() % 4);
      std::size_t at = 0;
      for (int j = 0; j < n; ++j) {
        at = rng() % bytes.size();
        bytes[at] = std::uint8_t(rng());
      }
      exercise(bytes, name, form_id_at(at), 1 + unsigned(k % 2), flipped);
      if (HasFatalFailure()) return;
    }
  }
  // Both kinds of damage produce both outcomes: the test reaches deep into valid structure.
  EXPECT_GT(truncated.rejected, 10000u);
  EXPECT_GT(flipped.parsed, 1000u);
  EXPECT_GT(flipped.rejected, 1000u);
  std::cout << "truncated: " << truncated.parsed << " read, " << truncated.rejected << " rejected; flipped: "
            << flipped.parsed << " read, " << flipped.rejected << " rejected\n";
}
