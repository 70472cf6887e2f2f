#include "tesmod/plugin/signature.hpp"

#include <fmt/format.h>

namespace tesmod {

bool Signature::parse(std::string_view text, Signature& out) {
  if (text.size() != 4) return false;
  out = from_bytes(reinterpret_cast<const std::uint8_t*>(text.data()));
  return true;
}

std::string Signature::str() const {
  std::string out;
  for (int i = 0; i < 4; ++i) {
    auto c = static_cast<unsigned char>(at(i));
    if (c >= 0x20 && c < 0x7F && c != '\\') out += char(c);
    else out += fmt::format("\\x{:02X}", c);
  }
  return out;
}

bool Signature::is_record_type_like() const {
  for (int i = 0; i < 4; ++i) {
    char c = at(i);
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

}  // namespace tesmod
