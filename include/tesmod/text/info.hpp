// The summary `tesmod info` prints: what a plugin is and what it holds.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/plugin/plugin_file.hpp"

namespace tesmod::text {

// Keys: file, bytes, game, game_title, header_size, format_version, flags, author, description,
// masters, next_object_id, hedr_records, groups, records, compressed, records_by_type,
// groups_by_type, form_versions; and subrecords, oversize_subrecords, inflated_bytes when the
// file was opened with count_subrecords.
nlohmann::ordered_json info_json(const PluginFile& file, const TextCodec& codec);
std::string info_text(const PluginFile& file, const TextCodec& codec);

}  // namespace tesmod::text
