// The masters' versions of the records plugins override, found in one pass over each master (a
// bit test an entry) instead of a FormID index of every master record: cleaning a plugin of a few
// thousand records against a master of a million looks up only those, and cleaning a whole load
// order reads each master once for all its plugins.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "tesmod/loadorder/load_order.hpp"

namespace tesmod::clean {

class MasterRecords {
 public:
  // The versions every master of these plugins has of the records they override, each master
  // walked once (LoadOrder::find_records: a master that is not indexed yet, such as the game's,
  // is not indexed for this). A master that does not read keeps its error (error()).
  static MasterRecords collect(const loadorder::LoadOrder& order, std::span<const std::uint32_t> plugins);

  // The first record of plugin `position` with this stored FormID, if it is one collected.
  std::optional<IndexEntry> find(std::uint32_t position, std::uint32_t stored_form_id) const;
  // Why master `position` did not read, if it did not (rethrow it), else null.
  std::exception_ptr error(std::uint32_t position) const {
    return position < errors_.size() ? errors_[position] : nullptr;
  }

  // A plugin without masters has nothing to clean but reports its deleted records: the walk of
  // such a master keeps those too (with end = full-index position + 1, as find_records numbers
  // them) and the number of entries its full index holds, for its own plan.
  struct OwnDeleted {
    std::vector<IndexEntry> records;
    std::uint32_t entry_count = 0;
  };
  const OwnDeleted* own_deleted(std::uint32_t position) const {
    return position < own_deleted_.size() && own_deleted_[position] ? &*own_deleted_[position] : nullptr;
  }

 private:
  // Per plugin position: (stored FormID, the first record with it), sorted by FormID.
  std::vector<std::vector<std::pair<std::uint32_t, IndexEntry>>> found_;
  std::vector<std::exception_ptr> errors_;
  std::vector<std::optional<OwnDeleted>> own_deleted_;
};

}  // namespace tesmod::clean
