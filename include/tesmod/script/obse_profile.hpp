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

// What a compiled script shows of the OBSE that compiled it.
struct ObseEvidence {
  // A string literal with %r or %q (not after a %): bytes the current compiler never writes,
  // so an early OBSE compiled it.
  bool early_strings = false;
  // The OBSE plugin builds (CommandInfo::plugin) whose commands it calls, sorted.
  std::vector<std::string> plugins;
};
ObseEvidence obse_evidence(const ScriptData& script);
// The evidence of a plugin's scripts together (those that decoded): what to compile the
// plugin's scripts with so they match the rest.
ObseEvidence obse_evidence(std::span<const PluginScript> scripts);

}  // namespace tesmod::script
