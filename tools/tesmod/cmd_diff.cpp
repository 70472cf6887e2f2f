// `tesmod diff A B`: the records added, removed, changed (with their changed field lines and
// script source diffs) and moved between two plugins. Exit 0 when they are the same, 1 when not.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "tesmod/text/plugin_diff.hpp"

namespace tesmod::cli {
namespace {

struct DiffArgs {
  std::string old_file;
  std::string new_file;
  bool json = false;
  bool no_masters = false;
  std::vector<std::string> data;
};

// `WEAP 00012EB7 IronSword`
std::string record_label(const RecordRef& r) {
  std::string out = fmt::format("{} {:08X}", r.type.str(), r.form_id);
  if (!r.editor_id.empty()) out += ' ' + r.editor_id;
  return out;
}

nlohmann::ordered_json record_json(const RecordRef& r) {
  return {{"type", r.type.str()}, {"form_id", fmt::format("{:08X}", r.form_id)}, {"editor_id", r.editor_id}};
}

void print_text(const text::PluginDiff& d, const DiffArgs& a) {
  std::string out = fmt::format("--- {}\n+++ {}\n", a.old_file, a.new_file);
  for (const text::RecordChange& c : d.changed) {
    out += "changed " + record_label(c.record) + '\n';
    for (const std::string& line : c.lines)  // `-DATA ...` as `  - DATA ...`
      fmt::format_to(std::back_inserter(out), "  {} {}\n", line[0], line.substr(1));
    for (const text::ScriptSourceDiff& s : c.scripts) {
      out += s.index ? fmt::format("  script source {}:\n", s.index + 1) : "  script source:\n";
      for (const std::string& line : s.lines) out += "  " + line + '\n';
    }
    for (const std::string& note : c.notes) out += "  (" + note + ")\n";
  }
  for (const text::RecordMove& m : d.moved)
    out += fmt::format("moved {} from {} to {}\n", record_label(m.record), m.from, m.to);
  for (const RecordRef& r : d.added) out += "added " + record_label(r) + '\n';
  for (const RecordRef& r : d.removed) out += "removed " + record_label(r) + '\n';
  out += fmt::format("summary: {} added, {} removed, {} changed, {} moved\n", d.added.size(), d.removed.size(),
                     d.changed.size(), d.moved.size());
  std::cout << out;
}

void print_json(const text::PluginDiff& d, const DiffArgs& a) {
  nlohmann::ordered_json j;
  j["old"] = a.old_file;
  j["new"] = a.new_file;
  j["identical"] = d.identical();
  auto list = [](const std::vector<RecordRef>& records) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const RecordRef& r : records) out.push_back(record_json(r));
    return out;
  };
  j["added"] = list(d.added);
  j["removed"] = list(d.removed);
  nlohmann::ordered_json changed = nlohmann::ordered_json::array();
  for (const text::RecordChange& c : d.changed) {
    nlohmann::ordered_json r = record_json(c.record);
    r["lines"] = c.lines;
    nlohmann::ordered_json scripts = nlohmann::ordered_json::array();
    for (const text::ScriptSourceDiff& s : c.scripts) scripts.push_back({{"index", s.index}, {"lines", s.lines}});
    r["scripts"] = std::move(scripts);
    r["notes"] = c.notes;
    changed.push_back(std::move(r));
  }
  j["changed"] = std::move(changed);
  nlohmann::ordered_json moved = nlohmann::ordered_json::array();
  for (const text::RecordMove& m : d.moved) {
    nlohmann::ordered_json r = record_json(m.record);
    r["from"] = m.from;
    r["to"] = m.to;
    moved.push_back(std::move(r));
  }
  j["moved"] = std::move(moved);
  j["summary"] = {{"added", d.added.size()}, {"removed", d.removed.size()}, {"changed", d.changed.size()},
                  {"moved", d.moved.size()}};
  std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace

Command add_diff(CLI::App& app, Common& common) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* sub = app.add_subcommand("diff", "Records added, removed, changed (field lines, script sources) and moved "
                                             "between two plugins; exit 1 when they differ");
  sub->add_option("A", args->old_file, "The old plugin")->required();
  sub->add_option("B", args->new_file, "The new plugin (of the same game)")->required();
  sub->add_flag("--json", args->json, "Print JSON");
  sub->add_flag("--no-masters", args->no_masters,
                 "Do not read master files for EditorIDs (forms shown as File.esm:00ABCDEF)");
  sub->add_option("--data", args->data, "Folder to look for masters in (default: beside the two plugins); repeatable");
  add_common_options(*sub, common);
  return {sub, [args, &common] {
            OpenOptions o;
            o.threads = common.threads;
            const PluginFile old_file = open_plugin(args->old_file, o);
            const PluginFile new_file = open_plugin(args->new_file, o);
            text::DiffOptions options;
            options.threads = common.threads;
            options.naming.load_masters = !args->no_masters;
            options.naming.master_dirs.assign(args->data.begin(), args->data.end());
            if (args->data.empty()) {
              // Masters beside either plugin name forms in both: the same form, the same text.
              for (const std::string& plugin : {args->old_file, args->new_file}) {
                const std::filesystem::path dir = std::filesystem::path(plugin).parent_path();
                options.naming.master_dirs.push_back(dir.empty() ? "." : dir);
              }
            }
            options.naming.threads = common.threads;
            const text::PluginDiff d = text::diff_plugins(old_file, new_file, TextCodec(common.encoding), options);
            if (args->json) print_json(d, *args);
            else print_text(d, *args);
            return d.identical() ? kExitOk : kExitError;
          }};
}

}  // namespace tesmod::cli
