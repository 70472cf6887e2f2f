// Myers' difference algorithm ("An O(ND) Difference Algorithm and Its Variations", 1986) in its
// linear-space form: find the middle snake of the box by searching from both corners at once,
// then solve the two boxes before and after it. Lines are compared as numbers (equal lines get
// the same number) and common starts and ends are taken off each box first.
#include "tesmod/text/line_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace tesmod::text {
namespace {

// A box whose middle snake is not found within this many steps from each corner (its edit
// distance is over twice this) is given as removed and added whole: the search costs
// O(steps^2) plus the snakes, and a shortest script of so different texts helps nobody.
constexpr std::ptrdiff_t kMaxSteps = 4096;

class Myers {
 public:
  Myers(std::vector<std::uint32_t> a, std::vector<std::uint32_t> b) : a_(std::move(a)), b_(std::move(b)) {
    const std::size_t steps = std::min<std::size_t>((a_.size() + b_.size() + 1) / 2, kMaxSteps) + 1;
    forward_.resize(2 * steps + 3);
    backward_.resize(2 * steps + 3);
  }

  std::vector<LineOp> run() {
    compare(0, std::ptrdiff_t(a_.size()), 0, std::ptrdiff_t(b_.size()));
    return std::move(ops_);
  }

 private:
  // The path from (x0, y0) to (x1, y1): one step then a diagonal (forward), or a diagonal then
  // one step (backward); no step when the two corners are on one diagonal.
  struct Snake {
    std::ptrdiff_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool step_first = true;
  };

  void emit(LineOp op, std::ptrdiff_t n) { ops_.insert(ops_.end(), std::size_t(n), op); }

  // The script for a[a0, a1) against b[b0, b1), appended to ops_.
  void compare(std::ptrdiff_t a0, std::ptrdiff_t a1, std::ptrdiff_t b0, std::ptrdiff_t b1) {
    while (a0 < a1 && b0 < b1 && a_[std::size_t(a0)] == b_[std::size_t(b0)]) {
      ops_.push_back(LineOp::Same);
      ++a0, ++b0;
    }
    std::ptrdiff_t common_end = 0;
    while (a0 < a1 && b0 < b1 && a_[std::size_t(a1 - 1)] == b_[std::size_t(b1 - 1)]) {
      --a1, --b1;
      ++common_end;
    }
    if (a0 == a1) {
      emit(LineOp::Added, b1 - b0);
    } else if (b0 == b1) {
      emit(LineOp::Removed, a1 - a0);
    } else if (Snake s; middle_snake(a0, a1, b0, b1, s)) {
      compare(a0, s.x0, b0, s.y0);
      const std::ptrdiff_t dx = s.x1 - s.x0, dy = s.y1 - s.y0;
      const LineOp step = dx > dy ? LineOp::Removed : LineOp::Added;
      if (dx != dy && s.step_first) ops_.push_back(step);
      emit(LineOp::Same, std::min(dx, dy));
      if (dx != dy && !s.step_first) ops_.push_back(step);
      compare(s.x1, a1, s.y1, b1);
    } else {
      emit(LineOp::Removed, a1 - a0);
      emit(LineOp::Added, b1 - b0);
    }
    emit(LineOp::Same, common_end);
  }

  // Searches forward from (left, top) and backward from (right, bottom), d steps each, until the
  // furthest paths on one diagonal meet; the forward (or backward) snake that reached it is the
  // middle one. forward_ holds x by diagonal k = x - y (box-relative); backward_ holds y by
  // diagonal c = k - delta. False when the cost passes kMaxSteps.
  bool middle_snake(std::ptrdiff_t left, std::ptrdiff_t right, std::ptrdiff_t top, std::ptrdiff_t bottom, Snake& out) {
    const std::ptrdiff_t width = right - left, height = bottom - top;
    const std::ptrdiff_t delta = width - height;
    const bool odd = (delta & 1) != 0;
    const std::ptrdiff_t max = std::min<std::ptrdiff_t>((width + height + 1) / 2, kMaxSteps);
    const std::ptrdiff_t off = max + 1;
    auto vf = [&](std::ptrdiff_t k) -> std::ptrdiff_t& { return forward_[std::size_t(off + k)]; };
    auto vb = [&](std::ptrdiff_t c) -> std::ptrdiff_t& { return backward_[std::size_t(off + c)]; };
    auto same = [&](std::ptrdiff_t x, std::ptrdiff_t y) { return a_[std::size_t(x)] == b_[std::size_t(y)]; };
    vf(1) = left;
    vb(1) = bottom;
    for (std::ptrdiff_t d = 0; d <= max; ++d) {
      for (std::ptrdiff_t k = d; k >= -d; k -= 2) {
        std::ptrdiff_t x, px;
        if (k == -d || (k != d && vf(k - 1) < vf(k + 1))) {
          px = x = vf(k + 1);  // down: a line of b added
        } else {
          px = vf(k - 1);  // right: a line of a removed
          x = px + 1;
        }
        std::ptrdiff_t y = top + (x - left) - k;
        const std::ptrdiff_t py = (d == 0 || x != px) ? y : y - 1;
        while (x < right && y < bottom && same(x, y)) ++x, ++y;
        vf(k) = x;
        const std::ptrdiff_t c = k - delta;
        if (odd && c >= -(d - 1) && c <= d - 1 && y >= vb(c)) {
          out = {px, py, x, y, true};
          return true;
        }
      }
      for (std::ptrdiff_t c = d; c >= -d; c -= 2) {
        std::ptrdiff_t y, py;
        if (c == -d || (c != d && vb(c - 1) > vb(c + 1))) {
          py = y = vb(c + 1);  // left: a line of a removed
        } else {
          py = vb(c - 1);  // up: a line of b added
          y = py - 1;
        }
        const std::ptrdiff_t k = c + delta;
        std::ptrdiff_t x = left + (y - top) + k;
        const std::ptrdiff_t px = (d == 0 || y != py) ? x : x + 1;
        while (x > left && y > top && same(x - 1, y - 1)) --x, --y;
        vb(c) = y;
        if (!odd && k >= -d && k <= d && x <= vf(k)) {
          out = {x, y, px, py, false};
          return true;
        }
      }
    }
    return false;
  }

  std::vector<std::uint32_t> a_, b_;
  std::vector<std::ptrdiff_t> forward_, backward_;
  std::vector<LineOp> ops_;
};

// Within each run of changes, removed lines before added ones (as diff and git print them).
void removed_first(std::vector<LineOp>& ops) {
  for (auto it = ops.begin(); it != ops.end();) {
    if (*it == LineOp::Same) {
      ++it;
      continue;
    }
    const auto end = std::find(it, ops.end(), LineOp::Same);
    std::stable_partition(it, end, [](LineOp op) { return op == LineOp::Removed; });
    it = end;
  }
}

std::string range_text(std::size_t start, std::size_t count) {
  return count == 1 ? fmt::format("{}", start) : fmt::format("{},{}", start, count);
}

}  // namespace

std::vector<LineEdit> diff_lines(std::span<const std::string_view> old_lines,
                                 std::span<const std::string_view> new_lines) {
  std::unordered_map<std::string_view, std::uint32_t> numbers;
  auto number_all = [&numbers](std::span<const std::string_view> lines) {
    std::vector<std::uint32_t> out;
    out.reserve(lines.size());
    for (std::string_view line : lines)
      out.push_back(numbers.try_emplace(line, std::uint32_t(numbers.size())).first->second);
    return out;
  };
  std::vector<std::uint32_t> a = number_all(old_lines);
  std::vector<std::uint32_t> b = number_all(new_lines);
  std::vector<LineOp> ops = Myers(std::move(a), std::move(b)).run();
  removed_first(ops);
  std::vector<LineEdit> out;
  out.reserve(ops.size());
  std::size_t i = 0, j = 0;
  for (LineOp op : ops) {
    out.push_back({op, i, j});
    if (op != LineOp::Added) ++i;
    if (op != LineOp::Removed) ++j;
  }
  return out;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

std::vector<DiffHunk> diff_hunks(std::span<const LineEdit> edits, std::size_t context) {
  std::vector<DiffHunk> out;
  std::size_t i = 0;
  while (i < edits.size()) {
    if (edits[i].op == LineOp::Same) {
      ++i;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` lines after the last change
    // that follows it with at most 2 * context unchanged lines between.
    const std::size_t first = i >= context ? i - context : 0;
    std::size_t last_change = i;
    for (std::size_t k = i + 1; k < edits.size() && k - last_change <= 2 * context + 1; ++k)
      if (edits[k].op != LineOp::Same) last_change = k;
    const std::size_t end = std::min(edits.size(), last_change + context + 1);
    DiffHunk hunk;
    hunk.edits.assign(edits.begin() + std::ptrdiff_t(first), edits.begin() + std::ptrdiff_t(end));
    for (const LineEdit& e : hunk.edits) {
      hunk.old_count += e.op != LineOp::Added;
      hunk.new_count += e.op != LineOp::Removed;
    }
    hunk.old_start = edits[first].old_index + (hunk.old_count ? 1 : 0);
    hunk.new_start = edits[first].new_index + (hunk.new_count ? 1 : 0);
    out.push_back(std::move(hunk));
    i = end;
  }
  return out;
}

std::string hunk_header(const DiffHunk& hunk) {
  return fmt::format("@@ -{} +{} @@", range_text(hunk.old_start, hunk.old_count),
                     range_text(hunk.new_start, hunk.new_count));
}

std::string unified_diff(std::span<const std::string_view> old_lines, std::span<const std::string_view> new_lines,
                         std::size_t context) {
  std::string out;
  const std::vector<LineEdit> edits = diff_lines(old_lines, new_lines);
  for (const DiffHunk& hunk : diff_hunks(edits, context)) {
    out += hunk_header(hunk);
    out += '\n';
    for (const LineEdit& e : hunk.edits) {
      out += char(e.op);
      out += e.op == LineOp::Added ? new_lines[e.new_index] : old_lines[e.old_index];
      out += '\n';
    }
  }
  return out;
}

}  // namespace tesmod::text
