// A JSON string literal written straight into an output buffer, for reports too large to build
// as a JSON document first (tesmod conflicts over a whole load order).
#pragma once

#include <string>
#include <string_view>

namespace tesmod::text {

// Appends text (UTF-8) as a quoted JSON string: `"` and `\` escaped, control characters as
// \n, \t ... or \u00XX, and bytes that are not UTF-8 replaced by U+FFFD.
void append_json_string(std::string& out, std::string_view text);
// The same, with `<`, `>` and `&` as \u003c, \u003e and \u0026 too: JSON that sits in an HTML
// script element, which no string can then end (`</script>`) or open a comment in.
void append_json_string_for_html(std::string& out, std::string_view text);

}  // namespace tesmod::text
