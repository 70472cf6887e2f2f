// Why `tesmod dump --formid/--edid` shows nothing: a filter that matches no record is an error of
// its own (exit 1), not an empty answer a script cannot tell from success.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/dump.hpp"

namespace tesmod::cli {

// One line per --formid or --edid value no record of the file has ("no record with FormID
// 00012345", "no record with EditorID Foo"); when each is there but no record passes all the
// filters together, one line saying so. Empty when there are no such filters or all is well.
// edid_args are the EditorIDs as given (options.editor_ids holds them in the file's code page);
// shown is how many records the dump showed.
std::vector<std::string> unmatched_filters(const PluginFile& file, const text::DumpOptions& options,
                                           std::span<const std::string> edid_args, std::size_t shown);

}  // namespace tesmod::cli
