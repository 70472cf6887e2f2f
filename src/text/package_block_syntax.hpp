// The pieces the Skyrim and Oblivion package blocks share (text/package_block.hpp): names of
// enumerations and flags, numbers, hex, raw fields, schedules, locations and targets, conditions,
// and the line loop with its checks.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tesmod/fields/package.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/plugin/field.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/text/form_namer.hpp"
#include "tesmod/text/text_syntax.hpp"

namespace tesmod::text::package_block {

// "must complete" -> "MustComplete", "Morndas, Middas, Fredas" -> "MorndasMiddasFredas": the
// names of fields/package.hpp as single words.
std::string camel(std::string_view name);

// ---- numbers

// Decimal (signed) or 0x hex (the bit pattern) that fits T.
template <class T>
std::optional<T> to_number(std::string_view w) {
  using U = std::make_unsigned_t<T>;
  if (w.starts_with("0x") || w.starts_with("0X")) {
    const auto u = parse_uint(w);
    if (!u || *u > std::numeric_limits<U>::max()) return std::nullopt;
    return T(U(*u));
  }
  const auto i = parse_int(w);
  if (!i || *i < std::int64_t(std::numeric_limits<T>::min()) || *i > std::int64_t(std::numeric_limits<T>::max()))
    return std::nullopt;
  return T(*i);
}

template <class T>
T read_number(LineScanner& s, std::string_view what) {
  s.skip_blanks();
  const std::size_t at = s.position();
  const std::string_view w = s.word();
  if (const auto v = to_number<T>(w)) return *v;
  s.fail_at(at, fmt::format("expected {} (a number from {} to {}){}", what, std::int64_t(std::numeric_limits<T>::min()),
                            std::uint64_t(std::numeric_limits<T>::max()),
                            w.empty() ? std::string() : fmt::format(", found '{}'", w)));
}

float read_float(LineScanner& s, std::string_view what);

// ---- enumerations by the camel-cased name_of() of fields/package*.hpp, else as numbers

template <class E>
std::string enum_word(E value) {
  if (const auto name = name_of(value)) return camel(*name);
  return std::to_string(std::int64_t(std::underlying_type_t<E>(value)));
}

template <class E>
E read_enum(LineScanner& s, std::string_view what) {
  using U = std::underlying_type_t<E>;
  s.skip_blanks();
  const std::size_t at = s.position();
  const std::string_view w = s.word();
  if (const auto n = to_number<U>(w)) return E(*n);
  std::string known;
  for (int v = -1; v < 256; ++v) {  // every named value of these enumerations is in this range
    const auto name = int(U(v)) == v ? name_of(E(U(v))) : std::nullopt;
    if (!name) continue;
    if (ascii::iequals(camel(*name), w)) return E(U(v));
    known += (known.empty() ? "" : ", ") + camel(*name);
  }
  s.fail_at(at, fmt::format("expected {} ({} or a number){}", what, known,
                            w.empty() ? std::string() : fmt::format(", found '{}'", w)));
}

// ---- flags: names joined by '|', bits without a name as one 0x number, `none` for 0

std::string flags_text(std::uint32_t value, std::span<const fields::FlagName> names);
std::uint32_t read_flags(LineScanner& s, std::span<const fields::FlagName> names, std::uint32_t max,
                         std::string_view what);

// ---- bytes and raw fields

// Hex digits without spaces, `-` for no bytes.
std::string hex_text(std::span<const std::uint8_t> bytes);
// size: the exact number of bytes expected, or npos for any.
std::vector<std::uint8_t> read_hex(LineScanner& s, std::string_view what,
                                   std::size_t size = std::string_view::npos);
template <std::size_t N>
std::array<std::uint8_t, N> read_hex_array(LineScanner& s, std::string_view what) {
  const std::vector<std::uint8_t> v = read_hex(s, what, N);
  std::array<std::uint8_t, N> out{};
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

// `HEX`, then ` xxxx=N` for a field stored with an XXXX size prefix (N: its small size).
std::string field_data_text(const Field& field);
void read_field_data(LineScanner& s, Field& field);
// `TYPE HEX [xxxx=N]`; TYPE is the four characters, or 0x + 8 hex digits when they are not A-Z 0-9 _.
std::string field_text(const Field& field);
Field read_field(LineScanner& s);

// ---- strings, forms, conditions

// A plain word when the stored bytes are letters, digits and '_' only, else a quoted string.
std::string name_text(std::string_view stored, const TextCodec& codec);
std::string read_name(LineScanner& s, const TextCodec& codec, std::string_view what);

std::uint32_t read_form(LineScanner& s, const FormNamer& namer);

// `condition TEXT` when the condition text reads back to the same fields, else `raw-condition`
// and the fields.
std::string condition_line(const fields::PackageCondition& condition, Game game, const FormNamer& namer);
// The rest of the line after `condition` / `raw-condition`.
fields::PackageCondition read_condition(LineScanner& s, Game game, const FormNamer& namer);
fields::PackageCondition read_raw_condition(LineScanner& s);

// ---- keys

// True when the next word is followed by '=' (nothing is consumed).
bool at_key(LineScanner& s);
// A `name=` prefix; returns the name. expected: what the message lists when there is none.
std::string_view read_key(LineScanner& s, std::string_view expected);

// Keywords and keys that may be given once: the second one is an error at its column.
class Once {
 public:
  void check(const LineScanner& s, std::size_t at, std::string_view what);

 private:
  std::vector<std::string> seen_;
};

// ---- schedules (Skyrim PSDT / Oblivion PSDT)

struct ScheduleFields {
  std::int8_t month = -1;
  fields::DayOfWeek day = fields::DayOfWeek::Any;
  std::uint8_t date = 0;
  std::int8_t hour = -1;
  std::int8_t minute = -1;              // Skyrim only
  std::int64_t duration_minutes = 0;    // Oblivion stores hours
  std::array<std::uint8_t, 3> unused{};  // Skyrim only
};
// The keys after `schedule`: month= day= date= hour= minute= duration= unused=, those at their
// "any" value left out (`any` when all are).
std::string schedule_text(const ScheduleFields& schedule, bool oblivion);
ScheduleFields read_schedule(LineScanner& s, bool oblivion);

// ---- locations and targets: `Type [value] key=N`, the value a form when the type holds one,
// else a number left out when 0.

template <class E>
std::string place_text(E type, std::uint32_t value, std::string_view key, std::int32_t number, const FormNamer& namer) {
  std::string out = enum_word(type);
  if (holds_form_id(type)) out += " " + namer.name(value);
  else if (value != 0) out += fmt::format(" {}", value);
  return out + fmt::format(" {}={}", key, number);
}

template <class E>
void read_place(LineScanner& s, E& type, std::uint32_t& value, std::string_view key, std::int32_t& number,
                const FormNamer& namer, std::string_view what) {
  type = read_enum<E>(s, fmt::format("a {} type", what));
  value = 0;
  if (holds_form_id(type)) value = read_form(s, namer);
  else if (!s.at_end() && !at_key(s)) value = read_number<std::uint32_t>(s, fmt::format("the {} value", what));
  number = 0;
  if (s.at_end()) return;
  s.skip_blanks();
  const std::size_t at = s.position();
  if (read_key(s, fmt::format("'{}='", key)) != key) s.fail_at(at, fmt::format("expected '{}='", key));
  number = read_number<std::int32_t>(s, std::string(key));
  s.expect_end();
}

// ---- lines

// Calls on_line(scanner, keyword, keyword position) for every line that is not blank and not a
// comment, with line numbers from 1.
template <class F>
void for_each_line(std::string_view text, F&& on_line) {
  std::uint32_t number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    LineScanner s(line, ++number);
    if (s.at_end() || s.peek() == '#') continue;
    const std::size_t at = s.position();
    const std::string_view keyword = s.word();
    if (keyword.empty()) s.fail("expected a keyword at the start of the line");
    on_line(s, keyword, at);
  }
}

// Lines indented two spaces per level.
class Lines {
 public:
  void add(std::size_t level, std::string_view line) {
    text_.append(2 * level, ' ');
    text_ += line;
    text_ += '\n';
  }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
};

}  // namespace tesmod::text::package_block
