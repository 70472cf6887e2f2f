// A TextNamer for a plugin opened from a file: its own EditorIDs and those of the masters found
// in the given folders (by default the plugin's own folder), names matched without regard to case.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/text_namer.hpp"

namespace tesmod::text {

struct PluginNamerOptions {
  bool load_masters = true;
  std::vector<std::filesystem::path> master_dirs;  // empty: the plugin's folder
  unsigned threads = 0;                            // 0: all cores
};

struct PluginNamer {
  TextNamer namer;
  std::vector<std::string> masters_loaded;
  std::vector<std::string> masters_missing;  // with the reason
};

// The namer is finished (TextNamer::finish) and ready to use.
PluginNamer plugin_text_namer(const PluginFile& plugin, const PluginNamerOptions& options = {});

// Adds the EditorIDs of a master file to a namer whose file list holds its name.
void add_master_names(TextNamer& namer, const PluginFile& master, std::uint32_t index_in_plugin, unsigned threads);

}  // namespace tesmod::text
