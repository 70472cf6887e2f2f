#include "tesmod/plugin/master_match.hpp"

#include <unordered_set>

#include <fmt/format.h>

namespace tesmod {

std::string MasterMatch::describe(std::string_view master_name) const {
  return fmt::format("{}: {} of the {} forms this plugin uses from it exist in the file beside it", master_name,
                     found, checked);
}

MasterMatch match_master(const PluginFile& master, std::uint32_t master_index,
                         std::span<const std::uint32_t> form_ids) {
  // The master's own records carry its own file index: one past its master list.
  const auto own = static_cast<std::uint32_t>(master.header().masters.size());
  std::unordered_set<std::uint32_t> defined;
  for (const IndexEntry& e : master.entries().subspan(1))
    if (!e.is_group() && (e.id >> 24) == own) defined.insert(e.id & 0xFFFFFF);
  MasterMatch m;
  std::unordered_set<std::uint32_t> seen;
  for (std::uint32_t id : form_ids) {
    if ((id >> 24) != master_index || !seen.insert(id).second) continue;
    ++m.checked;
    if (defined.count(id & 0xFFFFFF)) ++m.found;
  }
  return m;
}

}  // namespace tesmod
