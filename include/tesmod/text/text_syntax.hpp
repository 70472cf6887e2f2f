// The lexical rules every editable text format of tesmod shares (record files, VMAD and package
// blocks): quoted strings that carry a field's code-page bytes exactly, floats that read back to
// the same bits, and a scanner over one line that reports errors by line and column.
//
// Quoted strings are UTF-8 between double quotes. Escapes: \" \\ \n \r \t, and \xNN for one raw
// stored byte (what the code page cannot show, control characters, undefined bytes).
// Floats: the shortest decimal that reads back to the same float, always with a '.' or an
// exponent ("1.0", "-0.0", "1e+20"); values that are not finite numbers are written as their
// bits, `0x7FC00000`.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tesmod/io/number_text.hpp"  // parse_int, parse_uint
#include "tesmod/io/text_encoding.hpp"

namespace tesmod::text {

// A text that does not parse. line and column are 1-based and relative to the text the parser
// was given (0 when unknown); callers that embed the text elsewhere shift them with at().
class SyntaxError : public std::runtime_error {
 public:
  SyntaxError(std::uint32_t line, std::uint32_t column, std::string message);
  std::uint32_t line() const { return line_; }
  std::uint32_t column() const { return column_; }
  const std::string& message() const { return message_; }
  // The same error moved by line_offset lines (and column_offset columns on its first line).
  SyntaxError shifted(std::uint32_t line_offset, std::uint32_t column_offset = 0) const;

 private:
  std::uint32_t line_, column_;
  std::string message_;
};

// Stored (code-page) bytes as a quoted string, appended to out.
void append_quoted(std::string& out, std::string_view stored, const TextCodec& codec);
std::string quoted(std::string_view stored, const TextCodec& codec);

// Shortest round-trip text of a float (see above); parse_float reads it (and any decimal or
// `0x` + 8 hex digits of bits) back; nullopt when the text is neither.
void append_float(std::string& out, float value);
// The same written at p, which has room for kMaxFloatText characters; returns the end.
inline constexpr std::size_t kMaxFloatText = 24;
char* write_float(char* p, float value);
std::string format_float(float value);
std::optional<float> parse_float(std::string_view text);

// Integers appended without a format string (the writers' hot path): decimal, and hex digits
// (upper case, at least min_digits of them).
void append_decimal(std::string& out, std::int64_t value);
void append_decimal(std::string& out, std::uint64_t value);
// The same written at p, which has room for kMaxDecimalText characters; returns the end.
inline constexpr std::size_t kMaxDecimalText = 20;
char* write_decimal(char* p, std::int64_t value);
char* write_decimal(char* p, std::uint64_t value);
void append_hex_digits(std::string& out, std::uint64_t value, int min_digits);

namespace detail {
// The characters that end a word: blanks and the punctuation of the formats.
inline constexpr auto kWordBreaks = [] {
  struct Table {
    bool at[256] = {};
  } t;
  for (unsigned char c : std::string_view(" \t\r\n=,[](){}\"|")) t.at[c] = true;
  return t;
}();
}  // namespace detail

// True for characters that end a word: blanks and the punctuation of the formats.
inline bool is_word_break(char c) { return detail::kWordBreaks.at[static_cast<unsigned char>(c)]; }

// A blank inside a line: a space, a tab, or the CR of a CR LF line end. Most characters are
// not, and one comparison says so (the readers skip blanks between millions of values).
inline bool is_blank(char c) { return static_cast<unsigned char>(c) <= ' ' && (c == ' ' || c == '\t' || c == '\r'); }

// A line without the blanks before and after it.
inline std::string_view trim_line(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// Reads one line, left to right. Columns count bytes from 1.
class LineScanner {
 public:
  LineScanner(std::string_view line, std::uint32_t line_number, std::uint32_t first_column = 1)
      : line_(line), number_(line_number), first_column_(first_column) {}

  std::uint32_t line_number() const { return number_; }
  std::uint32_t column() const { return first_column_ + std::uint32_t(pos_); }
  std::size_t position() const { return pos_; }
  void seek(std::size_t pos) { pos_ = pos; }
  std::string_view rest() const { return line_.substr(pos_); }
  std::string_view line() const { return line_; }

  // Inline, as the few below: they run for every value of the long arrays (navmeshes, landscape).
  void skip_blanks() {
    while (pos_ < line_.size() && is_blank(line_[pos_])) ++pos_;
  }
  // After skipping blanks: at the end of the line?
  bool at_end() {
    skip_blanks();
    return pos_ >= line_.size();
  }
  // After skipping blanks: the next character, or '\0' at the end.
  char peek() {
    skip_blanks();
    return pos_ < line_.size() ? line_[pos_] : '\0';
  }
  // After skipping blanks: consumes c if it is next.
  bool accept(char c) {
    skip_blanks();
    if (pos_ >= line_.size() || line_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  // After skipping blanks: consumes the exact word if it is next and followed by a word break.
  bool accept_word(std::string_view word);
  // After skipping blanks: c, or a SyntaxError that says what was expected.
  void expect(char c, std::string_view what = {});
  // After skipping blanks: a run of characters up to a word break (empty at a break).
  std::string_view word() {
    skip_blanks();
    const std::size_t start = pos_;
    while (pos_ < line_.size() && !is_word_break(line_[pos_])) ++pos_;
    return line_.substr(start, pos_ - start);
  }
  // Like word(), but fails with "expected <what>" when there is none.
  std::string_view expect_word(std::string_view what);
  // After skipping blanks: a quoted string, as stored bytes.
  std::string quoted_string(const TextCodec& codec);
  // After skipping blanks: a form reference as FormNamer::name() writes it (a word such as
  // `IronSword` or `Skyrim.esm:00012EB7`, or `"File Name.esp":00000801` when the file name has
  // blanks), as its text for FormNamer::resolve(); fails with "expected <what>" when there is none.
  std::string_view form_reference(std::string_view what = "a form (EditorID or File.esm:00ABCDEF)");
  // After skipping blanks: a `name=` prefix; fails unless it is exactly this name.
  void expect_key(std::string_view name);
  // Fails unless only blanks are left.
  void expect_end();

  [[noreturn]] void fail(std::string message) const;
  [[noreturn]] void fail_at(std::size_t pos, std::string message) const;

 private:
  std::string_view line_;
  std::uint32_t number_;
  std::uint32_t first_column_;
  std::size_t pos_ = 0;
};

}  // namespace tesmod::text
