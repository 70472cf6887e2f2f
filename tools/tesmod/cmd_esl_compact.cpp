// `tesmod esl compact PLUGIN`: the plugin's new records renumbered into the light range, with
// every dependant in the data folder rewritten; the old -> new map as JSON.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cmd_esl.hpp"
#include "load_order_args.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/light/compact.hpp"

namespace tesmod::cli {

namespace {

namespace fs = std::filesystem;

struct CompactArgs {
  std::string plugin;
  std::string data;
  std::string plugins;
  std::string game;
  std::string hedr;
  std::string output;
  std::string map;
  bool flag = false;
  bool in_place = false;
  bool dry_run = false;
  bool json = false;
};

// The map as ESLifier keeps one: FormIDs as the plugin stores them.
nlohmann::ordered_json map_json(const light::CompactPlan& plan, bool hedr171_after) {
  nlohmann::ordered_json j;
  j["plugin"] = plan.plugin;
  j["hedr"] = hedr171_after ? nlohmann::ordered_json("1.71") : nlohmann::ordered_json(nullptr);
  nlohmann::ordered_json map = nlohmann::ordered_json::object();
  for (const light::Renumbered& r : plan.renumbered) map[fmt::format("{:08X}", r.from)] = fmt::format("{:08X}", r.to);
  j["map"] = std::move(map);
  return j;
}

std::string range_text(const LightRange& range) { return fmt::format("{:03X}-{:03X}", range.first, range.last); }

int run(const CompactArgs& a, const Common& common) {
  const int outputs = int(!a.output.empty()) + int(a.in_place) + int(a.dry_run);
  if (outputs != 1) throw UsageError("esl compact: give exactly one of -o DIR, --in-place and --dry-run");
  if (!a.hedr.empty() && a.hedr != "1.71") throw UsageError("esl compact: --hedr takes 1.71, not '" + a.hedr + "'");
  const fs::path plugin_arg(a.plugin);
  const std::string name = plugin_arg.filename().string();
  LoadOrderArgs order_args;
  order_args.data = !a.data.empty() ? a.data : plugin_arg.parent_path().empty() ? "." : plugin_arg.parent_path().string();
  order_args.plugins = a.plugins;
  order_args.game = a.game.empty() ? "skyrimse" : a.game;
  const loadorder::LoadOrder order = open_load_order(order_args, common.threads);
  const auto position = order.find(name);
  if (!position) throw UsageError("esl compact: '" + name + "' is not in the data folder " + order_args.data);
  if (!a.output.empty()) {
    std::error_code ec;
    if (fs::equivalent(a.output, order_args.data, ec))
      throw UsageError("esl compact: the output folder is the data folder; pass --in-place to replace the files");
  }

  light::CompactOptions options;
  options.hedr171 = !a.hedr.empty();
  options.flag = a.flag;
  const light::CompactPlan plan = light::plan_compaction(order, *position, options);
  const bool hedr171_after = options.hedr171 || hedr_allows_low_range(plan.hedr_before);
  // Everything is computed before anything is written: an error leaves every file as it was.
  std::vector<light::CompactedFile> files;
  if (plan.changes()) files = light::compact_files(order, plan);
  const fs::path data(order_args.data);
  light::LooseFilePlan loose;
  if (!plan.object_map.empty()) {
    light::LooseFileOptions loose_options;
    loose_options.own_index = plan.own_index;
    loose = light::plan_loose_files(data, plan.plugin, plan.object_map, loose_options);
  }
  if (!a.dry_run) light::write_compaction(files, loose, data, a.in_place ? std::nullopt : std::optional<fs::path>(a.output));
  if (!a.map.empty()) write_file_atomic(a.map, [&] {
      const std::string text = map_json(plan, hedr171_after).dump(2) + "\n";
      return std::vector<std::uint8_t>(text.begin(), text.end());
    }());

  const TextCodec codec(common.encoding);
  if (a.json) {
    nlohmann::ordered_json j = map_json(plan, hedr171_after);
    j["range"] = range_text(plan.range);
    j["new_records"] = plan.new_records;
    j["next_object_id"] = fmt::format("{:06X}", plan.next_object_id);
    j["set_flag"] = plan.set_flag;
    nlohmann::ordered_json deps = nlohmann::ordered_json::array();
    for (std::uint32_t p : plan.dependants) deps.push_back(order.plugin(p).name);
    j["dependants"] = std::move(deps);
    nlohmann::ordered_json written = nlohmann::ordered_json::array();
    for (const light::CompactedFile& f : files)
      written.push_back({{"name", f.name}, {"records_changed", f.records_changed}, {"references", f.references}});
    j[a.dry_run ? "would_write" : "written"] = std::move(written);
    j["loose_files"] = light::loose_files_json(loose);
    j["warnings"] = plan.warnings;
    std::cout << j.dump(2) << '\n';
  } else {
    std::string text = fmt::format("{}: {} new record{}, {} renumbered into {}", plan.plugin, plan.new_records,
                                   plan.new_records == 1 ? "" : "s", plan.renumbered.size(), range_text(plan.range));
    if (plan.set_hedr171) text += ", HEDR 1.71";
    if (plan.set_flag) text += ", ESL flag set";
    text += "\n";
    for (const light::Renumbered& r : plan.renumbered)
      text += fmt::format("  {} {:08X} -> {:08X} {}\n", r.type.str(), r.from, r.to,
                          r.editor_id.empty() ? std::string("-") : codec.to_utf8(r.editor_id));
    for (const light::CompactedFile& f : files)
      text += fmt::format("  {} {}: {} record{} changed, {} reference{} rewritten\n", a.dry_run ? "would write" : "wrote",
                          a.in_place ? f.source.string() : (fs::path(a.output) / f.name).string(), f.records_changed,
                          f.records_changed == 1 ? "" : "s", f.references, f.references == 1 ? "" : "s");
    for (const std::string& line : light::loose_file_lines(loose)) text += "  " + line + "\n";
    for (const std::string& w : plan.warnings) text += "  warning: " + w + "\n";
    if (!plan.changes()) text += "  nothing to compact\n";
    std::cout << text;
  }
  return a.dry_run && plan.changes() ? kExitError : kExitOk;
}

}  // namespace

Command add_esl_compact(CLI::App& esl, Common& common) {
  auto args = std::make_shared<CompactArgs>();
  CLI::App* sub = esl.add_subcommand(
      "compact", "Renumber a plugin's new records into the light range and rewrite every reference to them, in the "
                 "plugin and in every plugin of the data folder that has it as a master; --dry-run exits 1 when "
                 "there is something to do");
  sub->add_option("PLUGIN", args->plugin, "The plugin to compact (a file, or a name in --data)")->required();
  sub->add_option("--data", args->data, "The Data folder (default: the plugin's folder)");
  sub->add_option("--plugins", args->plugins, "The plugins.txt to read (default: DATA/plugins.txt, any case)");
  sub->add_option("--game", args->game, "skyrimse (the default: light plugins are Skyrim SE's)");
  sub->add_option("--hedr", args->hedr, "1.71: set the plugin's HEDR version to 1.71 (and use ids below 800 when "
                                        "800-FFF is full; dependants then get 1.71 too)");
  sub->add_flag("--flag", args->flag, "Set the ESL flag");
  auto* out = sub->add_option("-o,--output", args->output, "The folder to write the changed files into");
  auto* in_place = sub->add_flag("--in-place", args->in_place, "Replace the files in the data folder (atomically)");
  sub->add_flag("--dry-run", args->dry_run, "Write no plugin; exit 1 when there is something to do");
  out->excludes(in_place);
  sub->add_option("--map", args->map, "Write the old -> new FormID map as JSON to this file");
  sub->add_flag("--json", args->json, "Print the report as JSON");
  add_common_options(*sub, common);
  return {sub, [args, &common] { return run(*args, common); }};
}

}  // namespace tesmod::cli
