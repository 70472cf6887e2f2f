// Base64 (RFC 4648, standard alphabet, '=' padding): how the editable text carries stored bytes
// that are not text, such as a compressed record's zlib stream.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tesmod {

void append_base64(std::string& out, std::span<const std::uint8_t> data);
// nullopt when text is not base64 (wrong characters, length or padding).
std::optional<std::vector<std::uint8_t>> decode_base64(std::string_view text);

}  // namespace tesmod
