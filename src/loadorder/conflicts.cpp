#include "tesmod/loadorder/conflicts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "tesmod/io/workers.hpp"
#include "tesmod/loadorder/record_equality.hpp"

namespace tesmod::loadorder {

std::string_view category_name(ConflictCategory category) {
  switch (category) {
    case ConflictCategory::NoConflict: return "no_conflict";
    case ConflictCategory::Override: return "override";
    case ConflictCategory::Conflict: return "conflict";
  }
  return "unknown";
}

std::optional<ConflictCategory> parse_category(std::string_view name) {
  for (ConflictCategory c : {ConflictCategory::NoConflict, ConflictCategory::Override, ConflictCategory::Conflict})
    if (category_name(c) == name) return c;
  return std::nullopt;
}

std::string_view state_name(VersionState state) {
  switch (state) {
    case VersionState::Master: return "master";
    case VersionState::IdenticalToMaster: return "identical_to_master";
    case VersionState::Wins: return "wins";
    case VersionState::Loses: return "loses";
  }
  return "unknown";
}

namespace {

// A record some plugin holds whose FormID names another plugin's form: an override.
struct Override {
  std::uint64_t key;      // FormKey::packed()
  std::uint32_t rank;     // the plugin's place among the active plugins
  std::uint32_t entry;    // index in the plugin's full index
};

// Object ids wanted from one defining plugin, as a bit per 24-bit id (2 MiB), so that scanning
// a master of a million records costs a bit test per record.
class IdSet {
 public:
  IdSet() : bits_(std::size_t(1) << 18, 0) {}
  void add(std::uint32_t id) { bits_[(id & 0xFFFFFF) >> 6] |= std::uint64_t(1) << (id & 63); }
  bool has(std::uint32_t id) const { return bits_[(id & 0xFFFFFF) >> 6] >> (id & 63) & 1; }

 private:
  std::vector<std::uint64_t> bits_;
};

void classify(ConflictRecord& r, const std::vector<LoadedRecord>& values, const RecordComparer& comparer) {
  const std::size_t n = values.size();
  // Equal versions share a class; compare each with the first of every class so far.
  std::vector<std::size_t> cls(n), firsts;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t c = firsts.size();
    for (std::size_t k = 0; k < firsts.size(); ++k)
      if (comparer.equal(values[firsts[k]], values[i])) {
        c = k;
        break;
      }
    if (c == firsts.size()) firsts.push_back(i);
    cls[i] = c;
  }
  const std::size_t winner = n - 1;
  if (firsts.size() == 1) r.category = ConflictCategory::NoConflict;
  else if (firsts.size() == 2 && cls[winner] != cls[0]) r.category = ConflictCategory::Override;
  else r.category = ConflictCategory::Conflict;
  for (std::size_t i = 0; i < n; ++i) {
    ConflictVersion& v = r.versions[i];
    if (i == 0) v.state = VersionState::Master;
    else if (cls[i] == cls[0]) v.state = VersionState::IdenticalToMaster;
    else if (cls[i] == cls[winner]) v.state = VersionState::Wins;
    else v.state = VersionState::Loses;
    v.itpo = i >= 2 && cls[i] == cls[i - 1] && cls[i] != cls[0];
  }
}

}  // namespace

std::vector<ConflictRecord> find_conflicts(const LoadOrder& order, const ConflictOptions& options,
                                           std::vector<Problem>& problems) {
  const std::vector<std::uint32_t>& active = order.active();
  // The plugins that can hold overrides (those with masters) are indexed whole; the others (the
  // game's masters, often hundreds of megabytes) are only walked for the records overridden.
  std::vector<std::uint32_t> with_masters;
  for (std::uint32_t p : active)
    if (!order.plugin(p).masters.empty()) with_masters.push_back(p);
  order.read_files(with_masters);
  std::vector<bool> readable(order.plugins().size(), false);
  for (std::uint32_t p : active) {
    // A plugin without masters whose header reads: its records are checked when walked, below.
    if (order.plugin(p).masters.empty() && order.plugin(p).readable()) {
      readable[p] = true;
      continue;
    }
    try {
      order.file(p);
      readable[p] = true;
    } catch (const std::exception& e) {
      problems.push_back({order.plugin(p).name, fmt::format("left out of the conflicts: {}", e.what())});
    }
  }
  auto wanted_type = [&](Signature t) {
    return options.types.empty() || std::find(options.types.begin(), options.types.end(), t) != options.types.end();
  };
  std::unordered_set<std::uint64_t> wanted_forms;
  for (const FormKey& k : options.forms) wanted_forms.insert(k.packed());

  // Every override among the active plugins, on several threads (a plugin each).
  std::vector<std::vector<Override>> per_plugin(active.size());
  run_workers(active.size(), order.threads(), [&](auto claim) {
    for (std::size_t rank = claim(); rank < active.size(); rank = claim()) {
      const std::uint32_t p = active[rank];
      if (!readable[p]) continue;
      const LoadOrderPlugin& plugin = order.plugin(p);
      const std::size_t masters = plugin.masters.size();
      if (masters == 0) continue;
      const auto entries = order.file(p).entries();
      auto& out = per_plugin[rank];
      for (std::uint32_t i = 1; i < entries.size(); ++i) {
        const IndexEntry& e = entries[i];
        if (e.is_group() || (e.id >> 24) >= masters || !wanted_type(e.type)) continue;
        const auto& m = plugin.master_positions[e.id >> 24];
        if (!m) continue;
        const std::uint64_t key = FormKey{*m, e.id & 0xFFFFFF}.packed();
        if (!wanted_forms.empty() && !wanted_forms.count(key)) continue;
        out.push_back({key, std::uint32_t(rank), i});
      }
    }
  });
  std::vector<Override> overrides;
  for (auto& v : per_plugin) overrides.insert(overrides.end(), v.begin(), v.end());
  per_plugin.clear();
  std::sort(overrides.begin(), overrides.end(), [](const Override& a, const Override& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.rank != b.rank) return a.rank < b.rank;
    return a.entry < b.entry;
  });

  // The defining plugins' own versions of the overridden forms.
  std::unordered_map<std::uint32_t, IdSet> needed;  // defining plugin -> object ids
  for (const Override& o : overrides) {
    const std::uint32_t d = std::uint32_t(o.key >> 32);
    if (readable[d]) needed[d].add(std::uint32_t(o.key));
  }
  // Each defining plugin walked for them (every active plugin indexed in part is walked whole, so
  // that damage anywhere in it is reported as a full index would report it).
  std::vector<std::pair<std::uint64_t, IndexEntry>> definitions;  // key -> the defining record
  for (std::uint32_t d : active) {
    if (!readable[d]) continue;
    const auto ids = needed.find(d);
    if (ids == needed.end() && !order.plugin(d).masters.empty()) continue;
    const std::uint32_t own = std::uint32_t(order.plugin(d).masters.size());
    std::vector<IndexEntry> found;
    try {
      found = order.find_records(d, [&](const IndexEntry& e) {
        return ids != needed.end() && (e.id >> 24) >= own && ids->second.has(e.id);
      });
    } catch (const std::exception& e) {
      readable[d] = false;
      problems.push_back({order.plugin(d).name, fmt::format("left out of the conflicts: {}", e.what())});
      continue;
    }
    for (const IndexEntry& e : found) definitions.emplace_back(FormKey{d, e.id & 0xFFFFFF}.packed(), e);
  }
  // By key, the first of duplicates (in file order) kept.
  std::stable_sort(definitions.begin(), definitions.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  definitions.erase(std::unique(definitions.begin(), definitions.end(),
                                [](const auto& a, const auto& b) { return a.first == b.first; }),
                    definitions.end());

  // The records with their versions in load order (overrides and defining entries both in key order).
  std::vector<const PluginFile*> files(order.plugins().size(), nullptr);
  for (std::uint32_t p : with_masters)
    if (readable[p]) files[p] = &order.file(p);
  std::vector<ConflictRecord> records;
  records.reserve(overrides.size());
  auto def = definitions.begin();
  for (std::size_t i = 0; i < overrides.size();) {
    std::size_t j = i;
    while (j < overrides.size() && overrides[j].key == overrides[i].key) ++j;
    ConflictRecord r;
    r.form = FormKey{std::uint32_t(overrides[i].key >> 32), std::uint32_t(overrides[i].key)};
    r.versions.reserve(j - i + 1);
    while (def != definitions.end() && def->first < overrides[i].key) ++def;
    if (def != definitions.end() && def->first == overrides[i].key)
      r.versions.push_back({RecordVersion{r.form.plugin, def->second}, {}, false});
    else
      r.defining_version = false;
    for (std::size_t k = i; k < j; ++k) {
      if (k > i && overrides[k].rank == overrides[k - 1].rank) continue;  // a plugin's duplicate
      const std::uint32_t p = active[overrides[k].rank];
      r.versions.push_back({RecordVersion{p, files[p]->entry(overrides[k].entry)}, {}, false});
    }
    i = j;
    if (r.versions.size() < 2) continue;
    if (options.plugin && std::none_of(r.versions.begin(), r.versions.end(), [&](const ConflictVersion& v) {
          return v.version.plugin == *options.plugin;
        }))
      continue;
    r.type = r.versions.front().version.entry.type;
    records.push_back(std::move(r));
  }

  // Compare the versions, on several threads.
  const RecordComparer comparer(order);
  std::vector<bool> failed(records.size(), false);
  std::mutex problem_lock;
  constexpr std::size_t kBatch = 64;
  const std::size_t batches = (records.size() + kBatch - 1) / kBatch;
  run_workers(batches, order.threads(), [&](auto claim) {
    Inflater inflater;
    std::vector<LoadedRecord> values;
    for (std::size_t b = claim(); b < batches; b = claim()) {
      for (std::size_t i = b * kBatch; i < std::min(records.size(), (b + 1) * kBatch); ++i) {
        ConflictRecord& r = records[i];
        try {
          values.clear();
          for (const ConflictVersion& v : r.versions) values.push_back(comparer.load(v.version, inflater));
          r.editor_id = values.front().editor_id();
          classify(r, values, comparer);
        } catch (const Error& e) {
          failed[i] = true;
          std::lock_guard guard(problem_lock);
          problems.push_back({e.file(), fmt::format("left out of the conflicts: {}", e.what())});
        }
      }
    }
  });
  std::vector<ConflictRecord> out;
  out.reserve(records.size());
  for (std::size_t i = 0; i < records.size(); ++i)
    if (!failed[i]) out.push_back(std::move(records[i]));
  // Ordered by load-order FormID.
  std::vector<std::pair<std::uint64_t, std::size_t>> keys(out.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    keys[i] = {std::uint64_t(order.load_order_form_id(out[i].form).value_or(~0u)) << 32 | i, i};
  std::sort(keys.begin(), keys.end());
  std::vector<ConflictRecord> sorted;
  sorted.reserve(out.size());
  for (const auto& [k, i] : keys) sorted.push_back(std::move(out[i]));
  return sorted;
}

}  // namespace tesmod::loadorder
