// Line diffs: the shortest edit script between two lists of lines (Myers' O(ND) algorithm, in
// linear space), and the hunks of a unified diff (`@@ -5,3 +5,3 @@`) built from it.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tesmod::text {

enum class LineOp : char { Same = ' ', Removed = '-', Added = '+' };

struct LineEdit {
  LineOp op = LineOp::Same;
  std::size_t old_index = 0;  // Same, Removed: the old line; Added: old lines before it
  std::size_t new_index = 0;  // Same, Added: the new line; Removed: new lines before it
};

// Turns old_lines into new_lines: every old line once (Same or Removed) and every new line once
// (Same or Added), in order; within a run of changes the removed lines come first. The script
// is a shortest one unless the two differ in more than about 8,000 lines, where a part that
// differs that much is given as removed and added whole (bounding the time).
std::vector<LineEdit> diff_lines(std::span<const std::string_view> old_lines,
                                 std::span<const std::string_view> new_lines);

// The lines of a text, without their '\n' (a final line without one counts; "" has none).
std::vector<std::string_view> split_lines(std::string_view text);

struct DiffHunk {
  // As a unified diff header gives them: 1-based first line and count (for a count of 0, the
  // line before the hunk).
  std::size_t old_start = 0, old_count = 0;
  std::size_t new_start = 0, new_count = 0;
  std::vector<LineEdit> edits;
};

// Groups an edit script into hunks, each change with up to `context` unchanged lines around
// it; changes closer than twice that share a hunk.
std::vector<DiffHunk> diff_hunks(std::span<const LineEdit> edits, std::size_t context);

// `@@ -5,3 +5,3 @@` (a count of 1 is left out, as diff and git do).
std::string hunk_header(const DiffHunk& hunk);

// The hunks as unified diff text: each header, then each line after its op character.
std::string unified_diff(std::span<const std::string_view> old_lines, std::span<const std::string_view> new_lines,
                         std::size_t context = 3);

}  // namespace tesmod::text
