#include "lexer.hpp"

#include <array>

#include "tesmod/io/ascii.hpp"

namespace tesmod::script::detail {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

constexpr std::array<std::string_view, 20> kTwoCharOps = {":=", "+=", "-=", "*=", "/=", "^=", "|=", "&=", "%=", "==",
                                                          "!=", "<=", ">=", "&&", "||", "<<", ">>", "->", "<-", "::"};

}  // namespace

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         (static_cast<unsigned char>(c) >= 0x80 && c != '\xA0');
}

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f' || c == '\xA0';
}

std::vector<std::string_view> split_lines(std::string_view source) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (true) {
    std::size_t end = source.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(source.substr(start));
      return lines;
    }
    // A CRLF line ends at its CR, so that "end of line" columns point there.
    const std::size_t stop = end > start && source[end - 1] == '\r' ? end - 1 : end;
    lines.push_back(source.substr(start, stop - start));
    start = end + 1;
  }
}

bool Token::is(std::string_view op) const {
  if (kind == TokenKind::Operator) return text == op;
  if (kind == TokenKind::Word) return ascii::iequals(text, op);
  return false;
}

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (is_blank(c)) {
      ++i;
      continue;
    }
    if (c == ';') break;
    const auto col = static_cast<std::uint32_t>(i + 1);
    if (c == '"') {
      std::size_t e = s.find('"', i + 1);
      if (e == std::string_view::npos) e = s.size();
      out.push_back({TokenKind::String, s.substr(i + 1, e - i - 1), col});
      i = e < s.size() ? e + 1 : e;
      continue;
    }
    if (is_word_char(c) || c == '@' || (c == '.' && i + 1 < s.size() && digit(s[i + 1]) && (i == 0 || !is_word_char(s[i - 1])))) {
      std::size_t e = i + 1;
      while (e < s.size() && is_word_char(s[e])) ++e;
      std::string_view w = s.substr(i, e - i);
      bool numeric = c != '@';
      for (char x : w)
        if (!digit(x) && x != '.') numeric = false;
      if (numeric && e < s.size() && s[e] == '.' && w.find('.') == std::string_view::npos) {
        // 1.5, 1. : the fraction belongs to the number
        std::size_t f = e + 1;
        while (f < s.size() && digit(s[f])) ++f;
        e = f;
        w = s.substr(i, e - i);
      }
      out.push_back({numeric ? TokenKind::Number : TokenKind::Word, w, col});
      i = e;
      continue;
    }
    std::string_view two = s.substr(i, 2);
    bool matched = false;
    for (std::string_view op : kTwoCharOps)
      if (two == op) {
        out.push_back({TokenKind::Operator, two, col});
        i += 2;
        matched = true;
        break;
      }
    if (matched) continue;
    out.push_back({TokenKind::Operator, s.substr(i, 1), col});
    ++i;
  }
  out.push_back({TokenKind::End, {}, static_cast<std::uint32_t>(s.size() + 1)});
  for (Token& t : out)
    t.end_column = t.column + static_cast<std::uint32_t>(t.text.size()) + (t.kind == TokenKind::String ? 2 : 0);
  return out;
}

}  // namespace tesmod::script::detail
