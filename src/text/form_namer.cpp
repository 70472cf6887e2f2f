#include "tesmod/text/form_namer.hpp"

#include <fmt/format.h>

namespace tesmod::text {

std::string HexFormNamer::name(std::uint32_t form_id) const { return fmt::format("{:08X}", form_id); }

std::optional<std::uint32_t> HexFormNamer::resolve(std::string_view text) const {
  if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2);
  if (text.empty() || text.size() > 8) return std::nullopt;
  std::uint32_t value = 0;
  for (char c : text) {
    int digit;
    if (c >= '0' && c <= '9') digit = c - '0';
    else if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    else return std::nullopt;
    value = value << 4 | static_cast<std::uint32_t>(digit);
  }
  return value;
}

}  // namespace tesmod::text
