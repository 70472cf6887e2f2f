// ASCII case folding: how Windows (and so the games) compare file names, and how the tools
// compare EditorIDs. Bytes above 0x7F are compared as they are.
#pragma once

#include <string>
#include <string_view>

namespace tesmod::ascii {

constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

constexpr bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

inline std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower(c);
  return out;
}

}  // namespace tesmod::ascii
