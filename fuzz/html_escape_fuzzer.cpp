// libFuzzer entry: strings from plugins on their way into the conflicts page
// (text/json_string.hpp append_json_string_for_html, text/conflicts_html.hpp append_html_escaped).
//
// Oracle. The JSON form holds no `<`, `>`, `&` or control byte (nothing can end the page's script
// element) and parses back to the input, each byte that is not UTF-8 as U+FFFD; the HTML form
// holds none of `<`, `>`, `"`, `'` and reads back to the input.
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "tesmod/text/conflicts_html.hpp"
#include "tesmod/text/json_string.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

// The input as the JSON writer means to keep it: valid UTF-8 sequences as they are, any other
// byte as U+FFFD (the same rule, written again here plainly).
std::string expected_text(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    char32_t code = len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
    bool ok = len > 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      ok = (b & 0xC0) == 0x80;
      code = code << 6 | (b & 0x3F);
    }
    const char32_t min = len == 2 ? 0x80 : len == 3 ? 0x800 : len == 4 ? 0x10000 : 0;
    ok = ok && code >= min && code <= 0x10FFFF && !(code >= 0xD800 && code <= 0xDFFF);
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

std::string unescape_html(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    const std::size_t end = s.find(';', i);
    check(end != std::string_view::npos);
    const std::string_view ref = s.substr(i, end - i + 1);
    out += ref == "&amp;" ? '&' : ref == "&lt;" ? '<' : ref == "&gt;" ? '>' : ref == "&quot;" ? '"' : ref == "&#39;" ? '\'' : '?';
    check(out.back() != '?');
    i = end;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string json;
  tesmod::text::append_json_string_for_html(json, input);
  for (char c : json) check(c != '<' && c != '>' && c != '&' && static_cast<unsigned char>(c) >= 0x20);
  check(nlohmann::json::parse(json).get<std::string>() == expected_text(input));
  std::string html;
  tesmod::text::append_html_escaped(html, input);
  for (char c : html) check(c != '<' && c != '>' && c != '"' && c != '\'');
  check(unescape_html(html) == input);
  return 0;
}
