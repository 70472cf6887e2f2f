// Whole numbers read from text: shared by the layout tables (src/fields) and the text form
// (src/text), which read them the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tesmod {

// Decimal integers, with an optional sign; nullopt when the text is not one or out of range.
std::optional<std::int64_t> parse_int(std::string_view text);
// Decimal or 0x-prefixed hex unsigned integers; nullopt when the text is not one or out of range.
std::optional<std::uint64_t> parse_uint(std::string_view text);

}  // namespace tesmod
