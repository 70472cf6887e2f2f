// The rules that put a game's plugins in load order (see load_order.hpp), apart from reading
// files, so that each rule can be tested on names, flags and times alone.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/loadorder/plugin_list.hpp"

namespace tesmod::loadorder::detail {

// A plugin file found in the data folder, its header read.
struct Installed {
  LoadOrderPlugin plugin;
  std::int64_t mtime = 0;  // modification time, nanoseconds
};

// The list files that were found, read.
struct Lists {
  std::optional<PluginList> plugins;     // plugins.txt
  std::string plugins_name = "plugins.txt";
  std::optional<PluginList> load_order;  // loadorder.txt (Skyrim LE)
  std::string load_order_name = "loadorder.txt";
  std::vector<std::string> ccc;          // Skyrim.ccc's names (Skyrim SE)
};

// The game's plugins that are active whenever present, in the order they load first (Skyrim SE:
// the five official masters then the Creation Club plugins; Skyrim LE: Skyrim.esm; Oblivion:
// none).
std::vector<std::string> early_plugins(Game game, const std::vector<std::string>& ccc);

// Whether the game loads the plugin with the masters / in an FE slot, from its header and name.
bool loads_as_master(Game game, const LoadOrderPlugin& plugin);
bool loads_as_light(Game game, const LoadOrderPlugin& plugin);

// The game, when not given: Oblivion when the plugins have 20-byte headers; Skyrim SE when a
// header says so (HEDR 1.71, ESL flag, .esl), plugins.txt has '*' lines, or records have form
// version 44 (first_form_version, per plugin, 0 when unknown); else Skyrim LE.
Game detect_game(const std::vector<Installed>& installed, const Lists& lists,
                 const std::vector<std::uint16_t>& first_form_version, bool load_order_file_found);

// Whether a folder is Oblivion Remastered's Data folder: its path (made absolute) ends in
// ObvData/Data, without regard to case (<game>/OblivionRemastered/Content/Dev/ObvData/Data).
bool is_oblivion_remastered_data(const std::filesystem::path& folder);

// Puts the installed plugins in the game's order and marks the active ones; problems for list
// entries that name no installed plugin and for the lists disagreeing (Skyrim LE, Oblivion
// Remastered), and for Oblivion Remastered's Plugins.txt not listing Oblivion.esm or holding `*`
// lines. Oblivion Remastered (rules) reads the lists as Skyrim LE does, with nothing implicitly
// active; a `*` line there names no plugin (libloadorder takes the whole line for the name).
std::vector<LoadOrderPlugin> arrange(Game game, OrderRules rules, std::vector<Installed> installed, const Lists& lists,
                                     std::vector<Problem>& problems);

// Moves every master that loads after a plugin needing it to just before that plugin (repeated
// until none is left; a cycle of masters is reported, not followed forever).
void hoist_masters(std::vector<LoadOrderPlugin>& plugins, std::vector<Problem>& problems);

// Oblivion Remastered, where nothing is hoisted (libloadorder moves no plugin for its masters in
// that game): a problem for every master loading after an active plugin that needs it.
void report_late_masters(const std::vector<LoadOrderPlugin>& plugins, std::vector<Problem>& problems);

// Fills master_positions, checks that each active plugin's masters are present and active, and
// gives the active readable plugins their indices within the game's limits (255 full plugins,
// 254 in Skyrim SE, where FE holds up to 4,096 light plugins).
void assign_indices(Game game, std::vector<LoadOrderPlugin>& plugins, std::vector<Problem>& problems);

}  // namespace tesmod::loadorder::detail
