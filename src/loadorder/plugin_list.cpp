#include "tesmod/loadorder/plugin_list.hpp"

#include <fmt/format.h>

#include <unordered_map>

#include "tesmod/io/ascii.hpp"

namespace tesmod::loadorder {
namespace {

// Windows-1252's 0x80-0x9F; 0 where the code page defines no character.
constexpr char16_t kCp1252High[32] = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xC0 | (c >> 6));
    out += char(0x80 | (c & 0x3F));
  } else {
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
}

// Length of the valid UTF-8 sequence at p (of n bytes left), or 0.
std::size_t utf8_sequence(const std::uint8_t* p, std::size_t n) {
  const std::uint8_t c = p[0];
  std::size_t len = 0;
  char32_t min = 0, code = 0;
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) len = 2, min = 0x80, code = c & 0x1F;
  else if ((c & 0xF0) == 0xE0) len = 3, min = 0x800, code = c & 0x0F;
  else if ((c & 0xF8) == 0xF0) len = 4, min = 0x10000, code = c & 0x07;
  else return 0;
  if (n < len) return 0;
  for (std::size_t i = 1; i < len; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    code = (code << 6) | (p[i] & 0x3F);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return len;
}

bool valid_utf8(std::span<const std::uint8_t> bytes) {
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t len = utf8_sequence(bytes.data() + i, bytes.size() - i);
    if (!len) return false;
    i += len;
  }
  return true;
}

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string_view encoding_name(ListEncoding encoding) {
  switch (encoding) {
    case ListEncoding::Ascii: return "ASCII";
    case ListEncoding::Utf8: return "UTF-8";
    case ListEncoding::Utf8Bom: return "UTF-8 with BOM";
    case ListEncoding::Windows1252: return "Windows-1252";
  }
  return "unknown";
}

bool has_plugin_extension(std::string_view name) {
  if (name.size() < 5) return false;
  const std::string ext = ascii::to_lower(name.substr(name.size() - 4));
  return ext == ".esp" || ext == ".esm" || ext == ".esl";
}

std::string_view strip_ghost(std::string_view name, bool* ghosted) {
  const bool ghost = name.size() > 6 && ascii::iequals(name.substr(name.size() - 6), ".ghost");
  if (ghosted) *ghosted = ghost;
  return ghost ? name.substr(0, name.size() - 6) : name;
}

PluginList parse_plugin_list(std::span<const std::uint8_t> bytes, ListStyle style) {
  PluginList out;
  std::size_t start = 0;
  if (bytes.size() >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF))) {
    out.issues.push_back({1, 0, "the file is UTF-16 (it starts with a UTF-16 byte order mark); expected UTF-8 or "
                                "Windows-1252 text"});
    return out;
  }
  for (std::size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] == 0) {
      out.issues.push_back({1, i, fmt::format("a zero byte at offset {}: the file is not text (UTF-16?); expected "
                                              "UTF-8 or Windows-1252 text",
                                              i)});
      return out;
    }
  if (bytes.size() >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF) {
    out.encoding = ListEncoding::Utf8Bom;
    start = 3;
  } else {
    bool ascii = true;
    for (std::uint8_t b : bytes) ascii = ascii && b < 0x80;
    out.encoding = ascii ? ListEncoding::Ascii : valid_utf8(bytes) ? ListEncoding::Utf8 : ListEncoding::Windows1252;
  }
  const bool utf8 = out.encoding != ListEncoding::Windows1252;

  std::unordered_map<std::string, std::size_t> seen;  // lower-case name -> line
  std::size_t line_number = 0;
  for (std::size_t pos = start; pos < bytes.size();) {
    std::size_t end = pos;
    while (end < bytes.size() && bytes[end] != '\n') ++end;
    ++line_number;
    const std::uint64_t line_offset = pos;
    std::size_t stop = end;
    if (stop > pos && bytes[stop - 1] == '\r') --stop;
    const std::size_t next = end + 1;

    // Decode the line to UTF-8, refusing what is not text.
    std::string text;
    std::string bad;
    for (std::size_t i = pos; i < stop && bad.empty();) {
      const std::uint8_t c = bytes[i];
      if (c < 0x20 && c != '\t') {
        bad = fmt::format("control character 0x{:02X} at offset {}", c, i);
        break;
      }
      if (c < 0x80) {
        text += char(c);
        ++i;
      } else if (utf8) {
        const std::size_t len = utf8_sequence(bytes.data() + i, stop - i);
        if (!len) {
          bad = fmt::format("byte 0x{:02X} at offset {} is not UTF-8", c, i);
          break;
        }
        text.append(reinterpret_cast<const char*>(bytes.data() + i), len);
        i += len;
      } else {
        const char32_t code = c < 0xA0 ? kCp1252High[c - 0x80] : char32_t(c);
        if (!code) {
          bad = fmt::format("byte 0x{:02X} at offset {} is neither UTF-8 nor a Windows-1252 character", c, i);
          break;
        }
        append_utf8(text, code);
        ++i;
      }
    }
    pos = next;
    if (!bad.empty()) {
      out.issues.push_back({line_number, line_offset, "line left out: " + bad});
      continue;
    }
    std::string_view name = trim(text);
    if (name.empty() || name.front() == '#') continue;
    bool active = true, starred = false;
    if (name.front() == '*') {
      out.has_asterisks = true;
      starred = true;
      name = trim(name.substr(1));
    } else if (style == ListStyle::Asterisk) {
      active = false;
    }
    bool ghosted = false;
    name = strip_ghost(name, &ghosted);
    if (name.find_first_of("<>:\"/\\|?*") != std::string_view::npos) {
      out.issues.push_back({line_number, line_offset,
                            fmt::format("line left out: '{}' is not a file name (it holds one of < > : \" / \\ | ? *)", name)});
      continue;
    }
    if (!has_plugin_extension(name)) {
      out.issues.push_back({line_number, line_offset,
                            fmt::format("line left out: '{}' is not a plugin file name (.esp, .esm or .esl)", name)});
      continue;
    }
    const auto [it, fresh] = seen.emplace(ascii::to_lower(name), line_number);
    if (!fresh) {
      out.issues.push_back({line_number, line_offset,
                            fmt::format("line left out: '{}' is listed again (first on line {})", name, it->second)});
      continue;
    }
    out.entries.push_back({std::string(name), active, line_number, starred});
  }
  return out;
}

}  // namespace tesmod::loadorder
