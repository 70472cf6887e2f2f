// Small text helpers shared by the renderers.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tesmod::text {

// "0A 1B 2C" (separator between bytes; none when empty).
std::string hex_bytes(std::span<const std::uint8_t> data, std::string_view separator = " ");
// 1-8 hex digits (no prefix, either case) as a number; nullopt for anything else.
std::optional<std::uint32_t> parse_hex_u32(std::string_view digits);
// A FormID written out as a number: `@00ABCDEF` (how every text of tesmod writes one that has no
// name) or `0x00ABCDEF`, 1-8 hex digits; nullopt for anything else.
std::optional<std::uint32_t> parse_raw_form_id(std::string_view text);
// `@00ABCDEF`.
std::string raw_form_id(std::uint32_t form_id);
// True when data is a zero-terminated string of printable text (code-page bytes allowed).
bool looks_like_zstring(std::span<const std::uint8_t> data);
// A JSON-style quoted string with control characters escaped; input must be UTF-8.
std::string quote(std::string_view utf8);

}  // namespace tesmod::text
