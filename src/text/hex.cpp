#include "tesmod/text/hex.hpp"

#include <fmt/format.h>

namespace tesmod::text {

std::string hex_bytes(std::span<const std::uint8_t> data, std::string_view separator) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(data.size() * (2 + separator.size()));
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (i) out += separator;
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 15];
  }
  return out;
}

std::optional<std::uint32_t> parse_hex_u32(std::string_view digits) {
  if (digits.empty() || digits.size() > 8) return std::nullopt;
  std::uint32_t value = 0;
  for (char c : digits) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return std::nullopt;
    value = value << 4 | static_cast<std::uint32_t>(d);
  }
  return value;
}

std::optional<std::uint32_t> parse_raw_form_id(std::string_view text) {
  if (text.starts_with('@')) return parse_hex_u32(text.substr(1));
  if (text.starts_with("0x") || text.starts_with("0X")) return parse_hex_u32(text.substr(2));
  return std::nullopt;
}

std::string raw_form_id(std::uint32_t form_id) { return fmt::format("@{:08X}", form_id); }

bool looks_like_zstring(std::span<const std::uint8_t> data) {
  if (data.size() < 2 || data.back() != 0) return false;
  for (std::size_t i = 0; i + 1 < data.size(); ++i) {
    const std::uint8_t c = data[i];
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
    if (c == 0x7F) return false;
  }
  return true;
}

std::string quote(std::string_view utf8) {
  std::string out = "\"";
  for (char ch : utf8) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) out += fmt::format("\\u{:04x}", c);
        else out += ch;
    }
  }
  out += '"';
  return out;
}

}  // namespace tesmod::text
