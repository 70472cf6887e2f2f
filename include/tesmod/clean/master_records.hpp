// The masters' versions of the records plugins override, found in one pass over each master (a
// bit test an entry) instead of a FormID index of every master record: cleaning a plugin of a few
// thousand records against a master of a million looks up only those, and cleaning a whole load
// order reads each master once for all its plugins.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "tesmod/loadorder/load_order.hpp"

namespace tesmod::clean {

class MasterRecords {
 public:
  // The versions every master of these plugins has of the records they override. Masters that do
  // not read are left out (plan_cleaning reports them).
  static MasterRecords collect(const loadorder::LoadOrder& order, std::span<const std::uint32_t> plugins);

  // The first record of plugin `position` with this stored FormID, if it is one collected.
  std::optional<IndexEntry> find(std::uint32_t position, std::uint32_t stored_form_id) const;

 private:
  // Per plugin position: (stored FormID, the first record with it), sorted by FormID.
  std::vector<std::vector<std::pair<std::uint32_t, IndexEntry>>> found_;
};

}  // namespace tesmod::clean
