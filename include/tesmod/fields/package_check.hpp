// The deep check of `tesmod verify --deep` for AI packages: every PACK record of a plugin (Skyrim
// or Oblivion) decoded and encoded again, compared byte for byte with its stored body.
#pragma once

#include "tesmod/fields/field_check.hpp"
#include "tesmod/plugin/plugin_file.hpp"

namespace tesmod::fields {

// Every PACK of the plugin (fields/package_codec.hpp for Skyrim, fields/package_oblivion.hpp for
// Oblivion): total, how many re-encode identically, and for each other one the record, the file offset (of the error, or of
// the first differing byte; the record's own offset when it is compressed) and what went wrong.
FieldCheck check_packages(const PluginFile& file);

}  // namespace tesmod::fields
