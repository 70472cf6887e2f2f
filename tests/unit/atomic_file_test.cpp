#include <gtest/gtest.h>

#include "test_support.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/atomic_file.hpp"

using namespace tesmod;

TEST(AtomicFile, CommitReplacesTheTarget) {
  test::TempDir dir;
  const auto target = dir / "out.esp";
  test::write_file(target, {1, 2, 3});
  write_file_atomic(target, std::vector<std::uint8_t>{9, 8, 7, 6});
  EXPECT_EQ(test::read_file(target), (std::vector<std::uint8_t>{9, 8, 7, 6}));
  // No temporary file is left behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
}

TEST(AtomicFile, WithoutCommitTheTargetIsUntouched) {
  test::TempDir dir;
  const auto target = dir / "out.esp";
  test::write_file(target, {1, 2, 3});
  {
    AtomicFile f(target);
    std::vector<std::uint8_t> big(3 << 20, 0xAB);  // more than the buffer, so it reaches the disk
    f.write(big);
  }
  EXPECT_EQ(test::read_file(target), (std::vector<std::uint8_t>{1, 2, 3}));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
}

TEST(AtomicFile, UnwritableFolderIsAnError) {
  EXPECT_THROW(write_file_atomic("/nonexistent-folder/x.esp", std::vector<std::uint8_t>{1}), Error);
}
