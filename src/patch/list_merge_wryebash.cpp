// Wrye Bash's Leveled Lists merge (its rules, as its patcher applies them; the code is our own):
//
// Every active plugin's version of a list is merged in load order into the list as it stands.
// The defining plugin's version starts it. A later version:
//   - without Relev: its entries for forms the list does not hold yet are added (a level or count
//     it changed on a form already there is not taken); chance none is taken, the global (and the
//     other fields merged whole) when it has one, and its flags are OR-ed in;
//   - with Relev (and at least one entry): the list's entries for every form this version lists
//     are replaced by this version's, and chance none, flags and the whole-merged fields are
//     copied exactly, absent ones included;
//   - with Delev: the forms its own masters' versions list and it does not are removed, and stay
//     removed ("items" remembers them, so a later untagged plugin does not add them back).
// The list is written when the merge differs from the last version merged into it. Skyrim lists
// are cut to 255 entries. Entries are kept in Wrye Bash's working order (level, then the form's
// plugin name and object id, then count, then COED) so that a cut keeps the same entries.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "list_merge.hpp"
#include "tesmod/io/ascii.hpp"

namespace tesmod::patch {
namespace {

constexpr FormKey kNoForm{0xFFFFFFFFu, 0};  // an entry whose FormID is 0

FormKey item_of(const LeveledEntry& e) { return e.form ? *e.form : kNoForm; }

// Wrye Bash's working order: forms compare by (plugin file name in lower case, object id).
struct WorkingOrder {
  const std::vector<std::string>* names;  // lower-case plugin names by position

  int form(const std::optional<FormKey>& a, const std::optional<FormKey>& b, bool none_last) const {
    if (!a || !b) {
      if (!a && !b) return 0;
      return (!a) == none_last ? 1 : -1;
    }
    const std::string& na = (*names)[a->plugin];
    const std::string& nb = (*names)[b->plugin];
    if (int c = na.compare(nb); c != 0) return c < 0 ? -1 : 1;
    return a->object_id < b->object_id ? -1 : a->object_id > b->object_id ? 1 : 0;
  }
  bool operator()(const LeveledEntry& a, const LeveledEntry& b) const {
    if (a.level != b.level) return a.level < b.level;
    if (int c = form(a.form, b.form, false); c != 0) return c < 0;
    if (a.count != b.count) return a.count < b.count;
    const float ca = a.coed ? a.coed->condition : 0.0f, cb = b.coed ? b.coed->condition : 0.0f;
    if (ca != cb) return ca < cb;
    const std::optional<FormKey> none;
    if (int c = form(a.coed ? a.coed->owner : none, b.coed ? b.coed->owner : none, true); c != 0) return c < 0;
    if (int c = form(a.coed ? a.coed->global : none, b.coed ? b.coed->global : none, true); c != 0) return c < 0;
    return false;
  }
};

bool same_top(const LeveledList& a, const LeveledList& b) {
  if (a.chance_none != b.chance_none) return false;
  for (std::size_t k = 0; k < a.attributes.size(); ++k)
    if (!a.attributes[k].same_as(b.attributes[k])) return false;
  return true;
}

std::string tag_marks(const ListMergeContext& c, std::uint32_t plugin) {
  std::string marks;
  if (c.has_tag(plugin, "Delev")) marks += "D";
  if (c.has_tag(plugin, "Relev")) marks += "R";
  return marks.empty() ? std::string() : " [" + marks + "]";
}

}  // namespace

std::size_t max_list_entries(Game game) { return game == Game::Oblivion ? 0 : 255; }

std::string plugin_name(const ListMergeContext& context, std::uint32_t plugin) {
  return context.order->plugin(plugin).name;
}

std::string list_label(const ListMergeContext& context, const LeveledList& list) {
  const auto& f = list.record.find(Signature("EDID"));
  const std::string edid = f ? f->field.as_zstring() : std::string("-");
  return fmt::format("{} {}:{:06X} {}", list.type().str(), plugin_name(context, list.form().plugin),
                     list.form().object_id, edid);
}

std::vector<ListMerge> merge_lists_wryebash(const std::vector<ListHistory>& lists, ListMergeContext& context) {
  std::vector<std::string> names;
  for (const auto& p : context.order->plugins()) names.push_back(ascii::to_lower(p.name));
  const WorkingOrder working{&names};
  const std::size_t limit = max_list_entries(context.game);
  std::vector<ListMerge> out;
  out.reserve(lists.size());
  for (const ListHistory& history : lists) {
    ListMerge m;
    m.history = &history;
    std::map<std::uint32_t, std::set<FormKey>> own_items;  // plugin -> the forms its version lists
    bool started = false;
    for (const LeveledList& version : history.versions) {
      const std::uint32_t p = version.record.version.plugin;
      // Wrye Bash sorts each version's entries as it reads them.
      std::vector<LeveledEntry> v_entries = version.entries;
      std::stable_sort(v_entries.begin(), v_entries.end(), working);
      const LeveledList& v = version;
      std::set<FormKey> items;
      for (const LeveledEntry& e : v_entries) items.insert(item_of(e));
      own_items[p] = items;
      const bool owner = history.form.plugin == p;
      std::set<FormKey> relev, delev;
      if (!owner) {
        if (context.has_tag(p, "Relev")) relev = items;
        if (context.has_tag(p, "Delev")) {
          for (const auto& master : context.order->plugin(p).master_positions)
            if (master)
              if (auto it = own_items.find(*master); it != own_items.end()) delev.insert(it->second.begin(), it->second.end());
          for (const FormKey& k : items) delev.erase(k);
          items.insert(delev.begin(), delev.end());
        }
      }
      const std::string who = plugin_name(context, p) + tag_marks(context, p);
      if (owner || !started) {
        // The defining plugin's version starts the list (or the first version seen, when the
        // defining plugin is not active).
        m.merged.chance_none = v.chance_none;
        m.merged.flags = v.flags;
        m.merged.attributes = v.attributes;
        m.merged.entries = std::move(v_entries);
        m.items = std::move(items);
        m.write = false;
        m.sources.clear();
        if (!owner) m.sources.push_back(p);
        m.notes.clear();
        m.notes.push_back(fmt::format("{}: {}", who, owner ? "defines the list" : "first version read"));
        started = true;
        continue;
      }
      LeveledList& self = m.merged;
      std::vector<std::string> did;
      const std::uint8_t chance_before = self.chance_none, flags_before = self.flags;
      if (!relev.empty()) {
        self.chance_none = v.chance_none;
        self.attributes = v.attributes;
        self.flags = v.flags;
      } else {
        self.chance_none = v.chance_none;
        for (std::size_t k = 0; k < self.attributes.size(); ++k)
          if (!v.attributes[k].fields.empty() && !self.attributes[k].same_as(v.attributes[k])) {
            self.attributes[k] = v.attributes[k];
            did.push_back(fmt::format("{} taken", self.attributes[k].name));
          }
        self.flags |= v.flags;
      }
      if (self.chance_none != chance_before) did.push_back(fmt::format("chance none {} -> {}", chance_before, self.chance_none));
      if (self.flags != flags_before) did.push_back(fmt::format("flags {:#04x} -> {:#04x}", flags_before, self.flags));
      if (!relev.empty()) did.push_back("Relev: its chance none, flags and list fields as they are");
      if (!relev.empty() || !delev.empty()) {
        std::size_t relevelled = 0, delevelled = 0;
        std::vector<LeveledEntry> kept;
        for (const LeveledEntry& e : self.entries) {
          const FormKey k = item_of(e);
          if (m.items.count(k) && relev.count(k)) ++relevelled;
          else if (m.items.count(k) && delev.count(k)) ++delevelled;
          else kept.push_back(e);
        }
        self.entries = std::move(kept);
        m.items.insert(delev.begin(), delev.end());
        for (const FormKey& k : relev) m.items.erase(k);
        if (delevelled)
          did.push_back(fmt::format("Delev: {} entries removed (forms its masters list and it dropped)", delevelled));
        if (relevelled)
          did.push_back(fmt::format("Relev: {} entries removed, to be replaced by its own for those forms", relevelled));
      }
      std::set<FormKey> added;
      std::size_t added_entries = 0;
      for (const LeveledEntry& e : v_entries) {
        const FormKey k = item_of(e);
        if (!m.items.count(k)) {
          self.entries.push_back(e);
          added.insert(k);
          ++added_entries;
        }
      }
      if (limit && self.entries.size() > limit) {
        context.warnings.push_back(fmt::format("{}: merging {} made {} entries; cut to {} (the list holds at most {}: "
                                               "split it by hand)",
                                               list_label(context, version), plugin_name(context, p),
                                               self.entries.size(), limit, limit));
        self.entries.resize(limit);
      }
      if (!added.empty()) {
        m.items.insert(added.begin(), added.end());
        std::stable_sort(self.entries.begin(), self.entries.end(), working);
        did.push_back(fmt::format("{} entries added", added_entries));
      }
      bool differs = self.entries.size() != v_entries.size() || self.flags != v.flags || !same_top(self, v);
      for (std::size_t i = 0; !differs && i < self.entries.size(); ++i)
        differs = !self.entries[i].same_as(v_entries[i]);
      m.write = differs;
      if (differs) {
        m.sources.push_back(p);
      } else {
        m.sources.assign(1, p);
        m.notes.clear();
      }
      std::string what = did.empty() ? std::string("nothing taken") : fmt::format("{}", fmt::join(did, "; "));
      what += differs ? "; its version differs from the merge" : "; the merge equals its version";
      m.notes.push_back(fmt::format("{}: {}", who, what));
    }
    // The record the patch writes is the winning version's, with the merged list fields.
    m.merged.record = history.versions.back().record;
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace tesmod::patch
