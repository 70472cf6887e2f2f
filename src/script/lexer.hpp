// Splits one line of script source into tokens. Comments (`;` outside strings) end the line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tesmod::script::detail {

// Characters of names, and blanks between tokens (0xA0 is the Windows-1252 no-break space,
// which the editor skips like a blank).
bool is_word_char(char c);
bool is_blank(char c);

enum class TokenKind : std::uint8_t { Word, Number, String, Operator, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;  // strings: without the quotes
  std::uint32_t column = 0;  // 1-based, of the token's first character
  std::uint32_t end_column = 0;  // 1-based, one past its last character (quotes included)

  bool is(std::string_view op) const;  // an operator or word equal to op (words: case-insensitive)
  bool is_word() const { return kind == TokenKind::Word; }
};

// The lines of a script source, split at '\n' (a '\r' before it stays; the tokenizer skips it).
std::vector<std::string_view> split_lines(std::string_view source);

// The tokens of a line, then one End token. Words are identifiers, keywords and EditorIDs
// (which may start with a digit); `@`-prefixed words are FormID and variable escapes written by
// the decompiler.
std::vector<Token> tokenize(std::string_view line);

}  // namespace tesmod::script::detail
