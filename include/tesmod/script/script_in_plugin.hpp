// The script work the CLI and the Python module share: which OBSE plugin builds a plugin's
// scripts were made with, decompiling one of its scripts, and compiling source into it (replacing
// the SCPT of that name, keeping its variable order and type, or adding one).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/script/compiler.hpp"
#include "tesmod/script/obse_profile.hpp"
#include "tesmod/script/plugin_names.hpp"
#include "tesmod/script/plugin_scripts.hpp"

namespace tesmod::script {

// "object", "quest", "magic-effect", "-" (no header or not decoded) or the number in hex.
std::string script_type_name(const PluginScript& script);
// "object", "quest", "magic-effect" (or "magiceffect"), without regard to case.
std::optional<ScriptType> parse_script_type(std::string_view text);
// The name after the first `scn` / `ScriptName` line, if the source starts with one.
std::optional<std::string> script_name(std::string_view source);
// The editor stores script text with CRLF line ends; text with LF only gets CRs added.
std::string with_crlf(std::string_view text);
// The SCPT record's script with this EditorID (without regard to case).
const PluginScript* find_scpt(std::span<const PluginScript> scripts, std::string_view editor_id);

// The OBSE plugin builds to read and write a plugin's scripts with: those its scripts show, those
// a new source names, and those the user names (throws std::invalid_argument for an unknown name).
std::vector<std::string> obse_builds_for(std::span<const PluginScript> scripts, std::string_view source,
                                         std::span<const std::string> named);

// One script as source text; raises tesmod::Error when it did not decode.
std::string decompile_plugin_script(const PluginScript& script, const NameSource& names,
                                    std::span<const std::string> builds);

// e, and for a name nothing resolves, the masters that were not at hand (where the name may be).
CompileError with_masters_note(const CompileError& e, const PluginNames& names);

struct CompileIntoOptions {
  std::string editor_id;             // empty: the source's ScriptName
  std::optional<ScriptType> type;    // for a new script (object when not given); an existing one keeps its type
  ObseProfile obse_profile = ObseProfile::Current;
  std::vector<std::string> obse_plugins;  // builds named by the user, beside those the plugin shows
  bool unquoted_strings = false;          // CompileOptions::unquoted_strings (the editor's leniency)
};

struct CompiledIntoPlugin {
  std::uint32_t form_id = 0;
  std::string editor_id;
  bool replaced = false;  // else added
  unsigned names_from_facts = 0;  // names of masters not at hand, from the plugin's scripts (master facts)
};

// Compiles source into plugin, which was made from file (and may have been edited since, by
// earlier calls too): the SCPT of that EditorID as plugin holds it now is the previous compile.
// Names of masters not at hand resolve through the facts file's stored scripts show
// (plugin_master_facts.hpp). Raises CompileError for the source, tesmod::Error for the plugin,
// std::invalid_argument for options.
CompiledIntoPlugin compile_into_plugin(Plugin& plugin, const PluginFile& file, std::string_view source,
                                       const CompileIntoOptions& options);

}  // namespace tesmod::script
