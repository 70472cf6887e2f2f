// A small Skyrim SE load order for the demo and the load-order commands: a master and five
// plugins, each made to show one thing `load-order`, `conflicts`, `check`, `clean` and `patch`
// report (an override, a lost change, an ITM, a deleted reference, a missing master, leveled
// lists that two plugins add to).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tesmod/plugin/plugin.hpp"

namespace tesmod::samples {

// The plugins in load order, the master first.
std::vector<Plugin> load_order_sample();

// plugins.txt as Skyrim SE writes it: a comment line, then one `*Name` line per active plugin.
std::string load_order_sample_plugins_txt();

// Writes the plugins and plugins.txt into dir (a Data-like folder).
void write_load_order_sample(const std::filesystem::path& dir);

}  // namespace tesmod::samples
