#include "record_type_table.hpp"

#include <algorithm>
#include <unordered_map>

namespace tesmod::loadorder {

RecordTypeTable RecordTypeTable::build(std::span<const IndexEntry> entries, std::uint32_t own_index) {
  RecordTypeTable t;
  t.own_ = own_index;
  // Record types get codes in order of first appearance; a plugin has a few hundred at most,
  // but a damaged index could name more than a code holds: those go unnamed (not found).
  std::unordered_map<std::uint32_t, std::uint16_t> codes;
  Signature last_type;  // records come in groups of one type: most lookups are the last one's
  std::uint16_t last_code = 0;
  auto code_of = [&](Signature type) -> std::uint16_t {
    if (type == last_type && last_code) return last_code;
    const auto [it, fresh] = codes.emplace(type.value(), std::uint16_t(0));
    if (fresh && t.types_.size() < 0xFFFF) {
      t.types_.push_back(type);
      it->second = std::uint16_t(t.types_.size());
    }
    last_type = type;
    last_code = it->second;
    return it->second;
  };

  // The dense range: the plugin's own records' object ids, unless they are spread so thinly that
  // a list is smaller.
  std::uint32_t low = 0xFFFFFF, high = 0;
  std::size_t own_records = 0;
  for (std::size_t i = 1; i < entries.size(); ++i) {
    const IndexEntry& e = entries[i];
    if (e.is_group()) continue;
    code_of(e.type);
    if ((e.id >> 24) != own_index) continue;
    low = std::min(low, e.id & 0xFFFFFF);
    high = std::max(high, e.id & 0xFFFFFF);
    ++own_records;
  }
  // A byte a code: a (damaged) plugin of more record types than that is looked up in the list.
  if (own_records && t.types_.size() <= 0xFF && std::size_t(high - low) + 1 <= own_records * 4 + 65536) {
    t.base_ = low;
    t.dense_.assign(std::size_t(high - low) + 1, 0);
  }

  std::vector<std::uint32_t> duplicate_ids;
  std::vector<std::pair<std::uint64_t, std::uint16_t>> listed;  // (FormID << 32 | entry index, code)
  for (std::size_t i = 1; i < entries.size(); ++i) {
    const IndexEntry& e = entries[i];
    if (e.is_group()) continue;
    const std::uint32_t object = e.id & 0xFFFFFF;
    const std::uint16_t code = code_of(e.type);
    if ((e.id >> 24) == own_index && object - t.base_ < t.dense_.size()) {
      std::uint8_t& slot = t.dense_[object - t.base_];
      if (slot) duplicate_ids.push_back(e.id);
      else slot = std::uint8_t(code);
    } else {
      listed.emplace_back(std::uint64_t(e.id) << 32 | i, code);
    }
  }
  std::sort(listed.begin(), listed.end());
  for (std::size_t k = 0; k < listed.size(); ++k) {
    const std::uint32_t id = std::uint32_t(listed[k].first >> 32);
    if (k > 0 && std::uint32_t(listed[k - 1].first >> 32) == id) {
      duplicate_ids.push_back(id);
      continue;
    }
    t.sparse_.emplace_back(id, listed[k].second);
  }

  // Rare: the entries of the FormIDs used more than once, each against the first.
  if (!duplicate_ids.empty()) {
    std::sort(duplicate_ids.begin(), duplicate_ids.end());
    duplicate_ids.erase(std::unique(duplicate_ids.begin(), duplicate_ids.end()), duplicate_ids.end());
    std::unordered_map<std::uint32_t, std::uint32_t> first;
    for (std::uint32_t i = 1; i < entries.size(); ++i) {
      const IndexEntry& e = entries[i];
      if (e.is_group() || !std::binary_search(duplicate_ids.begin(), duplicate_ids.end(), e.id)) continue;
      const auto [it, fresh] = first.emplace(e.id, i);
      if (!fresh) t.duplicates_.emplace_back(i, it->second);
    }
  }
  return t;
}

}  // namespace tesmod::loadorder
