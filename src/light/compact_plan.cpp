// Which of a plugin's new records move where: read from the plugins' indices alone.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "tesmod/error.hpp"
#include "tesmod/light/compact.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod::light {

namespace {

// The free ids of [first, last] in ascending order, skipping the used ones, until `count` are found.
void take_free(std::uint32_t first, std::uint32_t last, const std::set<std::uint32_t>& used, std::size_t count,
               std::vector<std::uint32_t>& out) {
  for (std::uint32_t id = first; id <= last && out.size() < count; ++id)
    if (!used.contains(id)) out.push_back(id);
}

}  // namespace

CompactPlan plan_compaction(const loadorder::LoadOrder& order, std::uint32_t position, const CompactOptions& options) {
  const loadorder::LoadOrderPlugin& plugin = order.plugin(position);
  if (!plugin.readable()) throw Error(plugin.name, Error::kNoOffset, std::nullopt, plugin.error);
  if (order.game() != Game::SkyrimSE) {
    throw Error(plugin.name, Error::kNoOffset, std::nullopt,
                fmt::format("light plugins are Skyrim SE's; this load order is {}", game_title(order.game())));
  }
  CompactPlan plan;
  plan.position = position;
  plan.plugin = plugin.name;
  plan.own_index = std::uint32_t(plugin.masters.size());
  plan.hedr_before = plugin.header.version;
  plan.next_object_id_before = plan.next_object_id = plugin.header.next_object_id;
  plan.set_hedr171 = options.hedr171 && !hedr_allows_low_range(plugin.header.version);
  plan.set_flag = options.flag && !(plugin.header.flags & record_flags::kLight);
  for (std::uint32_t p = 0; p < order.plugins().size(); ++p) {
    const auto& positions = order.plugin(p).master_positions;
    if (p != position && std::find(positions.begin(), positions.end(), std::optional<std::uint32_t>(position)) != positions.end())
      plan.dependants.push_back(p);
  }
  // The low range (0x000-0x7FF) needs HEDR 1.71, and serves only a plugin that has a master and
  // that no dependant names first: a FormID whose file index is 00 and whose object id is below
  // 0x800 is the game's hard-coded form (esl_check.hpp).
  const float hedr_after = options.hedr171 ? kHedr171 : plugin.header.version;
  plan.range = light_range(hedr_after);
  std::string low_range_closed;
  if (plan.range.first < kLightFirst) {
    if (plan.own_index == 0) low_range_closed = "the plugin has no master";
    for (std::uint32_t p : plan.dependants)
      if (low_range_closed.empty() && !order.plugin(p).master_positions.empty() &&
          order.plugin(p).master_positions[0] == position)
        low_range_closed = order.plugin(p).name + " names it as its first master";
    if (!low_range_closed.empty()) plan.range.first = kLightFirst;
  }

  // The plugin's own records: every FormID whose file index is past the master list (an index
  // beyond it names the plugin too, as the game reads it).
  const PluginFile& file = order.file(position);
  std::set<std::uint32_t> own;  // object ids
  std::vector<const IndexEntry*> outside;
  for (const IndexEntry& e : file.entries().subspan(1)) {
    if (e.is_group() || (e.id >> 24) < plan.own_index) continue;
    const std::uint32_t object = e.id & 0xFFFFFF;
    if (!own.insert(object).second) continue;  // a duplicate FormID moves with the first
    if (!plan.range.contains(object)) outside.push_back(&e);
  }
  plan.new_records = own.size();
  std::set<std::uint32_t> used;  // ids kept
  for (std::uint32_t id : own)
    if (plan.range.contains(id)) used.insert(id);

  // New ids: 0x800-0xFFF first, then (HEDR 1.71) 0x001-0x7FF; object id 0 is never given (in a
  // plugin without masters it would be the null FormID).
  std::vector<std::uint32_t> free;
  take_free(kLightFirst, kLightLast, used, outside.size(), free);
  if (plan.range.first < kLightFirst) take_free(std::max<std::uint32_t>(plan.range.first, 1), kLightFirst - 1, used, outside.size(), free);
  if (free.size() < outside.size()) {
    const std::size_t room = used.size() + free.size();
    throw Error(plugin.name, Error::kNoOffset, std::nullopt,
                fmt::format("{} new records do not fit the light range {:03X}-{:03X} ({} ids){}", own.size(),
                            std::max<std::uint32_t>(plan.range.first, 1), plan.range.last, room,
                            !low_range_closed.empty() ? ": ids below 800 are closed to it (" + low_range_closed + ")"
                            : options.hedr171        ? std::string(": the plugin cannot be light")
                                                     : std::string(": with --hedr 1.71 the range is 001-FFF (4,095 ids)")));
  }
  std::sort(outside.begin(), outside.end(), [](const IndexEntry* a, const IndexEntry* b) { return (a->id & 0xFFFFFF) < (b->id & 0xFFFFFF); });
  for (std::size_t k = 0; k < outside.size(); ++k) {
    const IndexEntry& e = *outside[k];
    const std::uint32_t to = free[k];
    plan.object_map.emplace(e.id & 0xFFFFFF, to);
    Renumbered r;
    r.from = plan.own_index << 24 | (e.id & 0xFFFFFF);
    r.to = plan.own_index << 24 | to;
    r.type = e.type;
    if (auto edid = file.editor_id(e)) r.editor_id = std::move(*edid);
    plan.renumbered.push_back(std::move(r));
    used.insert(to);
  }
  if (!plan.renumbered.empty()) plan.next_object_id = *used.rbegin() + 1;

  // Ids below 0x800 are read only by a game that reads the plugin as 1.71, and a dependant that
  // names one must be 1.71 too.
  if (!used.empty() && *used.begin() < kLightFirst) {
    for (std::uint32_t p : plan.dependants) {
      if (hedr_allows_low_range(order.plugin(p).header.version)) continue;
      if (options.hedr171) plan.dependants_to_171.push_back(p);
      else
        plan.warnings.push_back(fmt::format("{} (a dependant) has HEDR {}; the plugin's ids below 800 need it at 1.71 "
                                            "(pass --hedr 1.71 to set it)",
                                            order.plugin(p).name, order.plugin(p).header.version_text()));
    }
  }
  for (std::uint32_t p : plan.dependants)
    if (!order.plugin(p).readable())
      throw Error(order.plugin(p).name, Error::kNoOffset, std::nullopt,
                  fmt::format("a dependant of {} does not read: {}", plan.plugin, order.plugin(p).error));
  return plan;
}

}  // namespace tesmod::light
