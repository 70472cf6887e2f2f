// What the load-order tests ask of a LoadOrder: its plugins' names (all, or the active ones in
// load order) and whether a problem about a file says something.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tesmod/loadorder/load_order.hpp"

namespace tesmod::test {

inline std::vector<std::string> names(const loadorder::LoadOrder& o) {
  std::vector<std::string> out;
  for (const loadorder::LoadOrderPlugin& p : o.plugins()) out.push_back(p.name);
  return out;
}

inline std::vector<std::string> active_names(const loadorder::LoadOrder& o) {
  std::vector<std::string> out;
  for (std::uint32_t p : o.active()) out.push_back(o.plugin(p).name);
  return out;
}

inline bool has_problem(const loadorder::LoadOrder& o, std::string_view file, std::string_view text) {
  for (const loadorder::Problem& p : o.problems())
    if (p.file == file && p.message.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace tesmod::test
