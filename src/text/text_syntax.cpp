#include "tesmod/text/text_syntax.hpp"

#include <fmt/format.h>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>

#include "tesmod/error.hpp"

namespace tesmod::text {

SyntaxError::SyntaxError(std::uint32_t line, std::uint32_t column, std::string message)
    : std::runtime_error(line ? fmt::format("{}:{}: {}", line, column, message) : message),
      line_(line),
      column_(column),
      message_(std::move(message)) {}

SyntaxError SyntaxError::shifted(std::uint32_t line_offset, std::uint32_t column_offset) const {
  return SyntaxError(line_ + line_offset, line_ == 1 ? column_ + column_offset : column_, message_);
}

namespace {

constexpr char kHex[] = "0123456789ABCDEF";

void append_byte_escape(std::string& out, unsigned char b) {
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 15];
}

// Escapes for the ASCII part; false when c needs none.
bool append_ascii_escape(std::string& out, unsigned char c) {
  switch (c) {
    case '"': out += "\\\""; return true;
    case '\\': out += "\\\\"; return true;
    case '\n': out += "\\n"; return true;
    case '\r': out += "\\r"; return true;
    case '\t': out += "\\t"; return true;
    default:
      if (c < 0x20 || c == 0x7F) {
        append_byte_escape(out, c);
        return true;
      }
      return false;
  }
}

bool is_ascii(std::string_view s) {
  for (unsigned char c : s)
    if (c >= 0x80) return false;
  return true;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Length of the UTF-8 sequence starting with lead byte b (1 for ASCII and for bad lead bytes).
std::size_t utf8_length(unsigned char b) {
  if (b < 0xC0) return 1;
  if (b < 0xE0) return 2;
  if (b < 0xF0) return 3;
  return 4;
}

}  // namespace

void append_quoted(std::string& out, std::string_view stored, const TextCodec& codec) {
  out += '"';
  if (is_ascii(stored)) {
    for (char ch : stored)
      if (!append_ascii_escape(out, static_cast<unsigned char>(ch))) out += ch;
    out += '"';
    return;
  }
  // Non-ASCII: shown as UTF-8 when the code page reads it back to the same bytes, else every
  // byte above 0x7F is escaped. C1 control characters (undefined bytes) are escaped too.
  std::string utf8;
  bool exact = false;
  try {
    utf8 = codec.to_utf8(stored);
    exact = codec.from_utf8(utf8) == stored;
  } catch (const Error&) {
    exact = false;
  }
  if (!exact) {
    for (char ch : stored) {
      const auto c = static_cast<unsigned char>(ch);
      if (c >= 0x80) append_byte_escape(out, c);
      else if (!append_ascii_escape(out, c)) out += ch;
    }
    out += '"';
    return;
  }
  for (std::size_t i = 0; i < utf8.size();) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    if (c < 0x80) {
      if (!append_ascii_escape(out, c)) out += char(c);
      ++i;
      continue;
    }
    const std::size_t n = std::min(utf8_length(c), utf8.size() - i);
    const std::string_view ch(utf8.data() + i, n);
    // U+0080..U+009F: C1 controls, which only undefined code-page bytes produce.
    if (n == 2 && c == 0xC2 && static_cast<unsigned char>(utf8[i + 1]) < 0xA0) {
      for (char b : codec.from_utf8(ch)) append_byte_escape(out, static_cast<unsigned char>(b));
    } else {
      out += ch;
    }
    i += n;
  }
  out += '"';
}

std::string quoted(std::string_view stored, const TextCodec& codec) {
  std::string out;
  out.reserve(stored.size() + 2);
  append_quoted(out, stored, codec);
  return out;
}

namespace {

// What to_chars writes (the shortest text that reads back, %f-style) for a float of 0.001 up to
// 100000 that is closest to a decimal with at most three places whose digits make a whole
// number below 2^24: found by trying 0 to 3 places (the first that reads back is the shortest;
// rounding value * 10^places, exact in a double, gives the closest such decimal, as to_chars
// picks). Reading back is the fast path of parse_float (both numbers exact as floats, one
// correctly rounded division), so that is also what from_chars reads. %f is what to_chars
// chooses at these sizes: with places, %e is longer; without, the number has at most 5 digits.
// nullptr where this does not hold (and at a tie between two decimals): to_chars decides then.
// Navmesh and landscape floats are most of an exported world's floats.
char* write_short_float(char* p, float value) {
  const float a = std::fabs(value);
  if (!(a >= 0.001f && a < 100000.0f)) return nullptr;
  static constexpr double kScale[] = {1.0, 10.0, 100.0, 1000.0};
  static constexpr float kScalef[] = {1.0f, 10.0f, 100.0f, 1000.0f};
  static constexpr std::uint32_t kDivisor[] = {1, 10, 100, 1000};
  for (int places = 0; places <= 3; ++places) {
    const double scaled = double(a) * kScale[places];
    const double whole = double(std::uint64_t(scaled));  // floor: scaled is below 10^8 and not negative
    const double below = scaled - whole;
    if (below == 0.5) return nullptr;  // a tie: to_chars breaks it
    const double r = below < 0.5 ? whole : whole + 1;
    if (r >= 16777216.0) return nullptr;
    if (float(r) / kScalef[places] != a) continue;
    const std::uint32_t n = std::uint32_t(r);
    if (std::signbit(value)) *p++ = '-';
    p = std::to_chars(p, p + 8, n / kDivisor[places]).ptr;
    *p++ = '.';
    if (places == 0) {
      *p++ = '0';
      return p;
    }
    std::uint32_t fraction = n % kDivisor[places];
    for (int k = places - 1; k >= 0; --k) {
      p[k] = char('0' + fraction % 10);
      fraction /= 10;
    }
    return p + places;
  }
  return nullptr;
}

}  // namespace

char* write_float(char* p, float value) {
  if (char* end = write_short_float(p, value)) return end;
  if (!std::isfinite(value)) {
    *p++ = '0';
    *p++ = 'x';
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    for (int shift = 28; shift >= 0; shift -= 4) *p++ = kHex[(bits >> shift) & 15];
    return p;
  }
  char* const start = p;
  p = std::to_chars(p, p + kMaxFloatText, value).ptr;
  // A whole number gets ".0", to read as a float. (A loop: find_first_of calls memchr per character.)
  for (const char* c = start; c != p; ++c)
    if (*c == '.' || *c == 'e') return p;
  *p++ = '.';
  *p++ = '0';
  return p;
}

void append_float(std::string& out, float value) {
  char buf[kMaxFloatText];
  out.append(buf, write_float(buf, value));
}

std::string format_float(float value) {
  std::string out;
  append_float(out, value);
  return out;
}

char* write_decimal(char* p, std::int64_t value) { return std::to_chars(p, p + kMaxDecimalText, value).ptr; }
char* write_decimal(char* p, std::uint64_t value) { return std::to_chars(p, p + kMaxDecimalText, value).ptr; }

void append_decimal(std::string& out, std::int64_t value) {
  char buf[kMaxDecimalText];
  out.append(buf, write_decimal(buf, value));
}

void append_decimal(std::string& out, std::uint64_t value) {
  char buf[kMaxDecimalText];
  out.append(buf, write_decimal(buf, value));
}

void append_hex_digits(std::string& out, std::uint64_t value, int min_digits) {
  char buf[16];
  int n = 0;
  do {
    buf[15 - n++] = kHex[value & 15];
    value >>= 4;
  } while (value || n < min_digits);
  out.append(buf + 16 - n, std::size_t(n));
}

namespace {

// A plain decimal float (`-`, digits, and a '.' and digits) of at most 8 digits whose digits make a
// whole number up to 2^24: the coordinates of navmeshes and such. That number and the power of ten
// are both exact as floats, so one float division rounds as from_chars does (the fast path of
// Clinger's algorithm). nullopt for anything else.
std::optional<float> parse_plain_float(std::string_view w) {
  static constexpr float kPowersOfTen[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f};
  const bool negative = !w.empty() && w[0] == '-';
  std::size_t i = negative ? 1 : 0;
  std::uint32_t digits = 0, fraction = 0;
  std::uint32_t whole = 0;
  for (; i < w.size() && digits <= 8 && unsigned(w[i]) - '0' <= 9; ++i, ++digits) whole = whole * 10 + unsigned(w[i] - '0');
  if (digits == 0) return std::nullopt;
  if (i < w.size() && w[i] == '.') {
    for (++i; i < w.size() && digits <= 8 && unsigned(w[i]) - '0' <= 9; ++i, ++digits, ++fraction)
      whole = whole * 10 + unsigned(w[i] - '0');
    if (fraction == 0) return std::nullopt;
  }
  if (i != w.size() || digits > 8 || whole > (1u << 24)) return std::nullopt;
  const float f = float(whole) / kPowersOfTen[fraction];
  return negative ? -f : f;
}

}  // namespace

std::optional<float> parse_float(std::string_view text) {
  if (const auto plain = parse_plain_float(text)) return plain;
  if (text.size() == 10 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    std::uint32_t bits = 0;
    for (char c : text.substr(2)) {
      const int d = hex_value(c);
      if (d < 0) return std::nullopt;
      bits = bits << 4 | std::uint32_t(d);
    }
    return std::bit_cast<float>(bits);
  }
  if (text.empty()) return std::nullopt;
  std::string_view digits = text;
  if (digits.front() == '+') digits.remove_prefix(1);
  float value = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), value, std::chars_format::general);
  if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) return std::nullopt;
  return value;
}

bool LineScanner::accept_word(std::string_view w) {
  skip_blanks();
  if (line_.substr(pos_, w.size()) != w) return false;
  const std::size_t end = pos_ + w.size();
  if (end < line_.size() && !is_word_break(line_[end])) return false;
  pos_ = end;
  return true;
}

void LineScanner::expect(char c, std::string_view what) {
  if (accept(c)) return;
  fail(what.empty() ? fmt::format("expected '{}'", c) : fmt::format("expected {}", what));
}

std::string_view LineScanner::expect_word(std::string_view what) {
  const std::string_view w = word();
  if (w.empty()) fail(fmt::format("expected {}", what));
  return w;
}

std::string LineScanner::quoted_string(const TextCodec& codec) {
  skip_blanks();
  if (pos_ >= line_.size() || line_[pos_] != '"') fail("expected a quoted string");
  const std::size_t open = pos_++;
  std::string out;
  std::string pending;  // UTF-8 text not yet converted to the code page
  auto flush = [&] {
    if (pending.empty()) return;
    try {
      out += codec.from_utf8(pending);
    } catch (const Error&) {
      fail_at(open, "the string has a character that " + codec.code_page() +
                        " cannot encode (write it as \\xNN bytes), or is not valid UTF-8");
    }
    pending.clear();
  };
  while (true) {
    if (pos_ >= line_.size()) fail_at(open, "the string has no closing quote");
    const char c = line_[pos_];
    if (c == '"') {
      ++pos_;
      break;
    }
    if (c != '\\') {
      pending += c;
      ++pos_;
      continue;
    }
    if (pos_ + 1 >= line_.size()) fail("expected an escape after '\\'");
    const char e = line_[pos_ + 1];
    switch (e) {
      case '"': pending += '"'; pos_ += 2; break;
      case '\\': pending += '\\'; pos_ += 2; break;
      case 'n': pending += '\n'; pos_ += 2; break;
      case 'r': pending += '\r'; pos_ += 2; break;
      case 't': pending += '\t'; pos_ += 2; break;
      case 'x': {
        const int hi = pos_ + 2 < line_.size() ? hex_value(line_[pos_ + 2]) : -1;
        const int lo = pos_ + 3 < line_.size() ? hex_value(line_[pos_ + 3]) : -1;
        if (hi < 0 || lo < 0) fail("expected two hex digits after \\x");
        flush();
        out += char(hi << 4 | lo);
        pos_ += 4;
        break;
      }
      default:
        fail(fmt::format("unknown escape '\\{}' (expected \\\" \\\\ \\n \\r \\t or \\xNN)", e));
    }
  }
  flush();
  return out;
}

std::string_view LineScanner::form_reference(std::string_view what) {
  skip_blanks();
  const std::size_t start = pos_;
  if (pos_ < line_.size() && line_[pos_] == '"') {
    const std::size_t close = line_.find('"', pos_ + 1);
    if (close == std::string_view::npos) fail("the file name has no closing quote");
    pos_ = close + 1;
    if (pos_ >= line_.size() || line_[pos_] != ':') fail("expected ':' and the object id after the quoted file name");
  }
  while (pos_ < line_.size() && !is_word_break(line_[pos_])) ++pos_;
  if (pos_ == start) fail(fmt::format("expected {}", what));
  return line_.substr(start, pos_ - start);
}

void LineScanner::expect_key(std::string_view name) {
  skip_blanks();
  const std::size_t start = pos_;
  const std::string_view w = word();
  if (w != name || pos_ >= line_.size() || line_[pos_] != '=') {
    pos_ = start;
    fail(fmt::format("expected '{}='", name));
  }
  ++pos_;
}

void LineScanner::expect_end() {
  if (!at_end()) fail(fmt::format("unexpected '{}' (expected the end of the line)", rest()));
}

void LineScanner::fail(std::string message) const { fail_at(pos_, std::move(message)); }

void LineScanner::fail_at(std::size_t pos, std::string message) const {
  throw SyntaxError(number_, first_column_ + std::uint32_t(pos), std::move(message));
}

}  // namespace tesmod::text
