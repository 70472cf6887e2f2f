// The `text_round_trip` deep check: every record of a plugin written as its typed text (scripts
// inline) and read back, counted identical when the bytes come back exactly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/fields/field_check.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/record_text.hpp"
#include "tesmod/text/text_namer.hpp"

namespace tesmod::text {


// The form version most records of a Skyrim plugin have (records with it do not repeat it).
std::uint16_t common_form_version(const PluginFile& file);

// The options a plugin's records are written with: game, code page, localization, namer.
RecordTextOptions record_text_options(const PluginFile& file, const TextNamer& namer, const TextCodec& codec);

// total: records, the TES4 header record included; identical: those whose typed text reads back
// to their bytes; failures: the others, at the record's offset, with where the bytes differ.
// coverage, when given, receives what the typed texts show by meaning (hex fields sorted by
// record and field type).
fields::FieldCheck check_text_round_trip(const PluginFile& file, const TextNamer& namer, const TextCodec& codec,
                                         unsigned threads = 0, TextCoverage* coverage = nullptr);

}  // namespace tesmod::text
