// Which OBSE's script compiler a compiled script came from. OBSE changed what its editor hooks
// write over time; scripts compiled with an early build keep those older bytes until they are
// compiled again.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/script/plugin_scripts.hpp"
#include "tesmod/script/script_data.hpp"

namespace tesmod::script {

enum class ObseProfile : std::uint8_t {
  Current,  // the OBSE the command tables describe
  // Early builds: string literals keep %r and %q as written (later builds compile them to a
  // line break and a quote), and GetInputText had no parameter list, so no argument count.
  Early,
};

// "current" or "early"; false for anything else.
bool parse_obse_profile(std::string_view text, ObseProfile& out);

// Commands whose parameter list came after the early builds.
bool takes_no_arguments_in_early_obse(std::uint16_t opcode);

// Alternate OBSE plugin builds (command_table.hpp) whose own command names a script source
// calls: names no default-table command has. The bytes cannot tell an alternate build from the
// default owner of its opcodes; the source the editor compiled can.
std::vector<std::string> alternate_builds_named_in(std::string_view source);

// Every OBSE plugin build the table knows (CommandInfo::plugin), sorted.
std::vector<std::string> obse_plugin_builds();
// The build a user names: its full name or a part of it that matches one build only
// (case-insensitive). Raises std::invalid_argument naming the candidates otherwise.
std::string find_obse_plugin_build(std::string_view text);

// What a compiled script shows of the OBSE that compiled it.
struct ObseEvidence {
  // A string literal with %r or %q (not after a %): bytes the current compiler never writes,
  // so an early OBSE compiled it.
  bool early_strings = false;
  // The OBSE plugin builds (CommandInfo::plugin) whose commands it calls, sorted.
  std::vector<std::string> plugins;
};
// `builds`: alternate builds already chosen, read with the script's opcodes.
ObseEvidence obse_evidence(const ScriptData& script, std::span<const std::string> builds = {});
// The evidence of a plugin's scripts together (those that decoded): what to compile and
// decompile the plugin's scripts with so they match the rest. Alternate builds come from the
// sources (alternate_builds_named_in), the rest from the compiled code read with them.
ObseEvidence obse_evidence(std::span<const PluginScript> scripts);

}  // namespace tesmod::script
