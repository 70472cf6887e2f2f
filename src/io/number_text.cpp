#include "tesmod/io/number_text.hpp"

#include <charconv>

namespace tesmod {
namespace {

template <class T>
std::optional<T> whole(std::string_view text, int base) {
  T value = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::int64_t> parse_int(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  return whole<std::int64_t>(text, 10);
}

std::optional<std::uint64_t> parse_uint(std::string_view text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return whole<std::uint64_t>(text.substr(2), 16);
  return whole<std::uint64_t>(text, 10);
}

}  // namespace tesmod
