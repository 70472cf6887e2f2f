#include "tesmod/text/form_namer.hpp"

#include <fmt/format.h>

#include "tesmod/text/hex.hpp"

namespace tesmod::text {

std::string unknown_form_message(std::string_view text) {
  return fmt::format("unknown form '{}': expected an EditorID, File.esp:00ABCDEF, @00ABCDEF or NONE", text);
}

std::string HexFormNamer::name(std::uint32_t form_id) const { return fmt::format("{:08X}", form_id); }

std::optional<std::uint32_t> HexFormNamer::resolve(std::string_view text) const {
  if (const auto raw = parse_raw_form_id(text)) return raw;
  return parse_hex_u32(text);
}

}  // namespace tesmod::text
