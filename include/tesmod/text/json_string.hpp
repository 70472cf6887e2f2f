// A JSON string literal written straight into an output buffer, for reports too large to build
// as a JSON document first (tesmod conflicts over a whole load order).
#pragma once

#include <string>
#include <string_view>

namespace tesmod::text {

// Appends text (UTF-8) as a quoted JSON string: `"` and `\` escaped, control characters as
// \n, \t ... or \u00XX, and bytes that are not UTF-8 replaced by U+FFFD.
void append_json_string(std::string& out, std::string_view text);

}  // namespace tesmod::text
