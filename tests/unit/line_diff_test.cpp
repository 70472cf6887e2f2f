// The line diff: scripts that turn one list into the other, shortest (checked against a dynamic
// programming LCS on random lists), removed lines first, and unified diff hunks as diff -u
// prints them.
#include "tesmod/text/line_diff.hpp"

#include <gtest/gtest.h>

#include <time.h>

#include <random>
#include <string>
#include <vector>

using namespace tesmod::text;

namespace {

// CPU seconds this thread has used: a time limit on it holds on a machine busy with other work
// (a wall-clock limit failed under a parallel build).
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}


std::vector<std::string_view> views(const std::vector<std::string>& lines) { return {lines.begin(), lines.end()}; }

// Checks that edits turn a into b; returns the number of Same lines.
std::size_t check_script(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                         const std::vector<LineEdit>& edits) {
  std::vector<std::string_view> old_side, new_side;
  std::size_t same = 0, i = 0, j = 0;
  for (const LineEdit& e : edits) {
    EXPECT_EQ(e.old_index, i);
    EXPECT_EQ(e.new_index, j);
    if (e.op != LineOp::Added) old_side.push_back(a.at(i++));
    if (e.op != LineOp::Removed) new_side.push_back(b.at(j++));
    if (e.op == LineOp::Same) {
      EXPECT_EQ(a[e.old_index], b[e.new_index]);
      ++same;
    }
  }
  EXPECT_EQ(old_side, a);
  EXPECT_EQ(new_side, b);
  return same;
}

std::size_t lcs_length(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::vector<std::vector<std::size_t>> t(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = a.size(); i-- > 0;)
    for (std::size_t j = b.size(); j-- > 0;)
      t[i][j] = a[i] == b[j] ? t[i + 1][j + 1] + 1 : std::max(t[i + 1][j], t[i][j + 1]);
  return t[0][0];
}

std::string ops(const std::vector<LineEdit>& edits) {
  std::string out;
  for (const LineEdit& e : edits) out += char(e.op);
  return out;
}

std::vector<std::string> numbered(std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 1; i <= n; ++i) out.push_back(std::to_string(i));
  return out;
}

}  // namespace

TEST(LineDiff, IdenticalAndEmpty) {
  const std::vector<std::string> a{"x", "y", "z"};
  EXPECT_EQ(ops(diff_lines(views(a), views(a))), "   ");
  EXPECT_EQ(ops(diff_lines({}, {})), "");
  EXPECT_EQ(ops(diff_lines({}, views(a))), "+++");
  EXPECT_EQ(ops(diff_lines(views(a), {})), "---");
  EXPECT_TRUE(diff_hunks(diff_lines(views(a), views(a)), 3).empty());
}

TEST(LineDiff, MyersPaperExample) {
  // ABCABBA -> CBABAC: edit distance 5, LCS 4.
  const std::vector<std::string> a{"A", "B", "C", "A", "B", "B", "A"};
  const std::vector<std::string> b{"C", "B", "A", "B", "A", "C"};
  const auto edits = diff_lines(views(a), views(b));
  EXPECT_EQ(check_script(views(a), views(b), edits), 4u);
  EXPECT_EQ(edits.size(), 9u);
}

TEST(LineDiff, RemovedLinesComeFirstInAChange) {
  const std::vector<std::string> a{"a", "old1", "old2", "z"};
  const std::vector<std::string> b{"a", "new1", "new2", "new3", "z"};
  EXPECT_EQ(ops(diff_lines(views(a), views(b))), " --+++ ");
}

TEST(LineDiff, ShortestOnRandomLists) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 3000; ++round) {
    const std::size_t alphabet = 1 + rng() % 6;
    const std::size_t length = round % 10 == 0 ? 300 : 40;  // some long enough to split many times
    auto make = [&] {
      std::vector<std::string> out(rng() % length);
      for (auto& s : out) s = std::string(1, char('a' + rng() % alphabet));
      return out;
    };
    std::vector<std::string> a = make(), b = make();
    if (round % 3 == 0) {  // similar lists, as real edits are
      b = a;
      for (int k = int(rng() % 12); k-- > 0 && !b.empty();) b[rng() % b.size()] = "q";
      if (rng() % 2 && !b.empty()) b.erase(b.begin() + long(rng() % b.size()));
    }
    const auto edits = diff_lines(views(a), views(b));
    ASSERT_EQ(check_script(views(a), views(b), edits), lcs_length(views(a), views(b))) << "round " << round;
  }
}

TEST(LineDiff, LongListsWithFewChangesAreQuickAndShortest) {
  std::vector<std::string> a = numbered(200000), b = a;
  b[10] = "ten";
  b.erase(b.begin() + 100000);
  b.insert(b.begin() + 150000, "new");
  const double start = thread_cpu_seconds();
  const auto edits = diff_lines(views(a), views(b));
  EXPECT_LT(thread_cpu_seconds() - start, 2.0);
  EXPECT_EQ(check_script(views(a), views(b), edits), a.size() - 2);
}

TEST(LineDiff, VeryDifferentListsAreStillAValidScript) {
  std::vector<std::string> a = numbered(30000), b;
  for (const auto& s : a) b.push_back("x" + s);
  b.push_back("1");
  const double start = thread_cpu_seconds();
  const auto edits = diff_lines(views(a), views(b));
  EXPECT_LT(thread_cpu_seconds() - start, 5.0);
  check_script(views(a), views(b), edits);
}

TEST(LineDiff, UnifiedDiffAsDiffPrintsIt) {
  const std::vector<std::string> a = numbered(10);
  std::vector<std::string> b = a;
  b[4] = "five";
  EXPECT_EQ(unified_diff(views(a), views(b)),
            "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
  std::vector<std::string> c(a.begin() + 1, a.end());  // first line removed
  EXPECT_EQ(unified_diff(views(a), views(c)), "@@ -1,4 +1,3 @@\n-1\n 2\n 3\n 4\n");
  const std::vector<std::string> one{"a"};
  EXPECT_EQ(unified_diff({}, views(one)), "@@ -0,0 +1 @@\n+a\n");
  EXPECT_EQ(unified_diff(views(one), {}), "@@ -1 +0,0 @@\n-a\n");
}

TEST(LineDiff, HunksMergeWhenContextsTouch) {
  const std::vector<std::string> a = numbered(30);
  std::vector<std::string> b = a;
  b[4] = "x";   // line 5
  b[10] = "y";  // line 11: 5 unchanged lines between, within 2 * 3
  b[25] = "z";  // line 26: far away
  const auto hunks = diff_hunks(diff_lines(views(a), views(b)), 3);
  ASSERT_EQ(hunks.size(), 2u);
  EXPECT_EQ(hunk_header(hunks[0]), "@@ -2,13 +2,13 @@");
  EXPECT_EQ(hunk_header(hunks[1]), "@@ -23,7 +23,7 @@");
  const auto tight = diff_hunks(diff_lines(views(a), views(b)), 0);
  ASSERT_EQ(tight.size(), 3u);
  EXPECT_EQ(hunk_header(tight[1]), "@@ -11 +11 @@");
}

TEST(LineDiff, SplitLines) {
  EXPECT_TRUE(split_lines("").empty());
  EXPECT_EQ(split_lines("a\nb"), (std::vector<std::string_view>{"a", "b"}));
  EXPECT_EQ(split_lines("a\n\nb\n"), (std::vector<std::string_view>{"a", "", "b"}));
}
