// Planning the patch: which plugins are read, their tags, the leveled lists merged, the fields
// imported, and the masters the records need.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "list_merge.hpp"
#include "tag_imports.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/patch/patch.hpp"
#include "tesmod/plugin/group_order.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod::patch {
namespace {

using loadorder::LoadOrder;


// Every active plugin must read and have its masters at hand and active: the patch names forms
// by the plugins that define them.
void check_sources(const LoadOrder& order, const std::vector<std::uint32_t>& sources) {
  for (std::uint32_t p : sources) {
    const loadorder::LoadOrderPlugin& plugin = order.plugin(p);
    if (!plugin.readable())
      throw Error(plugin.name, Error::kNoOffset, std::nullopt, "the plugin does not read: " + plugin.error);
    for (std::size_t k = 0; k < plugin.masters.size(); ++k) {
      const auto& m = plugin.master_positions[k];
      if (!m)
        throw Error(plugin.name, Error::kNoOffset, std::nullopt,
                    fmt::format("master '{}' is not in the load order: the patch cannot resolve its forms",
                                plugin.masters[k]));
      if (!order.plugin(*m).active)
        throw Error(plugin.name, Error::kNoOffset, std::nullopt,
                    fmt::format("master '{}' is not active: the patch cannot be built over it", plugin.masters[k]));
    }
  }
}

std::string editor_id_of(const std::vector<loadorder::ResolvedField>& fields) {
  for (const auto& f : fields)
    if (f.field.type == Signature("EDID")) return f.field.as_zstring();
  return {};
}

void plan_lists(const LoadOrder& order, const PatchOptions& options, PatchPlan& plan) {
  const loadorder::RecordResolver resolver(order);
  Inflater inflater;
  ListMergeContext context;
  context.order = &order;
  context.game = plan.game;
  context.has_tag = [&plan](std::uint32_t plugin, std::string_view tag) { return plan.tags[plugin].has(tag); };
  std::set<std::uint32_t> has_lists;  // plugins overriding some list (for the tag report)
  for (Signature type : leveled_list_types(plan.game)) {
    std::vector<ListHistory> histories;
    for (const loadorder::FormVersions& fv : order.versions_of(type)) {
      std::vector<const loadorder::RecordVersion*> read;
      for (const loadorder::RecordVersion& v : fv.versions) {
        if (plan.skipped_patch && v.plugin == *plan.skipped_patch) continue;
        if (v.entry.flags & record_flags::kDeleted) continue;  // a deleted version has no list to merge
        read.push_back(&v);
        if (v.plugin != fv.form.plugin) has_lists.insert(v.plugin);
      }
      // A list only one plugin has is never merged; only taking out its empty sublists changes it.
      if (read.empty() || (read.size() == 1 && !plan.remove_empty)) continue;
      ListHistory h{fv.form, type, {}};
      for (const loadorder::RecordVersion* v : read)
        h.versions.push_back(read_leveled_list(resolver.resolve(*v, inflater), plan.game, order));
      if (h.versions.size() > 1) ++plan.lists_read;
      histories.push_back(std::move(h));
    }
    std::vector<ListMerge> merges = options.mode == ListMode::WryeBash ? merge_lists_wryebash(histories, context)
                                                                       : merge_lists_threeway(histories, context);
    if (plan.remove_empty) remove_empty_sublists(merges, context);
    for (ListMerge& m : merges) {
      if (!m.write) continue;
      std::stable_sort(m.merged.entries.begin(), m.merged.entries.end(), entry_write_order);
      const std::string label = list_label(context, m.merged);
      const auto holds = entry_types(plan.game, type);
      std::string kinds;
      for (Signature t : holds) kinds += (kinds.empty() ? "" : "/") + t.str();
      for (const LeveledEntry& e : m.merged.entries)
        if (e.form && !order.record_type_in(*e.form, holds))
          plan.warnings.push_back(fmt::format("{}: an entry names {}:{:06X}, which is no {} record of the load order "
                                              "(kept, as the game skips it)",
                                              label, order.plugin(e.form->plugin).name, e.form->object_id,
                                              kinds));
      PatchRecord r;
      r.form = m.history->form;
      r.header = m.merged.record.header;
      r.winner = m.merged.record.version.plugin;
      r.fields = leveled_list_fields(m.merged, plan.game);
      r.editor_id = editor_id_of(r.fields);
      r.outcome.part = "leveled list";
      r.outcome.sources = m.sources;
      r.outcome.notes = std::move(m.notes);
      plan.records.push_back(std::move(r));
    }
  }
  for (std::string& w : context.warnings) plan.warnings.push_back(std::move(w));
  // Which Relev/Delev tags did something.
  for (std::uint32_t p : plan.sources)
    for (std::string_view tag : {"Relev", "Delev"}) {
      if (!plan.tags[p].has(tag)) continue;
      TagUse use{p, std::string(tag), false, {}};
      if (options.mode == ListMode::Merge) use.why = "--mode merge merges every plugin's changes without tags";
      else if (!has_lists.count(p)) use.why = "the plugin overrides no leveled list";
      else {
        use.used = true;
        use.why = tag == "Relev" ? "its levels, counts and list fields win over earlier plugins'"
                                 : "the entries it removed from its masters' lists stay removed";
      }
      plan.tag_uses.push_back(std::move(use));
    }
}

}  // namespace

std::optional<ListMode> parse_list_mode(std::string_view name) {
  if (name == "wryebash") return ListMode::WryeBash;
  if (name == "merge") return ListMode::Merge;
  return std::nullopt;
}

std::optional<RemoveEmpty> parse_remove_empty(std::string_view name) {
  if (name == "auto") return RemoveEmpty::Auto;
  if (name == "on") return RemoveEmpty::On;
  if (name == "off") return RemoveEmpty::Off;
  return std::nullopt;
}

std::optional<PatchParts> parse_patch_parts(std::string_view name) {
  if (name == "lists") return PatchParts::Lists;
  if (name == "imports") return PatchParts::Imports;
  return std::nullopt;
}

PatchPlan plan_patch(const LoadOrder& order, const PatchOptions& options) {
  PatchPlan plan;
  plan.game = order.game();
  plan.name = options.name;
  plan.mode = options.mode;
  plan.remove_empty = options.remove_empty == RemoveEmpty::Auto ? plan.game == Game::Oblivion
                                                                : options.remove_empty == RemoveEmpty::On;
  for (std::uint32_t position : order.active()) {
    if (ascii::iequals(order.plugin(position).name, options.name)) {
      plan.skipped_patch = position;
      continue;
    }
    plan.sources.push_back(position);
  }
  // An active plugin that does not read (or got no index) would silently be left out of the patch.
  for (std::uint32_t position = 0; position < order.plugins().size(); ++position) {
    const loadorder::LoadOrderPlugin& plugin = order.plugin(position);
    if (!plugin.active || plugin.index) continue;
    if (!plugin.readable())
      throw Error(plugin.name, Error::kNoOffset, std::nullopt, "the plugin is active but does not read: " + plugin.error);
    throw Error(plugin.name, Error::kNoOffset, std::nullopt,
                "the plugin is active but gets no load-order index (too many plugins): the game would not load it");
  }
  check_sources(order, plan.sources);
  plan.tags = read_bash_tags(order, options.tags);
  for (const PluginTags& t : plan.tags)
    for (const std::string& w : t.warnings) plan.warnings.push_back(w);

  const FormTypeLookup type_of = [&order](const loadorder::FormKey& k) -> std::optional<Signature> {
    const auto stored = order.stored_form_id(k.plugin, k);
    if (!stored || !order.plugin(k.plugin).readable()) return std::nullopt;
    const auto e = order.find_record(k.plugin, *stored);
    if (!e) return std::nullopt;
    return e->type;
  };
  if (options.parts != PatchParts::Imports) plan_lists(order, options, plan);
  if (options.parts != PatchParts::Lists) plan_imports(order, plan, type_of);

  // Tags no part of the patch used, and why.
  std::set<std::pair<std::uint32_t, std::string>> reported;
  for (const TagUse& u : plan.tag_uses) reported.insert({u.plugin, u.tag});
  for (const PluginTags& t : plan.tags)
    for (const std::string& tag : t.tags) {
      if (reported.count({t.plugin, tag})) continue;
      TagUse use{t.plugin, tag, false, {}};
      const bool read = std::find(plan.sources.begin(), plan.sources.end(), t.plugin) != plan.sources.end();
      if (!read) use.why = order.plugin(t.plugin).active ? "the plugin is the patch itself: not read" : "the plugin is not active";
      else if (options.parts == PatchParts::Lists && tag != "Relev" && tag != "Delev") use.why = "--only lists";
      else if (options.parts == PatchParts::Imports && (tag == "Relev" || tag == "Delev")) use.why = "--only imports";
      else use.why = "tesmod's patch does not import this tag yet";
      plan.tag_uses.push_back(std::move(use));
    }
  std::sort(plan.tag_uses.begin(), plan.tag_uses.end(), [](const TagUse& a, const TagUse& b) {
    return a.plugin != b.plugin ? a.plugin < b.plugin : a.tag < b.tag;
  });

  // The masters: every plugin whose forms the records are or name.
  std::set<std::uint32_t> used;
  std::vector<loadorder::FormKey> forms;
  for (const PatchRecord& r : plan.records) {
    used.insert(r.form.plugin);
    forms.clear();
    loadorder::collect_forms(r.fields, forms);
    for (const auto& k : forms) used.insert(k.plugin);
  }
  plan.masters.assign(used.begin(), used.end());
  // Records in the game's group order, then by form in the patch's master order.
  const Game game = plan.game;
  std::stable_sort(plan.records.begin(), plan.records.end(), [game](const PatchRecord& a, const PatchRecord& b) {
    const std::size_t ra = top_group_rank(game, a.header.type).value_or(~std::size_t{0});
    const std::size_t rb = top_group_rank(game, b.header.type).value_or(~std::size_t{0});
    if (ra != rb) return ra < rb;
    if (a.header.type != b.header.type) return a.header.type < b.header.type;
    return a.form < b.form;
  });
  return plan;
}

}  // namespace tesmod::patch
