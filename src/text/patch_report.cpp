#include "tesmod/text/patch_report.hpp"

#include <fmt/format.h>

namespace tesmod::text {
namespace {

std::string form_text(const loadorder::LoadOrder& order, const loadorder::FormKey& k) {
  return fmt::format("{}:{:06X}", order.plugin(k.plugin).name, k.object_id);
}

std::string_view mode_name(patch::ListMode mode) { return mode == patch::ListMode::WryeBash ? "wryebash" : "merge"; }

std::vector<std::string> names_of(const loadorder::LoadOrder& order, const std::vector<std::uint32_t>& positions) {
  std::vector<std::string> out;
  for (std::uint32_t p : positions) out.push_back(order.plugin(p).name);
  return out;
}

// The plugins whose tags are worth listing: those with tags, or with any tag change or warning.
bool has_tag_news(const patch::PluginTags& t) { return !t.tags.empty() || !t.changes.empty(); }

std::string change_text(const patch::TagChange& c) {
  return fmt::format("{}{} ({}: {})", c.removed ? "-" : "", c.tag, patch::tag_source_name(c.source), c.detail);
}

}  // namespace

nlohmann::ordered_json patch_report_json(const loadorder::LoadOrder& order, const patch::PatchPlan& plan,
                                         const TextCodec& codec) {
  nlohmann::ordered_json j;
  j["patch"] = plan.name;
  j["game"] = order.game_id();  // the load order's game (oblivionremastered too), its format in plan.game
  j["mode"] = mode_name(plan.mode);
  j["remove_empty_sublists"] = plan.remove_empty;
  j["sources"] = names_of(order, plan.sources);
  j["skipped"] = plan.skipped_patch ? nlohmann::ordered_json(order.plugin(*plan.skipped_patch).name)
                                    : nlohmann::ordered_json(nullptr);
  j["masters"] = names_of(order, plan.masters);
  std::size_t lists = 0;
  for (const patch::PatchRecord& r : plan.records) lists += r.outcome.part == "leveled list";
  j["counts"] = {{"records", plan.records.size()},
                 {"leveled_lists", lists},
                 {"imports", plan.records.size() - lists},
                 {"lists_read", plan.lists_read}};
  nlohmann::ordered_json tags = nlohmann::ordered_json::array();
  for (const patch::PluginTags& t : plan.tags) {
    if (!has_tag_news(t)) continue;
    nlohmann::ordered_json e;
    e["plugin"] = order.plugin(t.plugin).name;
    e["active"] = order.plugin(t.plugin).active;
    e["tags"] = std::vector<std::string>(t.tags.begin(), t.tags.end());
    nlohmann::ordered_json changes = nlohmann::ordered_json::array();
    for (const patch::TagChange& c : t.changes)
      changes.push_back({{"tag", c.tag}, {"removed", c.removed}, {"source", patch::tag_source_name(c.source)},
                         {"detail", c.detail}});
    e["changes"] = std::move(changes);
    nlohmann::ordered_json uses = nlohmann::ordered_json::array();
    for (const patch::TagUse& u : plan.tag_uses)
      if (u.plugin == t.plugin) uses.push_back({{"tag", u.tag}, {"used", u.used}, {"why", u.why}});
    e["uses"] = std::move(uses);
    tags.push_back(std::move(e));
  }
  j["tags"] = std::move(tags);
  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  for (const patch::PatchRecord& r : plan.records) {
    nlohmann::ordered_json e;
    e["form"] = form_text(order, r.form);
    e["type"] = r.header.type.str();
    e["editor_id"] = codec.to_utf8(r.editor_id);
    e["part"] = r.outcome.part;
    e["winner"] = order.plugin(r.winner).name;
    e["sources"] = names_of(order, r.outcome.sources);
    e["notes"] = r.outcome.notes;
    records.push_back(std::move(e));
  }
  j["records"] = std::move(records);
  j["warnings"] = plan.warnings;
  return j;
}

std::string patch_tags_text(const loadorder::LoadOrder& order, const patch::PatchPlan& plan, std::string_view indent) {
  std::string out;
  for (const patch::PluginTags& t : plan.tags) {
    if (!has_tag_news(t)) continue;
    const auto& p = order.plugin(t.plugin);
    out += fmt::format("{}{}{}: {}\n", indent, p.name, p.active ? "" : " [inactive]",
                       t.tags.empty() ? std::string("(no tags)") : fmt::format("{}", fmt::join(t.tags, ", ")));
    for (const patch::TagChange& c : t.changes) out += fmt::format("{}    {}\n", indent, change_text(c));
    for (const patch::TagUse& u : plan.tag_uses)
      if (u.plugin == t.plugin)
        out += fmt::format("{}    {} {}: {}\n", indent, u.tag, u.used ? "used" : "not used", u.why);
  }
  return out;
}

std::string patch_report_text(const loadorder::LoadOrder& order, const patch::PatchPlan& plan, const TextCodec& codec) {
  std::size_t lists = 0;
  for (const patch::PatchRecord& r : plan.records) lists += r.outcome.part == "leveled list";
  std::string out = fmt::format("{}: {}, {} mode, remove empty sublists {}\n", plan.name, order.game_title(),
                                mode_name(plan.mode), plan.remove_empty ? "on" : "off");
  out += fmt::format("  read {} plugins: {}\n", plan.sources.size(), fmt::join(names_of(order, plan.sources), ", "));
  if (plan.skipped_patch)
    out += fmt::format("  not read: {} (the patch's own name)\n", order.plugin(*plan.skipped_patch).name);
  out += "  tags:\n";
  const std::string tags = patch_tags_text(order, plan, "    ");
  out += tags.empty() ? "    (no plugin has tags)\n" : tags;
  out += fmt::format("  records: {} ({} leveled lists, {} imports; {} lists with overrides read)\n", plan.records.size(),
                     lists, plan.records.size() - lists, plan.lists_read);
  for (const patch::PatchRecord& r : plan.records) {
    out += fmt::format("    {} {} {}: {}, over {}\n", r.header.type.str(), form_text(order, r.form),
                       r.editor_id.empty() ? std::string("-") : codec.to_utf8(r.editor_id), r.outcome.part,
                       order.plugin(r.winner).name);
    for (const std::string& n : r.outcome.notes) out += "      " + n + "\n";
  }
  out += fmt::format("  masters: {}\n", plan.masters.empty() ? std::string("(none)")
                                                             : fmt::format("{}", fmt::join(names_of(order, plan.masters), ", ")));
  for (const std::string& w : plan.warnings) out += "  warning: " + w + "\n";
  return out;
}

}  // namespace tesmod::text
