// Imports by the list-like Bash Tags (Wrye Bash's mergers): for each family of lists
// (list_import_entries.hpp) and each tagged source plugin, in load order, what the plugin did to
// the list of each record it overrides, against what its masters give it — the winning master's
// list with the changes already recorded for the plugin's tagged masters replayed on it — is
// recorded as removed keys, added entries and changed entries, each kept only when the plugin
// has that tag. The changes are then replayed, in load order, on the patch's record for the form
// (removals, then changes, then additions of keys the list lacks), which is written when its
// entries (as a multiset) differ.
//
// Where tesmod leaves Wrye Bash: the masters' recorded changes are replayed one after the other
// (Wrye Bash's loop keeps only the last master's, or mutates the master's list in place when that
// one only adds); a list whose entries only come out in another order is not written (Wrye Bash
// writes it when entries of one key swap places); Actors.Factions merges as the others do (Wrye
// Bash keeps the last tagged plugin's factions whole); Actors.Spells adds and removes as the
// others do (Wrye Bash places spells by their neighbours). IIM (inventory-only import) is not done.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "list_import_entries.hpp"
#include "tag_import_parts.hpp"

namespace tesmod::patch {
namespace {

using loadorder::FormKey;
using loadorder::ResolvedRecord;
using loadorder::RecordVersion;
using Key = std::optional<FormKey>;

// One tagged plugin's changes to one record's list.
struct Delta {
  std::uint32_t plugin = 0;
  std::vector<Key> removed;  // keys, sorted
  std::vector<ListEntry> added, changed;
};

// What replaying a delta did to a list.
struct Effect {
  std::vector<ListEntry> removed, changed, added;
  bool any() const { return !removed.empty() || !changed.empty() || !added.empty(); }
};

std::vector<Key> keys_of(const std::vector<ListEntry>& entries) {
  std::vector<Key> out;
  for (const ListEntry& e : entries) out.push_back(e.key);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool holds(const std::vector<Key>& sorted, const Key& k) { return std::binary_search(sorted.begin(), sorted.end(), k); }

bool holds_value(const std::vector<ListEntry>& entries, const std::string& value) {
  return std::any_of(entries.begin(), entries.end(), [&](const ListEntry& e) { return e.value == value; });
}

// Removals first (an entry about to go is not changed), then changes (each replaces the first
// entry of its key; as in Wrye Bash, every entry equal to a replaced one goes with it, and the
// changed entries come last), then additions of keys the list does not hold yet.
std::vector<ListEntry> replay(std::vector<ListEntry> entries, const Delta& d, Effect* effect) {
  if (!d.removed.empty()) {
    std::vector<ListEntry> kept;
    for (ListEntry& e : entries) {
      if (!holds(d.removed, e.key)) kept.push_back(std::move(e));
      else if (effect) effect->removed.push_back(std::move(e));
    }
    entries = std::move(kept);
  }
  if (!d.changed.empty()) {
    std::vector<std::string> replaced;
    std::vector<const ListEntry*> replacing;
    for (const ListEntry& c : d.changed)
      for (const ListEntry& e : entries)
        if (e.key == c.key) {
          replaced.push_back(e.value);
          replacing.push_back(&c);
          break;
        }
    if (!replacing.empty()) {
      std::vector<ListEntry> next;
      for (ListEntry& e : entries)
        if (std::find(replaced.begin(), replaced.end(), e.value) == replaced.end()) next.push_back(std::move(e));
      for (std::size_t i = 0; i < replacing.size(); ++i) {
        next.push_back(*replacing[i]);
        if (effect && replaced[i] != replacing[i]->value) effect->changed.push_back(*replacing[i]);
      }
      entries = std::move(next);
    }
  }
  if (!d.added.empty()) {
    const std::vector<Key> present = keys_of(entries);
    for (const ListEntry& a : d.added)
      if (!holds(present, a.key)) {
        entries.push_back(a);
        if (effect) effect->added.push_back(a);
      }
  }
  return entries;
}

// Per family and plugin, for the report.
struct PluginTally {
  std::size_t overrides = 0;  // records of the family's types it overrides that its masters have
  std::size_t added = 0, changed = 0, removed = 0;  // entries in its deltas
  std::set<FormKey> records_added, records_changed, records_removed;
};

struct FamilyRun {
  const ListFamily* family = nullptr;
  std::vector<bool> tagged;  // by plugin: a source with one of the family's tags
  bool any = false;
  std::map<std::uint32_t, PluginTally> tally;
};

std::string count_of(std::size_t n, const ListFamily& f) {
  return fmt::format("{} {}", n, n == 1 ? f.noun : f.nouns);
}

std::string listed(const std::vector<ListEntry>& entries, const ListFamily& f, const loadorder::LoadOrder& order) {
  constexpr std::size_t kShown = 5;
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < entries.size() && i < kShown; ++i) parts.push_back(describe_entry(f, entries[i], order));
  if (entries.size() > kShown) parts.push_back(fmt::format("and {} more", entries.size() - kShown));
  return fmt::format("{} ({})", count_of(entries.size(), f), fmt::join(parts, ", "));
}

// "Mod.esp [Invent.Add, Invent.Remove]: removed 1 item (...); added 2 items (...)"; the tags that
// did something are added to `tags` (each once, in the family's order).
std::string note_of(const Effect& e, std::uint32_t plugin, const ListFamily& f, const loadorder::LoadOrder& order,
                    std::vector<std::string_view>& tags) {
  std::vector<std::string> did;
  if (!e.removed.empty()) did.push_back("removed " + listed(e.removed, f, order));
  if (!e.changed.empty()) did.push_back("changed " + listed(e.changed, f, order));
  if (!e.added.empty()) did.push_back("added " + listed(e.added, f, order));
  std::vector<std::string_view> own;
  for (std::string_view t : f.tags())
    if ((t == f.add_tag && !e.added.empty()) || (t == f.change_tag && !e.changed.empty()) ||
        (t == f.remove_tag && !e.removed.empty())) {
      own.push_back(t);
      if (std::find(tags.begin(), tags.end(), t) == tags.end()) tags.push_back(t);
    }
  return fmt::format("{} [{}]: {}", order.plugin(plugin).name, fmt::join(own, ", "), fmt::join(did, "; "));
}

std::string type_list(const ListFamily& f) {
  std::vector<std::string> names;
  for (Signature t : f.types) names.push_back(t.str());
  if (names.size() == 1) return names.front();
  const std::string last = names.back();
  names.pop_back();
  return fmt::format("{} or {}", fmt::join(names, ", "), last);
}

// Why a tag was (not) used: what the plugin's changes of that kind came to.
std::pair<bool, std::string> tag_use(const ListFamily& f, std::string_view tag, const PluginTally& t) {
  if (t.overrides == 0) return {false, fmt::format("overrides none of its masters' {} records", type_list(f))};
  std::vector<std::string> did;
  std::set<FormKey> records;
  std::vector<std::string_view> verbs;
  if (tag == f.add_tag) {
    verbs.push_back("adds");
    if (t.added) did.push_back("added " + count_of(t.added, f));
    records.insert(t.records_added.begin(), t.records_added.end());
  }
  if (tag == f.change_tag) {
    verbs.push_back("changes");
    if (t.changed) did.push_back("changed " + count_of(t.changed, f));
    records.insert(t.records_changed.begin(), t.records_changed.end());
  }
  if (tag == f.remove_tag) {
    verbs.push_back("removes");
    if (t.removed) did.push_back("removed " + count_of(t.removed, f));
    records.insert(t.records_removed.begin(), t.records_removed.end());
  }
  if (did.empty()) {
    std::string verb(verbs.front());
    for (std::size_t i = 1; i < verbs.size(); ++i) verb += (i + 1 == verbs.size() ? " or " : ", ") + std::string(verbs[i]);
    return {false, fmt::format("{} no {} in the {} {} it overrides from its masters", verb, f.noun, t.overrides,
                               t.overrides == 1 ? "record" : "records")};
  }
  return {true, fmt::format("{} in {} {}", fmt::join(did, ", "), records.size(),
                            records.size() == 1 ? "record" : "records")};
}

class ListImport {
 public:
  explicit ListImport(ImportState& state) : state_(state), context_{state.order, state.type_of} {}

  void run() {
    const std::size_t plugins = state_.order.plugins().size();
    for (const ListFamily& f : list_families(state_.plan.game)) {
      FamilyRun r;
      r.family = &f;
      r.tagged.assign(plugins, false);
      for (std::uint32_t p : state_.plan.sources)
        for (std::string_view tag : f.tags())
          if (state_.plan.tags[p].has(tag)) r.tagged[p] = r.any = true;
      runs_.push_back(std::move(r));
    }
    std::vector<Signature> types;
    for (const FamilyRun& r : runs_)
      if (r.any)
        for (Signature t : r.family->types)
          if (std::find(types.begin(), types.end(), t) == types.end()) types.push_back(t);
    for (Signature type : types)
      for (const loadorder::FormVersions& fv : state_.versions_of(type)) {
        records_.clear();
        for (FamilyRun& r : runs_)
          if (r.any && std::find(r.family->types.begin(), r.family->types.end(), type) != r.family->types.end())
            merge(r, fv);
      }
    report();
  }

 private:
  const ResolvedRecord& record(const RecordVersion& v) {
    auto it = records_.find(v.plugin);
    if (it == records_.end()) it = records_.emplace(v.plugin, state_.read(v)).first;
    return it->second;
  }

  bool is_master(std::uint32_t plugin, std::uint32_t master) const {
    const auto& m = state_.order.plugin(plugin).master_positions;
    return std::find(m.begin(), m.end(), std::optional<std::uint32_t>(master)) != m.end();
  }

  // A version's entries in the order Wrye Bash holds them (it sorts every list as it reads it):
  // a change replaces the first entry of its key in that order.
  std::vector<ListEntry> entries_of(const ListFamily& f, std::span<const loadorder::ResolvedField> fields) {
    std::vector<ListEntry> out = read_entries(f, fields, context_).entries;
    sort_entries(f, out, context_);
    return out;
  }

  void merge(FamilyRun& run, const loadorder::FormVersions& fv) {
    const ListFamily& f = *run.family;
    // Only forms a tagged plugin overrides are read.
    if (!std::any_of(fv.versions.begin(), fv.versions.end(), [&](const RecordVersion& v) {
          return run.tagged[v.plugin] && v.plugin != fv.form.plugin;
        }))
      return;
    std::vector<Delta> deltas;
    for (const RecordVersion& v : fv.versions) {
      if (!run.tagged[v.plugin]) continue;
      const std::vector<RecordVersion> masters = state_.master_versions(fv.versions, v.plugin);
      if (masters.empty()) continue;
      PluginTally& tally = run.tally[v.plugin];
      ++tally.overrides;
      // What its masters give it.
      std::vector<ListEntry> given = entries_of(f, record(masters.back()).fields);
      for (const Delta& d : deltas)
        if (is_master(v.plugin, d.plugin)) given = replay(std::move(given), d, nullptr);
      const std::vector<ListEntry> own = entries_of(f, record(v).fields);
      const PluginTags& tags = state_.plan.tags[v.plugin];
      const std::vector<Key> given_keys = keys_of(given), own_keys = keys_of(own);
      Delta d;
      d.plugin = v.plugin;
      if (!f.remove_tag.empty() && tags.has(f.remove_tag))
        std::set_difference(given_keys.begin(), given_keys.end(), own_keys.begin(), own_keys.end(),
                            std::back_inserter(d.removed));
      std::vector<ListEntry> new_keys;
      for (const ListEntry& e : own)
        if (!holds(given_keys, e.key)) new_keys.push_back(e);
      if (!f.change_tag.empty() && tags.has(f.change_tag))
        for (const ListEntry& e : own)
          if (!holds_value(given, e.value) && !holds_value(new_keys, e.value)) d.changed.push_back(e);
      if (!f.add_tag.empty() && tags.has(f.add_tag)) d.added = std::move(new_keys);
      if (d.removed.empty() && d.added.empty() && d.changed.empty()) continue;
      tally.removed += d.removed.size();
      tally.changed += d.changed.size();
      tally.added += d.added.size();
      if (!d.removed.empty()) tally.records_removed.insert(fv.form);
      if (!d.changed.empty()) tally.records_changed.insert(fv.form);
      if (!d.added.empty()) tally.records_added.insert(fv.form);
      deltas.push_back(std::move(d));
    }
    if (deltas.empty()) return;

    PatchRecord patched = state_.base(fv.form, fv.versions);
    EntryBlock old = read_entries(f, patched.fields, context_);
    sort_entries(f, old.entries, context_);
    std::vector<ListEntry> entries = old.entries;
    std::vector<Effect> effects(deltas.size());
    for (std::size_t i = 0; i < deltas.size(); ++i) entries = replay(std::move(entries), deltas[i], &effects[i]);
    if (same_entries(entries, old.entries)) return;
    sort_entries(f, entries, context_);

    std::size_t insert_at = patched.fields.size();
    if (old.fields.empty())
      for (std::size_t i = deltas.size(); i-- > 0;)
        if (!effects[i].added.empty() || !effects[i].changed.empty()) {
          const RecordVersion* own = nullptr;
          for (const RecordVersion& v : fv.versions)
            if (v.plugin == deltas[i].plugin) own = &v;
          insert_at = list_insertion_point(f, patched.fields, record(*own).fields);
          break;
        }
    write_entries(f, patched.fields, old, entries, insert_at, patched.winner);

    std::vector<std::string_view> tags;
    RecordOutcome& outcome = patched.outcome;
    for (std::size_t i = 0; i < deltas.size(); ++i) {
      if (!effects[i].any()) continue;
      outcome.notes.push_back(note_of(effects[i], deltas[i].plugin, f, state_.order, tags));
      outcome.sources.push_back(deltas[i].plugin);
    }
    std::sort(outcome.sources.begin(), outcome.sources.end());
    outcome.sources.erase(std::unique(outcome.sources.begin(), outcome.sources.end()), outcome.sources.end());
    const std::vector<std::string_view> order = f.tags();
    std::sort(tags.begin(), tags.end(), [&order](std::string_view a, std::string_view b) {
      return std::find(order.begin(), order.end(), a) < std::find(order.begin(), order.end(), b);
    });
    const std::string part = fmt::format("{}", fmt::join(tags, ", "));
    outcome.part = outcome.part.empty() ? part : outcome.part + ", " + part;
    state_.commit(std::move(patched));
  }

  void report() {
    for (const FamilyRun& r : runs_) {
      if (!r.any) continue;
      for (std::uint32_t p : state_.plan.sources) {
        if (!r.tagged[p]) continue;
        const auto it = r.tally.find(p);
        const PluginTally none;
        const PluginTally& t = it == r.tally.end() ? none : it->second;
        for (std::string_view tag : r.family->tags()) {
          if (!state_.plan.tags[p].has(tag)) continue;
          auto [used, why] = tag_use(*r.family, tag, t);
          state_.use(p, std::string(tag), used, std::move(why));
        }
      }
    }
  }

  ImportState& state_;
  EntryContext context_;
  std::vector<FamilyRun> runs_;
  std::map<std::uint32_t, ResolvedRecord> records_;  // the current form's versions read, by plugin
};

}  // namespace

void import_entry_lists(ImportState& state) { ListImport(state).run(); }

}  // namespace tesmod::patch
