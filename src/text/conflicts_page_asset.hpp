// The conflicts page's shell (src/text/conflicts_page.html), embedded at build time by
// cmake/embed_text.cmake. It holds the marker @DATA@ once, where the report's JSON goes, and
// @TITLE@ once, for the escaped title.
#pragma once

#include <string_view>

namespace tesmod::text::assets {

extern const std::string_view kConflictsPage;

}  // namespace tesmod::text::assets
