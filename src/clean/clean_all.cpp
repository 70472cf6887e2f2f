// `clean --all --dry-run`: a plan for every active plugin of a load order, the CLI's and the
// Python module's one way of making them.
#include "tesmod/clean/clean.hpp"
#include "tesmod/io/workers.hpp"

namespace tesmod::clean {

std::vector<PluginCleanPlan> plan_cleaning_all(const loadorder::LoadOrder& order, const CleanOptions& options) {
  const std::vector<std::uint32_t>& active = order.active();
  // The plugins with masters are indexed; the others (the game's masters) are walked once, for
  // the records the plugins override and their own deleted records (MasterRecords).
  std::vector<std::uint32_t> with_masters;
  for (std::uint32_t p : active)
    if (!order.plugin(p).masters.empty()) with_masters.push_back(p);
  order.read_files(with_masters);
  const MasterRecords masters = MasterRecords::collect(order, active);
  std::vector<PluginCleanPlan> plans(active.size());
  run_workers(active.size(), order.threads(), [&](auto claim) {
    for (std::size_t k = claim(); k < active.size(); k = claim()) {
      plans[k].position = active[k];
      try {
        CleanReport r = plan_cleaning(order, active[k], options, &masters);
        set_crc_after(order, active[k], r);
        plans[k].report = std::move(r);
      } catch (const std::exception& e) {
        plans[k].error = e.what();
      }
    }
  });
  return plans;
}

}  // namespace tesmod::clean
