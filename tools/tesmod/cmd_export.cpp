// `tesmod export` and `tesmod import`: a plugin as a folder of editable text files, and back.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "tesmod/io/counted.hpp"
#include "tesmod/text/plugin_text.hpp"
#include "tesmod/text/plugin_text_namer.hpp"

namespace tesmod::cli {
namespace {

void print_list(std::string_view what, const std::vector<std::string>& names) {
  if (names.empty()) return;
  std::cout << std::flush;  // after what stdout said so far, also through pipes
  // Entries may hold blanks ("Skyrim.esm: not found"): they are separated by "; ".
  std::cerr << fmt::format("tesmod: note: {} ({}): ", what, names.size());
  for (std::size_t i = 0; i < names.size() && i < 20; ++i) std::cerr << (i ? "; " : "") << names[i];
  if (names.size() > 20) std::cerr << "; ...";
  std::cerr << '\n';
}

}  // namespace

Command add_export(CLI::App& app, Common& common) {
  struct Args {
    std::string plugin;
    std::string dir;
    bool to_stdout = false;
    bool replace = false;
    bool no_masters = false;
    std::vector<std::string> data;
    std::string language = "English";
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("export", "Write a plugin as a folder of editable text files (tesmod import reads it back)");
  sub->add_option("PLUGIN", args->plugin, "Plugin to export")->required();
  sub->add_option("DIR", args->dir, "Folder to write (created; atomically replaced with --replace)");
  sub->add_flag("--stdout", args->to_stdout, "Print the whole plugin as one text instead (for git diff's textconv)");
  sub->add_flag("--replace", args->replace, "Replace an earlier export in DIR (its dot files, such as .git, are kept)");
  sub->add_flag("--no-masters", args->no_masters, "Do not read master files for EditorIDs (forms shown as File.esm:00ABCDEF)");
  sub->add_option("--data", args->data, "Folder to look for masters in (default: beside the plugin); repeatable");
  sub->add_option("--language", args->language, "String tables shown beside localized string ids")->capture_default_str();
  add_common_options(*sub, common);
  return {sub, [args, &common] {
            if (args->to_stdout == !args->dir.empty())
              throw UsageError("export: give DIR, or --stdout to print the plugin as one text");
            expect_plugin(args->plugin);
            if (args->to_stdout) {
              OpenOptions o;
              o.threads = common.threads;
              const PluginFile file = open_plugin(args->plugin, o);
              text::PluginNamerOptions naming;
              naming.load_masters = !args->no_masters;
              naming.master_dirs.assign(args->data.begin(), args->data.end());
              naming.threads = common.threads;
              const text::PluginNamer names = text::plugin_text_namer(file, naming);
              std::cout << text::plugin_text(file, names.namer, TextCodec(common.encoding));
              return kExitOk;
            }
            text::ExportOptions o;
            o.threads = common.threads;
            o.encoding = common.encoding;
            o.load_masters = !args->no_masters;
            o.master_dirs.assign(args->data.begin(), args->data.end());
            o.language = args->language;
            o.replace = args->replace;
            const text::ExportSummary s = text::export_plugin(args->plugin, args->dir, o);
            // Records are counted as info and HEDR count them: the TES4 header apart.
            std::cout << fmt::format(
                "exported the TES4 header, {} and {} into {} and {} ({}, {}, a _group.txt in each folder, plugin.txt "
                "and names.txt; {} of text)\n",
                counted(s.records - 1, "record"), counted(s.groups, "group"), counted(s.all_files(), "file"),
                counted(s.folders, "folder"), counted(s.files, "record file"), counted(s.script_files, "script source"),
                s.text_bytes >= 1000000 ? fmt::format("{:.1f} MB", double(s.text_bytes) / 1e6)
                                        : fmt::format("{:.1f} kB", double(s.text_bytes) / 1e3));
            if (s.hex_records || s.stored_records)
              std::cout << fmt::format("{} written with every field as hex and {} as their stored bytes, "
                                       "because their typed text would not read back exactly\n",
                                       counted(s.hex_records, "record"), s.stored_records);
            print_list("masters not read, so their forms are shown as File:ID", s.masters_missing);
            return kExitOk;
          }};
}

Command add_import(CLI::App& app, Common& common) {
  struct Args {
    std::string dir;
    std::string output;
    std::string in_place;
    std::vector<std::string> data;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("import", "Write a plugin from a folder tesmod export made (atomically; nothing is written on error)");
  sub->add_option("DIR", args->dir, "Exported folder")->required();
  auto* out = sub->add_option("-o,--output", args->output, "Plugin to write");
  auto* in_place = sub->add_option("--in-place", args->in_place, "Plugin to replace (atomically)");
  out->excludes(in_place);
  sub->add_option("--data", args->data, "Folder with the masters, for names the folder does not define and for compiling "
                                        "changed scripts (default: beside the output); repeatable");
  sub->add_option("--threads", common.threads, "Worker threads (default: all cores)");
  return {sub, [args, &common] {
            if (args->output.empty() == args->in_place.empty())
              throw UsageError("import: give -o OUT, or --in-place PLUGIN to replace that plugin");
            const std::string target = args->output.empty() ? args->in_place : args->output;
            text::ImportOptions o;
            o.threads = common.threads;
            o.master_dirs.assign(args->data.begin(), args->data.end());
            const text::ImportSummary s = text::import_plugin(args->dir, target, o);
            print_list("listed but missing, so left out", s.missing);
            print_list("not listed, so added at the end of their group", s.unlisted);
            std::cout << fmt::format("imported the TES4 header, {} and {} from {} into {}\n", counted(s.records - 1, "record"),
                                     counted(s.groups, "group"), counted(s.files, "record file"), target);
            if (s.scripts_compiled) {
              std::cout << "compiled " << counted(s.scripts_compiled, "changed script");
              if (s.script_hints) std::cout << fmt::format(" ({} of masters not at hand, from names.txt)", counted(s.script_hints, "name"));
              std::cout << '\n';
            }
            return kExitOk;
          }};
}

}  // namespace tesmod::cli
