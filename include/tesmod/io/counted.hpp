// A count and its noun for messages: "1 record", "3 records", "1 entry", "0 entries".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tesmod {

// singular for n == 1, else plural (default: singular + "s").
inline std::string counted(std::uint64_t n, std::string_view singular, std::string_view plural = {}) {
  std::string out = std::to_string(n);
  out += ' ';
  if (n == 1) out += singular;
  else if (plural.empty()) (out += singular) += 's';
  else out += plural;
  return out;
}

}  // namespace tesmod
