// The Oblivion package block (text/package_block.hpp): fields::OblivionPackage to lines and back.
#include <fmt/format.h>

#include <algorithm>

#include "package_block_syntax.hpp"
#include "tesmod/text/package_block.hpp"

namespace tesmod::text {

using namespace tesmod::fields;
using namespace package_block;

std::string oblivion_package_block_text(const OblivionPackage& p, const BlockTextOptions& options) {
  const FormNamer& namer = *options.namer;
  Lines lines;
  const auto add = [&lines](const std::string& line) { lines.add(0, line); };
  if (p.editor_id) add("editor-id " + quoted(*p.editor_id, *options.codec));
  add("type " + enum_word(p.data.type));
  add("flags " + flags_text(p.data.flags, oblivion_package_flag_names()));
  // The 4-byte PKDT of early plugins has one unused byte; the 8-byte one has three (often 0xCD).
  const std::span<const std::uint8_t> unused(p.data.unused.data(), p.data.short_form ? 1 : 3);
  const bool unused_set = std::any_of(unused.begin(), unused.end(), [](std::uint8_t b) { return b != 0; });
  if (p.data.short_form || unused_set)
    add(fmt::format("pkdt{}{}", p.data.short_form ? " short" : "", unused_set ? " unused=" + hex_text(unused) : ""));
  if (p.location) add("location " + place_text(p.location->type, p.location->value, "radius", p.location->radius, namer));
  const OblivionSchedule& s = p.schedule;
  add("schedule " + schedule_text({s.month, s.day_of_week, s.date, s.hour, -1, std::int64_t(s.duration) * 60, {}}, true));
  if (p.target) add("target " + place_text(p.target->type, p.target->value, "count", p.target->count, namer));
  for (const PackageCondition& c : p.conditions) add(condition_line(c, Game::Oblivion, namer));
  for (const UnknownField& u : p.unknown_fields) add(fmt::format("unknown {} {}", u.index, field_text(u.field)));
  return lines.take();
}

OblivionPackage parse_oblivion_package_block(std::string_view text, const BlockTextOptions& options) {
  const FormNamer& namer = *options.namer;
  OblivionPackage p;
  Once once;
  std::uint32_t flags_line = 0, flags_column = 0;  // where the flags were given, for the short-form check
  for_each_line(text, [&](LineScanner& s, std::string_view keyword, std::size_t at) {
    if (keyword != "condition" && keyword != "raw-condition" && keyword != "unknown") once.check(s, at, keyword);
    if (keyword == "type") {
      p.data.type = read_enum<OblivionPackageType>(s, "a package type");
    } else if (keyword == "flags") {
      s.skip_blanks();
      flags_line = s.line_number();
      flags_column = s.column();
      p.data.flags = read_flags(s, oblivion_package_flag_names(), 0xFFFFFFFF, "package flags");
    } else if (keyword == "pkdt") {
      p.data.short_form = s.accept_word("short");
      if (!s.at_end()) {
        const std::size_t key_at = s.position();
        if (read_key(s, "'unused='") != "unused") s.fail_at(key_at, "expected 'unused='");
        const std::vector<std::uint8_t> bytes = read_hex(s, "the PKDT's unused bytes", p.data.short_form ? 1 : 3);
        std::copy(bytes.begin(), bytes.end(), p.data.unused.begin());
      }
    } else if (keyword == "location") {
      OblivionLocation& l = p.location.emplace();
      read_place(s, l.type, l.value, "radius", l.radius, namer, "location");
    } else if (keyword == "schedule") {
      const ScheduleFields f = read_schedule(s, true);
      p.schedule = {f.month, f.day, f.date, f.hour, std::int32_t(f.duration_minutes / 60)};
    } else if (keyword == "target") {
      OblivionTarget& t = p.target.emplace();
      read_place(s, t.type, t.value, "count", t.count, namer, "target");
    } else if (keyword == "condition") {
      p.conditions.push_back(read_condition(s, Game::Oblivion, namer));
    } else if (keyword == "raw-condition") {
      p.conditions.push_back(read_raw_condition(s));
    } else if (keyword == "unknown") {
      UnknownField& u = p.unknown_fields.emplace_back();
      u.index = read_number<std::uint32_t>(s, "the field's index in the record");
      u.field = read_field(s);
    } else if (keyword == "editor-id") {
      p.editor_id = s.quoted_string(*options.codec);
    } else {
      s.fail_at(at, fmt::format("unknown keyword '{}': expected type, flags, pkdt, location, schedule, target, condition, "
                                "raw-condition, unknown or editor-id",
                                keyword));
    }
    s.expect_end();
  });
  if (p.data.short_form && p.data.flags > 0xFFFF)
    throw SyntaxError(flags_line, flags_column, "the short (4-byte) PKDT holds 16 bits of flags: 0x10000 and up do not fit");
  return p;
}

}  // namespace tesmod::text
