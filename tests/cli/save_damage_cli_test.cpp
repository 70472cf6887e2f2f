// Damaged saves through the CLI: every corpus save truncated and overwritten at spread-out
// offsets, then `save info`, `save npc --player`, `verify --deep` and `save edit`. Each command
// either succeeds or exits 1 with one "tesmod: error:" message naming the file; nothing crashes
// (ASan/UBSan builds run this too). `save edit` on a save it cannot read writes nothing and
// leaves its input as it was.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

#include "test_support.hpp"

using namespace tesmod;
using test::run_cli;

namespace {

std::vector<std::filesystem::path> corpus_saves() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(test::corpus_dir()))
    if (e.is_regular_file() && e.path().extension() == ".ess") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Exit 0, or exit 1 with an error message that names the file (on stderr, as `tesmod: error:`;
// `verify` also says ERROR and the file on stdout).
void expect_clean(const test::CommandResult& r, const std::string& file, const std::string& what) {
  if (r.exit_code == 0) return;
  const std::string message = r.err.empty() ? r.out : r.err;
  EXPECT_EQ(r.exit_code, 1) << what << ": " << message;
  EXPECT_TRUE(message.find("error:") != std::string::npos || message.starts_with("ERROR ")) << what << ": " << message;
  EXPECT_NE(message.find(file), std::string::npos) << what << ": " << message;
}

}  // namespace

TEST(SaveDamageCli, DamagedSavesFailCleanlyAndEditsWriteNothing) {
  TESMOD_REQUIRE_CORPUS();
  const auto saves = corpus_saves();
  ASSERT_FALSE(saves.empty());
  test::TempDir dir;
  std::size_t cases = 0, rejected = 0, edited = 0;
  for (const auto& path : saves) {
    const std::vector<std::uint8_t> original = test::read_file(path);
    std::mt19937_64 rng(std::hash<std::string>{}(path.filename().string()));
    // 4 truncations spread over the file (the header, early and late change records), and 4
    // copies with 1 to 4 bytes overwritten at random.
    std::vector<std::vector<std::uint8_t>> damaged;
    for (int k = 0; k < 4; ++k) {
      const std::size_t cut = k == 0 ? 40 : original.size() * std::size_t(k) / 4;
      damaged.emplace_back(original.begin(), original.begin() + std::ptrdiff_t(std::min(cut, original.size())));
    }
    for (int k = 0; k < 4; ++k) {
      std::vector<std::uint8_t> bytes = original;
      for (int j = 0, n = 1 + int(rng() % 4); j < n; ++j) bytes[rng() % bytes.size()] = std::uint8_t(rng());
      damaged.push_back(std::move(bytes));
    }
    for (std::size_t k = 0; k < damaged.size(); ++k) {
      ++cases;
      const std::string name = fmt::format("damaged_{}.ess", k);
      const auto file = dir / name;
      test::write_file(file, damaged[k]);
      const std::string f = file.string();
      const std::string what = path.filename().string() + " case " + std::to_string(k);
      const auto info = run_cli({"save", "info", f});
      expect_clean(info, name, what + " save info");
      rejected += info.exit_code != 0;
      expect_clean(run_cli({"save", "npc", f, "--player", "--json"}), name, what + " save npc");
      expect_clean(run_cli({"verify", f, "--deep"}), name, what + " verify --deep");

      const auto out = dir / "edited.ess";
      std::filesystem::remove(out);
      const auto edit = run_cli({"save", "edit", f, "--player", "--set", "skill.Blade=50", "-o", out.string()});
      expect_clean(edit, name, what + " save edit");
      if (edit.exit_code != 0) {
        EXPECT_FALSE(std::filesystem::exists(out)) << what;
      } else {
        ++edited;
      }
      EXPECT_EQ(test::read_file(file), damaged[k]) << what << ": the input changed";
      // In place: a refused edit leaves the file as it was.
      const auto in_place = run_cli({"save", "edit", f, "--player", "--set", "skill.Blade=50", "--in-place"});
      expect_clean(in_place, name, what + " save edit --in-place");
      if (in_place.exit_code != 0) {
        EXPECT_EQ(test::read_file(file), damaged[k]) << what << ": a failed edit changed its input";
      }
      if (HasFailure()) return;
    }
  }
  std::cout << "[ damaged saves, CLI ] " << cases << " cases, " << rejected << " rejected by save info, " << edited
            << " edited\n";
  EXPECT_GT(rejected, cases / 4);  // the damage reaches what the reader checks
}
