// The EditorIDs of a plugin's records, read on several threads (a big master's compressed records
// must be partly inflated to find them).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tesmod/plugin/plugin_file.hpp"

namespace tesmod {

// (index entry, EditorID as stored) for every record that has one, in file order. A record
// that cannot be read has none here; the plugin's reader reports it.
std::vector<std::pair<std::uint32_t, std::string>> collect_editor_ids(const PluginFile& file, unsigned threads);

// The EditorID (as stored) of each given record, in the same order, read on up to `threads`
// threads (0: one per core); none for a record without one or that cannot be read.
std::vector<std::optional<std::string>> editor_ids_of(const PluginBytes& file, std::span<const IndexEntry> records,
                                                      unsigned threads);

}  // namespace tesmod
