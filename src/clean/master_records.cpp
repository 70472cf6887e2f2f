#include "tesmod/clean/master_records.hpp"

#include <algorithm>
#include <mutex>
#include <unordered_set>

#include "tesmod/io/workers.hpp"

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
  std::unordered_map<std::uint32_t, Wanted> wanted;  // master position -> ids
  for (std::uint32_t p : plugins) {
    const loadorder::LoadOrderPlugin& plugin = order.plugin(p);
    const std::size_t masters = plugin.masters.size();
    if (masters == 0) continue;
    std::vector<std::uint32_t> readable;
    for (const auto& m : plugin.master_positions) {
      if (!m) continue;
      try {
        order.file(*m);
        readable.push_back(*m);
      } catch (const std::exception&) {
      }
    }
    const PluginFile* file = nullptr;
    try {
      file = &order.file(p);
    } catch (const std::exception&) {
      continue;
    }
    for (const IndexEntry& e : file->entries()) {
      if (e.is_group() || (e.id >> 24) >= masters) continue;
      const auto key = order.key(p, e.id);
      if (!key) continue;
      for (std::uint32_t m : readable)
        if (const auto stored = order.stored_form_id(m, *key)) wanted[m].add(*stored);
    }
  }
  std::vector<std::uint32_t> masters;
  for (const auto& [m, w] : wanted) masters.push_back(m);
  std::sort(masters.begin(), masters.end());
  for (std::uint32_t m : masters) {
    const Wanted& w = wanted.at(m);
    const auto entries = order.file(m).entries();
    auto& found = out.found_[m];
    std::mutex lock;
    // A large master's entries split among the threads; the first of duplicates kept.
    const std::size_t chunks = std::max<std::size_t>(1, std::min<std::size_t>(order.threads() * 4, entries.size() / 65536));
    run_workers(chunks, order.threads(), [&](auto claim) {
      std::vector<std::pair<std::uint32_t, std::uint32_t>> hits;  // (stored id, entry index)
      for (std::size_t c = claim(); c < chunks; c = claim()) {
        const std::size_t from = std::max<std::size_t>(1, entries.size() * c / chunks);
        const std::size_t to = entries.size() * (c + 1) / chunks;
        for (std::size_t i = from; i < to; ++i) {
          const IndexEntry& e = entries[i];
          if (e.is_group() || !w.maybe(e.id) || !w.ids.count(e.id)) continue;
          hits.emplace_back(e.id, std::uint32_t(i));
        }
      }
      std::lock_guard guard(lock);
      for (const auto& [id, i] : hits) found.emplace_back(id, entries[i]);
    });
    // By FormID, the first in the file first; then one a FormID.
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second.offset < b.second.offset;
    });
    found.erase(std::unique(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
                found.end());
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
