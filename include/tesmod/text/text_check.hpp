// The `text_round_trip` deep check: every record of a plugin written as its typed text (scripts
// inline) and read back, counted identical when the bytes come back exactly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/record_text.hpp"
#include "tesmod/text/text_namer.hpp"

namespace tesmod::text {

struct TextCheckFailure {
  std::uint64_t offset = 0;  // of the record in the file
  RecordRef record;
  std::string message;
};

struct TextCheckResult {
  std::uint64_t total = 0;      // records, the TES4 header record included
  std::uint64_t identical = 0;  // whose typed text reads back to their bytes
  std::vector<TextCheckFailure> failures;
};

// The form version most records of a Skyrim plugin have (records with it do not repeat it).
std::uint16_t common_form_version(const PluginFile& file);

// The options a plugin's records are written with: game, code page, localization, namer.
RecordTextOptions record_text_options(const PluginFile& file, const TextNamer& namer, const TextCodec& codec);

TextCheckResult check_text_round_trip(const PluginFile& file, const TextNamer& namer, const TextCodec& codec,
                                      unsigned threads = 0);

}  // namespace tesmod::text
