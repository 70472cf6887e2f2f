// `tesmod clean PLUGIN`: ITMs removed and deleted references undeleted against the plugin's
// masters, byte-exact, with each decision and its reason; `tesmod clean --all --dry-run`: the
// report of every active plugin of a load order.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "load_order_args.hpp"
#include "tesmod/clean/clean.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/text_encoding.hpp"

namespace tesmod::cli {

namespace {

struct CleanArgs {
  std::string plugin;
  std::string data;
  std::string plugins;
  std::string output;
  bool all = false;
  bool in_place = false;
  bool dry_run = false;
  bool json = false;
  bool loot = false;
  bool no_itm = false;
  bool no_udr = false;
};

nlohmann::ordered_json report_json(const clean::CleanReport& r) {
  nlohmann::ordered_json j;
  j["plugin"] = r.plugin;
  j["masters"] = r.masters;
  j["crc_before"] = fmt::format("{:08X}", r.crc_before);
  j["crc_after"] = fmt::format("{:08X}", r.crc_after);
  for (clean::CleanKind kind : clean::kCleanKinds) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const clean::CleanDecision& d : r.decisions)
      if (d.kind == kind) list.push_back(fmt::format("{:08X}", d.form_id));
    j[std::string(clean::kind_key(kind))] = std::move(list);
  }
  return j;
}

std::string report_text(const clean::CleanReport& r, const TextCodec& codec, std::string_view outcome) {
  std::string out = r.plugin + (r.masters.empty() ? std::string(" (no masters)") : " (masters: " + fmt::format("{}", fmt::join(r.masters, ", ")) + ")") + "\n";
  for (const clean::CleanDecision& d : r.decisions) {
    out += fmt::format("  {:<26} {} {:08X} {}: {}\n", clean::kind_reason(d.kind), d.type.str(), d.form_id,
                       d.editor_id.empty() ? std::string("-") : codec.to_utf8(d.editor_id), d.detail);
  }
  out += fmt::format("  {} ITM, {} ITM kept, {} ITPO, {} UDR, {} NAV, {} deleted records, {} skipped; CRC {:08X} -> {:08X}: {}\n",
                     r.count(clean::CleanKind::Itm), r.count(clean::CleanKind::ItmKept), r.count(clean::CleanKind::Itpo),
                     r.count(clean::CleanKind::Udr), r.count(clean::CleanKind::Nav),
                     r.count(clean::CleanKind::DeletedOther), r.count(clean::CleanKind::Skipped), r.crc_before,
                     r.crc_after, outcome);
  return out;
}

// The plugin's entry in LOOT's masterlist: dirty (with the counts) or clean, keyed on its CRC.
std::string loot_text(const clean::CleanReport& r) {
  std::string name = r.plugin;
  for (std::size_t p = name.find('\''); p != std::string::npos; p = name.find('\'', p + 2)) name.insert(p, 1, '\'');
  const std::size_t itm = r.count(clean::CleanKind::Itm), udr = r.count(clean::CleanKind::Udr),
                    nav = r.count(clean::CleanKind::Nav);
  std::string out = fmt::format("  - name: '{}'\n", name);
  if (itm + udr + nav == 0)
    return out + fmt::format("    clean:\n      - crc: 0x{:08X}\n        util: 'tesmod {}'\n", r.crc_before, TESMOD_VERSION);
  return out + fmt::format("    dirty:\n      - crc: 0x{:08X}\n        util: 'tesmod {}'\n        itm: {}\n        udr: {}\n        nav: {}\n",
                           r.crc_before, TESMOD_VERSION, itm, udr, nav);
}

int run_one(const CleanArgs& a, const Common& common) {
  namespace fs = std::filesystem;
  const int outputs = int(!a.output.empty()) + int(a.in_place) + int(a.dry_run);
  if (outputs != 1) throw UsageError("clean: give exactly one of -o OUT, --in-place and --dry-run");
  if (!a.output.empty()) {
    std::error_code ec;
    if (fs::equivalent(a.plugin, a.output, ec))
      throw UsageError("clean: the output is the input file; pass --in-place to replace it");
  }
  expect_plugin(a.plugin);
  const fs::path plugin(a.plugin);
  const fs::path data = !a.data.empty() ? fs::path(a.data)
                        : plugin.parent_path().empty() ? fs::path(".")
                                                       : plugin.parent_path();
  const loadorder::LoadOrder order = clean::open_with_masters(plugin, data, common.threads);
  std::optional<std::uint32_t> position;
  for (std::uint32_t p = 0; p < order.plugins().size(); ++p) {
    std::error_code ec;
    if (fs::equivalent(order.plugin(p).path, plugin, ec)) position = p;
  }
  if (!position) throw Error(a.plugin, Error::kNoOffset, std::nullopt, "the plugin is not in the load order read for it");
  clean::CleanOptions options;
  options.itm = !a.no_itm;
  options.udr = !a.no_udr;
  clean::CleanReport report = clean::plan_cleaning(order, *position, options);
  std::string outcome;
  if (a.dry_run) {
    clean::set_crc_after(order, *position, report);
    outcome = report.changes() ? "would be cleaned (dry run)" : "nothing to clean";
  } else {
    const std::vector<std::uint8_t> bytes = clean::clean_bytes(order, *position, report);
    const fs::path target = a.in_place ? plugin : fs::path(a.output);
    if (report.changes() || !a.in_place) write_file_atomic(target, bytes);
    outcome = report.changes() ? "cleaned, written to " + target.string()
                               : (a.in_place ? std::string("nothing to clean, left as it is")
                                             : "nothing to clean, copied to " + target.string());
  }
  if (a.json) std::cout << report_json(report).dump(2) << '\n';
  else if (a.loot) std::cout << loot_text(report);
  else std::cout << report_text(report, TextCodec(common.encoding), outcome);
  return a.dry_run && report.changes() ? kExitError : kExitOk;
}

int run_all(const CleanArgs& a, const Common& common) {
  if (!a.dry_run || !a.output.empty() || a.in_place)
    throw UsageError("clean --all reports only: give --dry-run (and clean plugins one at a time)");
  LoadOrderArgs order_args;
  order_args.data = a.data;
  order_args.plugins = a.plugins;
  const loadorder::LoadOrder order = open_load_order(order_args, common.threads);
  clean::CleanOptions options;
  options.itm = !a.no_itm;
  options.udr = !a.no_udr;
  const std::vector<clean::PluginCleanPlan> plans = clean::plan_cleaning_all(order, options);
  bool dirty = false, failed = false;
  const TextCodec codec(common.encoding);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string text;
  for (const clean::PluginCleanPlan& plan : plans) {
    if (!plan.report) {
      failed = true;
      if (a.json) list.push_back({{"plugin", order.plugin(plan.position).name}, {"error", plan.error}});
      else std::cerr << "tesmod: error: " << plan.error << "\n";
      continue;
    }
    const clean::CleanReport& r = *plan.report;
    dirty = dirty || r.changes();
    if (a.json) list.push_back(report_json(r));
    else if (a.loot) text += loot_text(r);
    else text += report_text(r, codec, r.changes() ? "would be cleaned (dry run)" : "nothing to clean");
  }
  if (a.json) std::cout << list.dump(2) << '\n';
  else std::cout << text;
  if (!a.json && !order.problems().empty()) std::cerr << problems_text(order.problems());
  return dirty || failed ? kExitError : kExitOk;
}

}  // namespace

Command add_clean(CLI::App& app, Common& common) {
  auto args = std::make_shared<CleanArgs>();
  CLI::App* sub = app.add_subcommand(
      "clean", "Remove records identical to their masters' (ITM) and undelete deleted references (UDR), "
               "byte-exact, with the reason for each decision; --dry-run exits 1 when there is something to clean");
  sub->add_option("PLUGIN", args->plugin, "The plugin to clean");
  sub->add_option("--data", args->data, "The folder holding the masters (default: the plugin's folder; with --all: .)");
  sub->add_flag("--all", args->all, "Report on every active plugin of the load order in --data (with --dry-run)");
  sub->add_option("--plugins", args->plugins, "With --all: the plugins.txt to read (default: DATA/plugins.txt)");
  sub->add_flag("--dry-run", args->dry_run, "Write nothing; exit 1 when there is something to clean, 0 when not");
  auto* json = sub->add_flag("--json", args->json, "Print the report as JSON");
  auto* loot = sub->add_flag("--loot", args->loot, "Print the plugin's LOOT masterlist entry (dirty or clean)");
  json->excludes(loot);
  sub->add_flag("--no-itm", args->no_itm, "Keep ITMs (they are still reported)");
  sub->add_flag("--no-udr", args->no_udr, "Keep deleted references deleted (they are still reported)");
  auto* out = sub->add_option("-o,--output", args->output, "Where to write the cleaned plugin");
  auto* in_place = sub->add_flag("--in-place", args->in_place, "Replace PLUGIN (atomically)");
  out->excludes(in_place);
  add_common_options(*sub, common);
  return {sub, [args, &common] {
            if (args->all) {
              if (!args->plugin.empty()) throw UsageError("clean --all takes no PLUGIN");
              return run_all(*args, common);
            }
            if (args->plugin.empty()) throw UsageError("clean: give a PLUGIN, or --all");
            if (!args->plugins.empty()) throw UsageError("clean: --plugins goes with --all");
            return run_one(*args, common);
          }};
}

}  // namespace tesmod::cli
