// `tesmod script`: list, decompile, compile and check Oblivion scripts.
#include <fmt/format.h>

#include <fstream>
#include <set>
#include <span>
#include <stdexcept>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/counted.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/script/compiler.hpp"
#include "tesmod/script/decompiler.hpp"
#include "tesmod/script/plugin_master_facts.hpp"
#include "tesmod/script/plugin_names.hpp"
#include "tesmod/script/plugin_scripts.hpp"
#include "tesmod/script/script_in_plugin.hpp"

namespace tesmod::cli {
namespace {

using script::PluginScript;

std::string label(const PluginScript& s) {
  std::string text = fmt::format("{} {:08X}", s.record_type.str(), s.form_id);
  if (!s.editor_id.empty()) text += " " + s.editor_id;
  if (s.count_in_record > 1) text += fmt::format(" #{}", s.index + 1);
  return text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path, Error::kNoOffset, std::nullopt, "cannot open the source file");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

script::ScriptType parse_type(const std::string& text) {
  if (auto t = script::parse_script_type(text)) return *t;
  throw UsageError(fmt::format("script: unknown script type '{}': expected object, quest or magic-effect", text));
}

std::vector<std::string> obse_builds(std::span<const PluginScript> scripts, std::string_view source,
                                     const std::vector<std::string>& named) {
  try {
    return script::obse_builds_for(scripts, source, named);
  } catch (const std::invalid_argument& e) {
    throw UsageError(fmt::format("--obse-plugin: {}", e.what()));
  }
}

int run_list(const std::string& path, bool json) {
  PluginFile file = open_plugin(path);
  const std::vector<PluginScript> scripts = script::plugin_scripts(file);
  if (json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const PluginScript& s : scripts) {
      nlohmann::ordered_json j;
      j["record_type"] = s.record_type.str();
      j["form_id"] = fmt::format("{:08X}", s.form_id);
      j["editor_id"] = s.editor_id;
      j["index"] = s.index;
      j["script_type"] = script::script_type_name(s);
      j["compiled_bytes"] = s.data.has_bytecode ? s.data.bytecode.size() : 0;
      j["variables"] = s.data.variables.size();
      j["refs"] = s.data.refs.size();
      if (s.error) j["error"] = *s.error;
      list.push_back(std::move(j));
    }
    nlohmann::ordered_json out;
    out["file"] = path;
    out["scripts"] = std::move(list);
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    return kExitOk;
  }
  for (const PluginScript& s : scripts) {
    if (s.error) {
      std::cout << fmt::format("{}  error: {}\n", label(s), *s.error);
      continue;
    }
    std::cout << fmt::format("{}  {}  {}, {}, {}\n", label(s), script::script_type_name(s),
                             counted(s.data.has_bytecode ? s.data.bytecode.size() : 0, "byte"),
                             counted(s.data.variables.size(), "variable"), counted(s.data.refs.size(), "ref"));
  }
  return kExitOk;
}

int run_decompile(const std::string& path, const std::string& which, const std::string& out_dir,
                  const std::vector<std::string>& named_builds) {
  PluginFile file = open_plugin(path);
  const std::vector<PluginScript> all = script::plugin_scripts(file);
  const std::vector<std::string> builds = obse_builds(all, {}, named_builds);
  std::vector<const PluginScript*> chosen;
  if (which.empty()) {
    for (const PluginScript& s : all) chosen.push_back(&s);
  } else {
    // An EditorID first: some are valid hex.
    for (const PluginScript& s : all)
      if (ascii::iequals(s.editor_id, which)) chosen.push_back(&s);
    if (chosen.empty()) {
      const std::uint32_t id = parse_form_id_arg(which, file.header(), path);
      for (const PluginScript& s : all)
        if (s.form_id == id) chosen.push_back(&s);
    }
    if (chosen.empty()) throw Error(path, Error::kNoOffset, std::nullopt, fmt::format("no script in a record '{}'", which));
  }
  const std::unique_ptr<script::PluginNames> names = script::PluginNames::build(file);
  if (!out_dir.empty()) std::filesystem::create_directories(out_dir);
  int status = kExitOk;
  for (const PluginScript* s : chosen) {
    std::string text;
    try {
      text = script::decompile_plugin_script(*s, *names, builds);
    } catch (const Error& e) {
      // One broken script does not stop the others; the exit code tells.
      if (chosen.size() == 1) throw;
      std::cerr << "tesmod: error: " << e.what() << '\n';
      status = kExitError;
      continue;
    }
    if (!out_dir.empty()) {
      const auto target = std::filesystem::path(out_dir) / (s->file_stem() + ".txt");
      write_file_atomic(target, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
    } else if (chosen.size() == 1) {
      std::cout << text;
    } else {
      std::cout << "; " << label(*s) << '\n' << text << '\n';
    }
  }
  return status;
}

struct CompileArgs {
  std::string file;
  std::string source;
  std::string editor_id;
  std::string output;
  std::string type = "object";
  std::string obse = "current";
  std::vector<std::string> obse_plugins;  // --obse-plugin: builds named by the user
  bool unquoted_strings = false;
  bool in_place = false;
};

script::ObseProfile parse_profile(const std::string& text) {
  script::ObseProfile p;
  if (!script::parse_obse_profile(text, p)) throw UsageError("--obse must be current or early, not '" + text + "'");
  return p;
}

// Prints `SRC:line:column: message` for a compile error.
int report(const std::string& source_path, const script::CompileError& e) {
  std::cerr << fmt::format("{}:{}:{}: {}\n", source_path, e.line(), e.column(), e.message());
  return kExitError;
}

int run_compile(const CompileArgs& a) {
  if (!a.in_place) {
    if (a.output.empty()) throw UsageError("script compile: give -o OUT, or --in-place to replace the input");
    std::error_code ec;
    if (std::filesystem::equivalent(a.file, a.output, ec))
      throw UsageError("script compile: the output is the input file; pass --in-place to replace it");
  }
  const std::string source = read_text(a.source);
  if (a.editor_id.empty() && !script::script_name(source))
    throw UsageError("script compile: the source has no ScriptName line; give --edid");
  PluginFile file = open_plugin(a.file);
  Plugin plugin = Plugin::from_file(file);
  script::CompileIntoOptions o;
  o.editor_id = a.editor_id;
  o.type = parse_type(a.type);
  o.obse_profile = parse_profile(a.obse);
  o.obse_plugins = a.obse_plugins;
  o.unquoted_strings = a.unquoted_strings;
  (void)obse_builds({}, {}, a.obse_plugins);  // unknown --obse-plugin names are a usage error
  script::CompiledIntoPlugin done;
  try {
    done = script::compile_into_plugin(plugin, file, source, o);
  } catch (const script::CompileError& e) {
    return report(a.source, e);
  }
  const std::filesystem::path target = a.in_place ? std::filesystem::path(a.file) : std::filesystem::path(a.output);
  plugin.save(target);
  std::cout << fmt::format("{} SCPT {:08X} {}\n", done.replaced ? "replaced" : "added", done.form_id, done.editor_id);
  return kExitOk;
}

int run_check(const std::string& source_path, const std::string& plugin_path, const std::string& type,
              const std::string& obse, const std::vector<std::string>& named_builds, bool unquoted_strings) {
  const std::string source = read_text(source_path);
  std::optional<PluginFile> file;
  std::unique_ptr<script::PluginNames> names;
  std::vector<PluginScript> scripts;
  script::CompileOptions o;
  o.type = parse_type(type);
  o.obse_profile = parse_profile(obse);
  o.unquoted_strings = unquoted_strings;
  if (!plugin_path.empty()) {
    file = open_plugin(plugin_path);
    names = script::PluginNames::build(*file);
    scripts = script::plugin_scripts(*file);
    o.names = names.get();
    // Recompiling an existing script keeps its variable indices and type.
    if (auto n = script::script_name(source))
      if (const PluginScript* existing = script::find_scpt(scripts, *n); existing && !existing->error) {
        o.previous = &existing->data;
        o.type = static_cast<script::ScriptType>(existing->data.header.type);
      }
  }
  o.obse_plugins = obse_builds(scripts, source, named_builds);
  // Names of masters not at hand, as compile finds them: what the plugin's stored scripts show.
  script::PluginMasterFacts facts;
  if (file) {
    facts = script::plugin_master_facts(*file, scripts, *names, o.obse_plugins);
    o.facts = &facts.facts;
  }
  try {
    script::compile(source, o);
  } catch (const script::CompileError& e) {
    return report(source_path, names ? script::with_masters_note(e, *names) : e);
  }
  std::cout << "OK\n";
  return kExitOk;
}

}  // namespace

Command add_script(CLI::App& app, Common&) {
  struct Args {
    std::string file;
    bool json = false;
    std::string which;
    std::string out_dir;
    CompileArgs compile;
    std::string check_source;
    std::string check_plugin;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("script", "List, decompile, compile and check Oblivion scripts");
  sub->require_subcommand(1);

  CLI::App* list = sub->add_subcommand("list", "One line per script: record, script type, compiled size, variables, refs");
  list->add_option("FILE", args->file, "Plugin")->required();
  list->add_flag("--json", args->json, "Print JSON");

  CLI::App* dec = sub->add_subcommand("decompile", "Print scripts as source text, or write one file per script");
  dec->add_option("FILE", args->file, "Plugin")->required();
  dec->add_option("SCRIPT", args->which, "EditorID or FormID of the record (default: every script)");
  dec->add_option("-o,--output", args->out_dir, "Directory for <EditorID or FormID>.txt files");
  const char* build_help =
      "OBSE plugin build the scripts were made with, by name or a unique part of it (repeatable; "
      "builds the plugin's scripts show are used anyway)";
  dec->add_option("--obse-plugin", args->compile.obse_plugins, build_help);

  CLI::App* comp = sub->add_subcommand("compile", "Compile a source file into a plugin's SCPT record (added if missing)");
  comp->add_option("FILE", args->compile.file, "Plugin")->required();
  comp->add_option("--source", args->compile.source, "Script source text")->required();
  comp->add_option("--edid", args->compile.editor_id, "EditorID of the SCPT (default: the ScriptName line)");
  comp->add_option("--type", args->compile.type, "Type of a new script: object, quest or magic-effect")->capture_default_str();
  const char* obse_help = "Compile like the current OBSE, or like an early one (strings keep %r and %q)";
  const char* unquoted_help =
      "In OBSE code, take a bare word no form, variable or command has for a string, as the editor does "
      "(default: an error, unless the script's previous compile has that string)";
  comp->add_option("--obse", args->compile.obse, obse_help)->capture_default_str();
  comp->add_option("--obse-plugin", args->compile.obse_plugins, build_help);
  comp->add_flag("--unquoted-strings", args->compile.unquoted_strings, unquoted_help);
  auto* out = comp->add_option("-o,--output", args->compile.output, "Where to write the plugin");
  auto* in_place = comp->add_flag("--in-place", args->compile.in_place, "Replace FILE itself (atomically)");
  out->excludes(in_place);

  CLI::App* check = sub->add_subcommand("check", "Compile a source file and report its errors (nothing is written)");
  check->add_option("SOURCE", args->check_source, "Script source text")->required();
  check->add_option("--plugin", args->check_plugin, "Plugin (and masters beside it) that names refer to");
  check->add_option("--type", args->compile.type, "Script type: object, quest or magic-effect")->capture_default_str();
  check->add_option("--obse", args->compile.obse, obse_help)->capture_default_str();
  check->add_option("--obse-plugin", args->compile.obse_plugins, build_help);
  check->add_flag("--unquoted-strings", args->compile.unquoted_strings, unquoted_help);

  return {sub, [args, list, dec, comp, check] {
            if (list->parsed()) return run_list(args->file, args->json);
            if (dec->parsed()) return run_decompile(args->file, args->which, args->out_dir, args->compile.obse_plugins);
            if (comp->parsed()) return run_compile(args->compile);
            if (check->parsed()) return run_check(args->check_source, args->check_plugin, args->compile.type, args->compile.obse,
                                                   args->compile.obse_plugins, args->compile.unquoted_strings);
            return kExitUsage;
          }};
}

}  // namespace tesmod::cli
