// A record read from a localized plugin (Skyrim: names and descriptions as string ids into the
// plugin's .STRINGS tables) made to hold its text instead, for a plugin that is not localized (a
// patch): each string id replaced by the zero-ended text the tables give it.
#pragma once

#include <functional>
#include <string>

#include "tesmod/loadorder/resolved_record.hpp"
#include "tesmod/plugin/strings_file.hpp"

namespace tesmod::patch {

// Replaces the string ids of r (read from plugin `plugin_name`) by their text; an id no table
// holds is written empty and reported through warn. Does nothing when r is not localized.
void delocalize(loadorder::ResolvedRecord& r, const LocalizedStrings& strings, const std::string& plugin_name,
                const std::function<void(std::string)>& warn);

}  // namespace tesmod::patch
