#include "tesmod/text/json_string.hpp"

#include <fmt/format.h>

namespace tesmod::text {
namespace {

// Length of the valid UTF-8 sequence at s[i], or 0.
std::size_t sequence(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t len = 0;
  char32_t min = 0, code = 0;
  if ((c & 0xE0) == 0xC0) len = 2, min = 0x80, code = c & 0x1F;
  else if ((c & 0xF0) == 0xE0) len = 3, min = 0x800, code = c & 0x0F;
  else if ((c & 0xF8) == 0xF0) len = 4, min = 0x10000, code = c & 0x07;
  else return 0;
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    code = (code << 6) | (b & 0x3F);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return len;
}

template <bool kHtml>
void append_quoted(std::string& out, std::string_view text) {
  out += '"';
  std::size_t plain = 0;  // start of the run of bytes copied as they are
  auto flush = [&](std::size_t to) { out.append(text.data() + plain, to - plain); };
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\' && (!kHtml || (c != '<' && c != '>' && c != '&'))) {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      if (const std::size_t len = sequence(text, i)) {
        i += len;
        continue;
      }
      flush(i);
      out += "\\ufffd";
      plain = ++i;
      continue;
    }
    flush(i);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default: fmt::format_to(std::back_inserter(out), "\\u{:04x}", c);
    }
    plain = ++i;
  }
  flush(text.size());
  out += '"';
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) { append_quoted<false>(out, text); }

void append_json_string_for_html(std::string& out, std::string_view text) { append_quoted<true>(out, text); }

}  // namespace tesmod::text
