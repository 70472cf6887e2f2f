// `tesmod dump`: groups, records and their fields, as indented text or as JSON. Fields the
// renderer does not know are shown as hex; strings as text (converted to UTF-8); localized
// string ids with the string they stand for.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/plugin/form_ids.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/strings_file.hpp"

namespace tesmod::text {

struct DumpOptions {
  // Filters: a record is shown when it matches any of the given values of every non-empty
  // filter. Groups are shown when they contain a shown record (all of them when unfiltered).
  std::vector<Signature> types;
  std::vector<std::uint32_t> form_ids;
  std::vector<std::string> editor_ids;  // matched without regard to case, in the file's code page

  const TextCodec* codec = nullptr;               // required
  const LocalizedStrings* strings = nullptr;      // for localized plugins
  const FormIds* form_id_names = nullptr;         // to name FormIDs in group labels
};

// Both return how many records they showed (none: the filters select nothing).
std::size_t dump_text(const PluginFile& file, const DumpOptions& options, std::ostream& out);
std::size_t dump_json(const PluginFile& file, const DumpOptions& options, std::ostream& out);

}  // namespace tesmod::text
