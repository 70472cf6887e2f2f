#include "tesmod/clean/master_records.hpp"

#include <algorithm>
#include <unordered_set>

#include "tesmod/plugin/record_flags.hpp"

namespace tesmod::clean {

namespace {

// Stored FormIDs wanted from one master: a bit per low 24 bits (2 MiB) for the scan, the full ids
// to confirm a hit.
struct Wanted {
  std::vector<std::uint64_t> bits = std::vector<std::uint64_t>(std::size_t(1) << 18, 0);
  std::unordered_set<std::uint32_t> ids;

  void add(std::uint32_t id) {
    bits[(id & 0xFFFFFF) >> 6] |= std::uint64_t(1) << (id & 63);
    ids.insert(id);
  }
  bool maybe(std::uint32_t id) const { return bits[(id & 0xFFFFFF) >> 6] >> (id & 63) & 1; }
};

}  // namespace

MasterRecords MasterRecords::collect(const loadorder::LoadOrder& order, std::span<const std::uint32_t> plugins) {
  MasterRecords out;
  out.found_.resize(order.plugins().size());
  out.errors_.resize(order.plugins().size());
  out.own_deleted_.resize(order.plugins().size());
  std::unordered_map<std::uint32_t, Wanted> wanted;  // master position -> ids
  std::vector<std::uint32_t> masters;
  for (std::uint32_t p : plugins) {
    const loadorder::LoadOrderPlugin& plugin = order.plugin(p);
    const std::size_t master_count = plugin.masters.size();
    if (master_count == 0) continue;
    std::vector<std::uint32_t> readable;
    for (const auto& m : plugin.master_positions) {
      if (!m || !order.plugin(*m).readable()) continue;  // plan_cleaning reports it
      readable.push_back(*m);
      masters.push_back(*m);
      wanted[*m];
    }
    const PluginFile* file = nullptr;
    try {
      file = &order.file(p);
    } catch (const std::exception&) {
      continue;
    }
    for (const IndexEntry& e : file->entries()) {
      if (e.is_group() || (e.id >> 24) >= master_count) continue;
      const auto key = order.key(p, e.id);
      if (!key) continue;
      for (std::uint32_t m : readable)
        if (const auto stored = order.stored_form_id(m, *key)) wanted[m].add(*stored);
    }
  }
  std::sort(masters.begin(), masters.end());
  masters.erase(std::unique(masters.begin(), masters.end()), masters.end());
  for (std::uint32_t m : masters) {
    const Wanted& w = wanted.at(m);
    // A master without masters is walked for its deleted records as well (its own plan's).
    const bool keep_deleted = order.plugin(m).masters.empty();
    std::uint32_t entry_count = 0;
    std::vector<IndexEntry> records;
    try {
      records = order.find_records(
          m,
          [&](const IndexEntry& e) {
            return (keep_deleted && (e.flags & record_flags::kDeleted)) || (w.maybe(e.id) && w.ids.count(e.id));
          },
          &entry_count);
    } catch (...) {
      out.errors_[m] = std::current_exception();
      continue;
    }
    auto& found = out.found_[m];
    for (const IndexEntry& e : records)
      if (w.maybe(e.id) && w.ids.count(e.id)) found.emplace_back(e.id, e);
    // By FormID, the first in the file first (records come in file order); then one a FormID.
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    found.erase(std::unique(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
                found.end());
    if (keep_deleted) {
      OwnDeleted own;
      own.entry_count = entry_count;
      for (const IndexEntry& e : records)
        if (e.flags & record_flags::kDeleted) own.records.push_back(e);
      out.own_deleted_[m] = std::move(own);
    }
  }
  return out;
}

std::optional<IndexEntry> MasterRecords::find(std::uint32_t position, std::uint32_t stored_form_id) const {
  if (position >= found_.size()) return std::nullopt;
  const auto& found = found_[position];
  const auto it = std::lower_bound(found.begin(), found.end(), stored_form_id,
                                   [](const auto& entry, std::uint32_t id) { return entry.first < id; });
  if (it == found.end() || it->first != stored_form_id) return std::nullopt;
  return it->second;
}

}  // namespace tesmod::clean
