#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "commands.hpp"
#include "tesmod/io/ascii.hpp"

namespace tesmod::cli {
namespace {

// Hex digits, bare or after 0x or @ (as the texts write a FormID).
std::optional<std::uint32_t> parse_hex(std::string s) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s = s.substr(2);
  else if (s.size() > 1 && s[0] == '@') s = s.substr(1);
  if (s.empty() || s.size() > 8) return std::nullopt;
  std::uint32_t v = 0;
  for (char c : s) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v << 4 | std::uint32_t(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::tolower(c) - 'a' + 10);
  }
  return v;
}

}  // namespace

std::uint32_t parse_form_id_arg(const std::string& text, const FileHeader& header, const std::string& plugin_file_name) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) {
    if (auto v = parse_hex(text)) return *v;
    throw UsageError(fmt::format("'{}' is not a FormID: expected 8 hex digits or File.esm:ObjectID", text));
  }
  const std::string file = text.substr(0, colon);
  auto object = parse_hex(text.substr(colon + 1));
  if (!object || *object > 0xFFFFFF) {
    throw UsageError(fmt::format("'{}': expected an object id of at most 6 hex digits after the colon", text));
  }
  for (std::size_t i = 0; i < header.masters.size(); ++i)
    if (ascii::iequals(header.masters[i].name, file)) return std::uint32_t(i) << 24 | *object;
  if (ascii::iequals(file, plugin_file_name)) return std::uint32_t(header.masters.size()) << 24 | *object;
  throw UsageError(fmt::format("'{}' is neither a master of the plugin nor the plugin itself", file));
}

}  // namespace tesmod::cli
