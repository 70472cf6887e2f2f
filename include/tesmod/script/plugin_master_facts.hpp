// What a plugin's scripts show of its masters, by name, so that an edited script compiles to the
// same forms when the masters are not at hand: the FormID each master EditorID the scripts use
// stands for (and whether it is a global), and the index and type of each variable of a master
// form's script they read as `Owner.var`.
//
// Each fact comes from the masters where they are at hand, else from a script's own stored source
// paired with its own compiled code (learn_master_facts). An edited source is never paired with
// old code. A name two scripts disagree about is left out, so that it compiles to neither.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/script/master_facts.hpp"
#include "tesmod/script/names.hpp"
#include "tesmod/script/plugin_scripts.hpp"

namespace tesmod::script {

struct PluginMasterFacts {
  MasterFacts facts;                   // forms of masters and of the engine only (is_master_or_engine_form)
  std::vector<std::string> conflicts;  // names left out: two scripts took them for different things
};

// scripts are file's (plugin_scripts); names resolves the plugin and whichever masters are at
// hand; builds are the OBSE plugin builds the scripts were compiled with.
PluginMasterFacts plugin_master_facts(const PluginFile& file, std::span<const PluginScript> scripts,
                                      const NameSource& names, std::span<const std::string> builds);

}  // namespace tesmod::script
