// The three-way merge (`--mode merge`), which needs no tags. The defining plugin's version starts
// the list. Each later plugin's version is compared with the version its own masters give it (the
// last of its masters, in load order, that has the list): entries that version has and the plugin
// lacks are removed from the merge, entries the plugin has and it lacks are added — entries keyed
// by level, form, count and (Skyrim) COED, duplicates counted. Chance none, flags and the fields
// merged whole come from the last plugin that changed them from the defining version. The list is
// written where the result differs from the winning version.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "list_merge.hpp"

namespace tesmod::patch {
namespace {

bool top_equal(const LeveledList& a, const LeveledList& b, std::size_t k) { return a.attributes[k].same_as(b.attributes[k]); }

// Entries of `from` that `minus` does not have, counting duplicates.
std::vector<LeveledEntry> multiset_minus(const std::vector<LeveledEntry>& from, const std::vector<LeveledEntry>& minus) {
  std::vector<bool> used(minus.size(), false);
  std::vector<LeveledEntry> out;
  for (const LeveledEntry& e : from) {
    bool matched = false;
    for (std::size_t i = 0; i < minus.size() && !matched; ++i)
      if (!used[i] && minus[i].same_as(e)) used[i] = matched = true;
    if (!matched) out.push_back(e);
  }
  return out;
}

bool same_entries(const std::vector<LeveledEntry>& a, const std::vector<LeveledEntry>& b) {
  return a.size() == b.size() && multiset_minus(a, b).empty();
}

}  // namespace

std::vector<ListMerge> merge_lists_threeway(const std::vector<ListHistory>& lists, ListMergeContext& context) {
  const std::size_t limit = max_list_entries(context.game);
  std::vector<ListMerge> out;
  out.reserve(lists.size());
  for (const ListHistory& history : lists) {
    ListMerge m;
    m.history = &history;
    const auto& versions = history.versions;
    std::size_t base = 0;
    for (std::size_t i = 0; i < versions.size(); ++i)
      if (versions[i].record.version.plugin == history.form.plugin) base = i;
    const LeveledList& defining = versions[base];
    m.merged = defining;
    m.notes.push_back(fmt::format("{}: {}", plugin_name(context, defining.record.version.plugin),
                                  base == 0 && history.form.plugin == defining.record.version.plugin
                                      ? "defines the list"
                                      : "first version read"));
    for (std::size_t i = base + 1; i < versions.size(); ++i) {
      const LeveledList& v = versions[i];
      const std::uint32_t p = v.record.version.plugin;
      // The version p was made against: the last earlier version whose plugin is a master of p.
      const auto& masters = context.order->plugin(p).master_positions;
      const LeveledList* against = &defining;
      for (std::size_t k = base; k < i; ++k)
        if (std::find(masters.begin(), masters.end(), std::optional<std::uint32_t>(versions[k].record.version.plugin)) !=
            masters.end())
          against = &versions[k];
      const std::vector<LeveledEntry> removed = multiset_minus(against->entries, v.entries);
      const std::vector<LeveledEntry> added = multiset_minus(v.entries, against->entries);
      std::size_t removed_here = 0;
      for (const LeveledEntry& r : removed) {
        auto it = std::find_if(m.merged.entries.begin(), m.merged.entries.end(),
                               [&](const LeveledEntry& e) { return e.same_as(r); });
        if (it != m.merged.entries.end()) {
          m.merged.entries.erase(it);
          ++removed_here;
        }
      }
      for (const LeveledEntry& a : added) m.merged.entries.push_back(a);
      std::vector<std::string> did;
      if (v.chance_none != defining.chance_none) {
        m.merged.chance_none = v.chance_none;
        did.push_back(fmt::format("chance none {}", v.chance_none));
      }
      if (v.flags != defining.flags) {
        m.merged.flags = v.flags;
        did.push_back(fmt::format("flags {:#04x}", v.flags));
      }
      for (std::size_t k = 0; k < v.attributes.size(); ++k)
        if (!top_equal(v, defining, k)) {
          m.merged.attributes[k] = v.attributes[k];
          did.push_back(std::string(v.attributes[k].name));
        }
      if (!removed.empty()) did.push_back(fmt::format("{} entries removed", removed_here));
      if (!added.empty()) did.push_back(fmt::format("{} entries added", added.size()));
      if (!did.empty()) {
        m.sources.push_back(p);
        m.notes.push_back(fmt::format("{}: {} (against {})", plugin_name(context, p), fmt::join(did, ", "),
                                      plugin_name(context, against->record.version.plugin)));
      }
    }
    const LeveledList& winner = versions.back();
    m.merged.record = winner.record;
    if (limit && m.merged.entries.size() > limit) {
      context.warnings.push_back(fmt::format("{}: the merge has {} entries; cut to {} (the list holds at most {}: "
                                             "split it by hand)",
                                             list_label(context, m.merged), m.merged.entries.size(), limit, limit));
      std::stable_sort(m.merged.entries.begin(), m.merged.entries.end(), entry_write_order);
      m.merged.entries.resize(limit);
    }
    for (const LeveledEntry& e : m.merged.entries)
      m.items.insert(e.form ? *e.form : FormKey{0xFFFFFFFFu, 0});
    bool differs = m.merged.chance_none != winner.chance_none || m.merged.flags != winner.flags ||
                   !same_entries(m.merged.entries, winner.entries);
    for (std::size_t k = 0; !differs && k < winner.attributes.size(); ++k) differs = !top_equal(m.merged, winner, k);
    m.write = differs;
    out.push_back(std::move(m));
  }
  return out;
}

void remove_empty_sublists(std::vector<ListMerge>& merges, ListMergeContext& context) {
  (void)context;
  std::unordered_map<FormKey, std::size_t> index;
  for (std::size_t i = 0; i < merges.size(); ++i) index.emplace(merges[i].history->form, i);
  std::vector<std::vector<std::size_t>> supers(merges.size());  // list -> the lists holding it
  std::vector<std::size_t> empty;
  for (std::size_t i = 0; i < merges.size(); ++i) {
    if (merges[i].items.empty()) {
      empty.push_back(i);
      continue;
    }
    for (const FormKey& item : merges[i].items)
      if (auto it = index.find(item); it != index.end()) supers[it->second].push_back(i);
  }
  while (!empty.empty()) {
    const std::size_t e = empty.back();
    empty.pop_back();
    const FormKey gone = merges[e].history->form;
    for (std::size_t s : supers[e]) {
      ListMerge& m = merges[s];
      auto& entries = m.merged.entries;
      const std::size_t before = entries.size();
      entries.erase(std::remove_if(entries.begin(), entries.end(),
                                   [&](const LeveledEntry& x) { return x.form && *x.form == gone; }),
                    entries.end());
      m.items.erase(gone);
      if (m.items.empty()) empty.push_back(s);
      if (entries.size() != before) {
        m.write = true;
        m.notes.push_back(fmt::format("empty sublist {} taken out", list_label(context, merges[e].merged)));
      }
    }
  }
}

}  // namespace tesmod::patch
