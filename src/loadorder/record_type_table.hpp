// The record type of every FormID a plugin's records have, kept small enough to stay in cache
// while `tesmod check` looks up each reference of a load order (millions of them): a byte per
// object id over the range of the plugin's own new records, which are nearly always dense (a
// game has fewer than 255 record types), and a sorted list for the rest (overrides, new records
// far outside that range, and any record type past the 255th).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "tesmod/plugin/plugin_bytes.hpp"

namespace tesmod::loadorder {

class RecordTypeTable {
 public:
  // entries: the plugin's full index; own_index: the file index of its own records (its number
  // of masters).
  static RecordTypeTable build(std::span<const IndexEntry> entries, std::uint32_t own_index);

  // The type of the first record with this stored FormID, if the plugin has one.
  std::optional<Signature> find(std::uint32_t stored_form_id) const {
    std::uint32_t code = 0;
    const std::uint32_t object = stored_form_id & 0xFFFFFF;
    if ((stored_form_id >> 24) == own_ && object - base_ < dense_.size()) {
      code = dense_[object - base_];
    } else {
      const auto it = std::lower_bound(sparse_.begin(), sparse_.end(), std::pair<std::uint32_t, std::uint16_t>{stored_form_id, 0});
      if (it != sparse_.end() && it->first == stored_form_id) code = it->second;
    }
    if (code == 0) return std::nullopt;
    return types_[code - 1];
  }

  // Records whose FormID an earlier record of the plugin has: (entry index, the first one's
  // entry index), by entry index.
  std::span<const std::pair<std::uint32_t, std::uint32_t>> duplicates() const { return duplicates_; }

 private:
  std::vector<Signature> types_;  // code - 1 -> record type
  std::uint32_t own_ = 0;
  std::uint32_t base_ = 0;             // the first object id of the dense range
  std::vector<std::uint8_t> dense_;    // object id - base_ -> code (0: no record)
  std::vector<std::pair<std::uint32_t, std::uint16_t>> sparse_;  // stored FormID -> code, sorted
  std::vector<std::pair<std::uint32_t, std::uint32_t>> duplicates_;
};

}  // namespace tesmod::loadorder
