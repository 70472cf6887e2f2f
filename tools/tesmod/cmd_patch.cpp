// `tesmod patch`: the Bashed Patch of a load order, headless — leveled lists merged (Wrye Bash's
// rules with Relev/Delev, or a three-way merge), fields imported by Bash Tags — written as one
// plugin, with a report of what each record took from where and what each tag did.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "load_order_args.hpp"
#include "tesmod/clean/clean.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/patch/patch.hpp"
#include "tesmod/text/patch_report.hpp"

namespace tesmod::cli {

namespace {

struct PatchArgs {
  LoadOrderArgs order;
  std::string output;
  std::string mode = "wryebash";
  std::string masterlist;
  std::string userlist;
  std::vector<std::string> tags;
  std::string remove_empty = "auto";
  std::string only;
  bool tags_only = false;
  bool dry_run = false;
  bool json = false;
};

int run(const PatchArgs& a, const Common& common) {
  namespace fs = std::filesystem;
  if (a.output.empty() && !a.dry_run && !a.tags_only)
    throw UsageError("patch: give -o OUT (the patch's file name is its name), or --dry-run or --tags-only");
  patch::PatchOptions options;
  if (!a.output.empty()) options.name = fs::path(a.output).filename().string();
  const auto mode = patch::parse_list_mode(a.mode);
  if (!mode) throw UsageError("--mode: expected wryebash or merge, not '" + a.mode + "'");
  options.mode = *mode;
  const auto remove_empty = patch::parse_remove_empty(a.remove_empty);
  if (!remove_empty) throw UsageError("--remove-empty: expected auto, on or off, not '" + a.remove_empty + "'");
  options.remove_empty = *remove_empty;
  if (!a.only.empty()) {
    const auto parts = patch::parse_patch_parts(a.only);
    if (!parts) throw UsageError("--only: expected lists or imports, not '" + a.only + "'");
    options.parts = *parts;
  }
  for (const std::string& t : a.tags) {
    const std::size_t eq = t.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--tags: expected PLUGIN=Tag,-Tag, not '" + t + "'");
    options.tags.command_line.push_back({t.substr(0, eq), t.substr(eq + 1)});
  }
  const loadorder::LoadOrder order = open_load_order(a.order, common.threads);
  options.tags.data = !a.order.data.empty() ? fs::path(a.order.data)
                      : !a.order.files.empty() && fs::path(a.order.files.front()).has_parent_path()
                          ? fs::path(a.order.files.front()).parent_path()
                          : fs::path(".");
  std::optional<patch::LootMetadata> masterlist, userlist;
  if (!a.masterlist.empty()) {
    masterlist = patch::read_loot_metadata(a.masterlist, patch::LootFile::Masterlist);
    options.tags.masterlist = &*masterlist;
  }
  if (!a.userlist.empty()) {
    userlist = patch::read_loot_metadata(a.userlist, patch::LootFile::Userlist);
    options.tags.userlist = &*userlist;
  }
  const patch::PatchPlan plan = patch::plan_patch(order, options);
  const TextCodec codec(common.encoding);
  std::string written;
  if (!a.dry_run && !a.tags_only) {
    const std::vector<std::uint8_t> bytes = patch::patch_bytes(order, plan);
    write_file_atomic(a.output, bytes);
    written = fmt::format("written to {} ({} bytes, CRC {:08X})", a.output, bytes.size(), clean::crc32_of(bytes));
  }
  if (a.json) {
    nlohmann::ordered_json j = text::patch_report_json(order, plan, codec);
    j["written"] = written.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(a.output);
    j["problems"] = nlohmann::ordered_json::array();
    for (const loadorder::Problem& p : order.problems()) j["problems"].push_back({{"file", p.file}, {"message", p.message}});
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  } else if (a.tags_only) {
    const std::string tags = text::patch_tags_text(order, plan);
    std::cout << (tags.empty() ? std::string("no plugin has tags\n") : tags);
    for (const std::string& w : plan.warnings)
      if (w.find("tag") != std::string::npos) std::cout << "  warning: " << w << '\n';
  } else {
    std::cout << text::patch_report_text(order, plan, codec);
    std::cout << "  " << (written.empty() ? std::string("not written (dry run)") : written) << '\n';
    if (!order.problems().empty()) std::cerr << problems_text(order.problems());
  }
  return kExitOk;
}

}  // namespace

Command add_patch(CLI::App& app, Common& common) {
  auto args = std::make_shared<PatchArgs>();
  CLI::App* sub = app.add_subcommand(
      "patch", "Build the Bashed Patch of a load order headless: leveled lists merged as Wrye Bash merges them "
               "(Relev/Delev) or three-way, fields imported by Bash Tags; with the reasons for every record");
  add_load_order_options(*sub, args->order, "Plugin files in load order, all active (instead of --data's lists)");
  sub->add_option("-o,--output", args->output, "The patch to write (atomically); its file name is the patch's name");
  sub->add_option("--mode", args->mode, "wryebash (Wrye Bash's Leveled Lists rules, the default) or merge (three-way, no tags)");
  sub->add_option("--masterlist", args->masterlist, "LOOT's masterlist.yaml: Bash Tags (and their conditions)");
  sub->add_option("--userlist", args->userlist, "LOOT's userlist.yaml: Bash Tags, after the masterlist's");
  sub->add_option("--tags", args->tags, "PLUGIN=Tag,-Tag: tags added or removed after every other source (repeatable)");
  sub->add_option("--remove-empty", args->remove_empty, "Take empty sublists out of leveled lists: auto (on for Oblivion), on, off");
  sub->add_option("--only", args->only, "lists or imports: build only that part");
  sub->add_flag("--tags-only", args->tags_only, "Only show each plugin's tags, where they came from and whether they are used");
  sub->add_flag("--dry-run", args->dry_run, "Plan and report, write nothing");
  sub->add_flag("--json", args->json, "Print the report as JSON");
  add_common_options(*sub, common);
  return {sub, [args, &common] { return run(*args, common); }};
}

}  // namespace tesmod::cli
