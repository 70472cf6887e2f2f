// What the Skyrim and Oblivion package blocks share (package_block_syntax.hpp).
#include "tesmod/text/package_block.hpp"

#include <algorithm>
#include <exception>
#include <limits>

#include "package_block_syntax.hpp"
#include "tesmod/fields/condition.hpp"
#include "tesmod/io/counted.hpp"
#include "tesmod/text/condition_text.hpp"

namespace tesmod::text {

std::size_t package_block_start(std::span<const Field> fields) {
  std::size_t i = 0;
  while (i < fields.size() && (fields[i].type == Signature("EDID") || fields[i].type == Signature("VMAD"))) ++i;
  return i;
}

namespace package_block {

std::string camel(std::string_view name) {
  std::string out;
  bool upper = true;
  for (char c : name) {
    if (c == ' ' || c == ',') {
      upper = true;
      continue;
    }
    out += upper && c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

float read_float(LineScanner& s, std::string_view what) {
  s.skip_blanks();
  const std::size_t at = s.position();
  const std::string_view w = s.word();
  if (const auto v = parse_float(w)) return *v;
  s.fail_at(at, fmt::format("expected {} (a number such as 2.5){}", what,
                            w.empty() ? std::string() : fmt::format(", found '{}'", w)));
}

std::string flags_text(std::uint32_t value, std::span<const fields::FlagName> names) {
  std::string out;
  std::uint32_t rest = value;
  for (const fields::FlagName& f : names) {
    if ((value & f.bit) == 0) continue;
    out += (out.empty() ? "" : "|") + camel(f.name);
    rest &= ~f.bit;
  }
  if (rest != 0) out += fmt::format("{}0x{:X}", out.empty() ? "" : "|", rest);
  return out.empty() ? "none" : out;
}

std::uint32_t read_flags(LineScanner& s, std::span<const fields::FlagName> names, std::uint32_t max,
                         std::string_view what) {
  s.skip_blanks();
  const std::size_t start = s.position();
  std::uint32_t value = 0;
  do {
    s.skip_blanks();
    const std::size_t at = s.position();
    const std::string_view w = s.word();
    if (ascii::iequals(w, "none")) continue;
    const auto named = std::find_if(names.begin(), names.end(),
                                    [&](const fields::FlagName& f) { return ascii::iequals(camel(f.name), w); });
    if (named != names.end()) {
      value |= named->bit;
    } else if (const auto bits = to_number<std::uint32_t>(w); bits && w.starts_with("0x")) {
      value |= *bits;
    } else {
      std::string known;
      for (const fields::FlagName& f : names) known += camel(f.name) + ", ";
      s.fail_at(at, fmt::format("expected {}: names ({}none) or 0x bits, joined by '|'{}", what, known,
                                w.empty() ? std::string() : fmt::format(", found '{}'", w)));
    }
  } while (s.accept('|'));
  if (value > max) s.fail_at(start, fmt::format("{} 0x{:X} do not fit in 0x{:X}", what, value, max));
  return value;
}

std::string hex_text(std::span<const std::uint8_t> bytes) {
  if (bytes.empty()) return "-";
  std::string out;
  for (std::uint8_t b : bytes) fmt::format_to(std::back_inserter(out), "{:02X}", b);
  return out;
}

std::vector<std::uint8_t> read_hex(LineScanner& s, std::string_view what, std::size_t size) {
  s.skip_blanks();
  const std::size_t at = s.position();
  const std::string_view w = s.word();
  const auto digit = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::vector<std::uint8_t> out;
  bool ok = !w.empty() && (w == "-" || w.size() % 2 == 0);
  for (std::size_t i = 0; ok && w != "-" && i < w.size(); i += 2) {
    const int hi = digit(w[i]), lo = digit(w[i + 1]);
    ok = hi >= 0 && lo >= 0;
    out.push_back(std::uint8_t(hi << 4 | lo));
  }
  if (!ok || (size != std::string_view::npos && out.size() != size)) {
    const std::string count = size == std::string_view::npos ? std::string("bytes as hex digits (- for none)")
                                                             : fmt::format("{} as {} hex digits", counted(size, "byte"), 2 * size);
    s.fail_at(at, fmt::format("expected {}: {}{}", what, count, w.empty() ? std::string() : fmt::format(", found '{}'", w)));
  }
  return out;
}

std::string field_data_text(const Field& field) {
  std::string out = hex_text(field.data);
  if (field.oversize) out += fmt::format(" xxxx={}", field.stored_size);
  return out;
}

void read_field_data(LineScanner& s, Field& field) {
  field.data = read_hex(s, fmt::format("the {} field's bytes", field.type.str()));
  field.oversize = false;
  field.stored_size = 0;
  if (s.accept_word("xxxx")) {
    s.expect('=', "'=' and the small size after xxxx");
    field.oversize = true;
    field.stored_size = read_number<std::uint16_t>(s, "the small size of a field with an XXXX prefix");
  }
}

std::string field_text(const Field& field) {
  const std::string type = field.type.is_record_type_like() ? field.type.str() : fmt::format("0x{:08X}", field.type.value());
  return type + " " + field_data_text(field);
}

Field read_field(LineScanner& s) {
  s.skip_blanks();
  const std::size_t at = s.position();
  const std::string_view w = s.word();
  Field field;
  if (w.size() == 10 && w.starts_with("0x")) {
    const auto v = to_number<std::uint32_t>(w);
    if (!v) s.fail_at(at, "expected a field type: four characters, or 0x and 8 hex digits");
    field.type = Signature::from_value(*v);
  } else if (!Signature::parse(w, field.type)) {
    s.fail_at(at, fmt::format("expected a field type (four characters, or 0x and 8 hex digits){}",
                              w.empty() ? std::string() : fmt::format(", found '{}'", w)));
  }
  read_field_data(s, field);
  return field;
}

std::string name_text(std::string_view stored, const TextCodec& codec) {
  const bool word = !stored.empty() && std::all_of(stored.begin(), stored.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
  return word ? std::string(stored) : quoted(stored, codec);
}

std::string read_name(LineScanner& s, const TextCodec& codec, std::string_view what) {
  if (s.peek() == '"') return s.quoted_string(codec);
  return std::string(s.expect_word(what));
}

std::uint32_t read_form(LineScanner& s, const FormNamer& namer) {
  s.skip_blanks();
  const std::size_t at = s.position();
  const std::string_view name = s.form_reference();
  const auto id = namer.resolve(name);
  if (!id) s.fail_at(at, unknown_form_message(name));
  return *id;
}

std::string condition_line(const fields::PackageCondition& condition, Game game, const FormNamer& namer) {
  // The condition text carries every byte of a well-formed CTDA + CIS1/CIS2; anything else (a
  // field with an XXXX prefix, CIS fields out of order) goes raw. Checked by reading it back.
  try {
    const std::string text = render_condition(fields::decode_condition_fields(game, condition.fields, {}), namer);
    if (fields::encode_condition(parse_condition(text, game, namer)) == condition.fields) return "condition " + text;
  } catch (const std::exception&) {
  }
  std::string out = "raw-condition";
  for (const Field& f : condition.fields) out += " " + field_text(f);
  return out;
}

fields::PackageCondition read_condition(LineScanner& s, Game game, const FormNamer& namer) {
  s.skip_blanks();
  std::string_view text = s.rest();
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  const std::uint32_t column = s.column();
  try {
    fields::PackageCondition out{fields::encode_condition(parse_condition(text, game, namer))};
    s.seek(s.line().size());
    return out;
  } catch (const ConditionSyntaxError& e) {
    throw SyntaxError(s.line_number(), column + std::uint32_t(e.column()) - 1, e.message());
  }
}

fields::PackageCondition read_raw_condition(LineScanner& s) {
  fields::PackageCondition out;
  do out.fields.push_back(read_field(s));
  while (!s.at_end());
  return out;
}

bool at_key(LineScanner& s) {
  const std::size_t at = s.position();
  s.word();
  const bool key = s.rest().starts_with('=');
  s.seek(at);
  return key;
}

std::string_view read_key(LineScanner& s, std::string_view expected) {
  s.skip_blanks();
  const std::size_t at = s.position();
  const std::string_view name = s.word();
  if (name.empty() || !s.rest().starts_with('=')) s.fail_at(at, fmt::format("expected {}", expected));
  s.seek(s.position() + 1);
  return name;
}

void Once::check(const LineScanner& s, std::size_t at, std::string_view what) {
  if (std::find(seen_.begin(), seen_.end(), what) != seen_.end()) s.fail_at(at, fmt::format("'{}' is given twice", what));
  seen_.emplace_back(what);
}

namespace {

std::string duration_text(std::int64_t minutes) {
  if (minutes % 60 == 0) return fmt::format("{}h", minutes / 60);
  if (minutes > 60) return fmt::format("{}h{}min", minutes / 60, minutes % 60);
  return fmt::format("{}min", minutes);
}

// `7h`, `90min`, `7h30min`.
std::optional<std::int64_t> parse_duration(std::string_view w) {
  std::int64_t minutes = 0;
  bool any = false;
  if (const std::size_t h = w.find('h'); h != std::string_view::npos) {
    const auto hours = parse_int(w.substr(0, h));
    if (!hours || *hours > (std::int64_t(1) << 40) || *hours < -(std::int64_t(1) << 40)) return std::nullopt;
    minutes = *hours * 60;
    w.remove_prefix(h + 1);
    any = true;
  }
  if (w.ends_with("min")) {
    const auto m = parse_int(w.substr(0, w.size() - 3));
    if (!m || (any && (*m < 0 || *m >= 60))) return std::nullopt;
    minutes += *m;
    w = {};
    any = true;
  }
  if (!any || !w.empty()) return std::nullopt;
  return minutes;
}

template <class T>
T read_any_or(LineScanner& s, T any, std::string_view what) {
  if (s.accept_word("any")) return any;
  return read_number<T>(s, what);
}

}  // namespace

std::string schedule_text(const ScheduleFields& f, bool oblivion) {
  std::string out;
  const auto add = [&out](std::string key_value) { out += (out.empty() ? "" : " ") + key_value; };
  if (f.month != -1) add(fmt::format("month={}", f.month));
  if (f.day != fields::DayOfWeek::Any) add("day=" + enum_word(f.day));
  if (f.date != 0) add(fmt::format("date={}", f.date));
  if (f.hour != -1) add(fmt::format("hour={}", f.hour));
  if (!oblivion && f.minute != -1) add(fmt::format("minute={}", f.minute));
  if (f.duration_minutes != 0) add("duration=" + duration_text(f.duration_minutes));
  if (out.empty()) out = "any";
  if (!oblivion && f.unused != std::array<std::uint8_t, 3>{}) add("unused=" + hex_text(f.unused));
  return out;
}

ScheduleFields read_schedule(LineScanner& s, bool oblivion) {
  ScheduleFields f;
  s.accept_word("any");
  const std::string_view keys = oblivion ? "month=, day=, date=, hour= or duration="
                                         : "month=, day=, date=, hour=, minute=, duration= or unused=";
  Once once;
  while (!s.at_end()) {
    const std::size_t at = s.position();
    const std::string_view key = read_key(s, keys);
    once.check(s, at, key);
    if (key == "month") {
      f.month = read_any_or<std::int8_t>(s, -1, "a month (0-11, or any)");
    } else if (key == "day") {
      f.day = s.accept_word("any") ? fields::DayOfWeek::Any : read_enum<fields::DayOfWeek>(s, "a day of the week");
    } else if (key == "date") {
      f.date = read_any_or<std::uint8_t>(s, 0, "a day of the month (1-31, or any)");
    } else if (key == "hour") {
      f.hour = read_any_or<std::int8_t>(s, -1, "an hour (0-23, or any)");
    } else if (key == "minute" && !oblivion) {
      f.minute = read_any_or<std::int8_t>(s, -1, "a minute (0-59, or any)");
    } else if (key == "duration") {
      s.skip_blanks();
      const std::size_t value_at = s.position();
      const auto minutes = parse_duration(s.word());
      const auto fits_i32 = [](std::int64_t v) {
        return v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max();
      };
      const bool fits = minutes && (oblivion ? *minutes % 60 == 0 && fits_i32(*minutes / 60) : fits_i32(*minutes));
      if (!fits) {
        s.fail_at(value_at, oblivion ? "expected a duration in whole hours, such as 7h"
                                     : "expected a duration such as 7h, 90min or 7h30min");
      }
      f.duration_minutes = *minutes;
    } else if (key == "unused" && !oblivion) {
      f.unused = read_hex_array<3>(s, "the schedule's unused bytes");
    } else {
      s.fail_at(at, fmt::format("unknown schedule key '{}': expected {}", key, keys));
    }
  }
  return f;
}

}  // namespace package_block
}  // namespace tesmod::text
