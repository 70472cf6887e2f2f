#include "record_text_common.hpp"

#include <fmt/format.h>

#include "tesmod/io/ascii.hpp"
#include "tesmod/io/number_text.hpp"
#include "tesmod/plugin/group_type.hpp"
#include "tesmod/text/text_syntax.hpp"

namespace tesmod::text::detail {
namespace {

constexpr FlagName kRecordFlags[] = {
    {0x00000020, "Deleted"},  {0x00000400, "Persistent"},         {0x00000800, "InitiallyDisabled"},
    {0x00001000, "Ignored"},  {0x00008000, "VisibleWhenDistant"}, {0x00040000, "Compressed"},
};
constexpr FlagName kHeaderFlags[] = {{0x00000001, "ESM"}, {0x00000080, "Localized"}, {0x00000200, "ESL"}};

bool plain(Signature sig) {
  for (int i = 0; i < 4; ++i) {
    const char c = sig.at(i);
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

}  // namespace

std::span<const FlagName> record_flag_names(Signature record_type) {
  if (record_type == Signature("TES4")) return kHeaderFlags;
  return kRecordFlags;
}

namespace {

// The table's set for the record type, or nullptr (the built-in names apply).
const fields::ValueNames* table_flags(Game game, Signature record_type, const fields::FieldSite* site) {
  const fields::LayoutTable& table = fields::layout_table(game);
  if (record_type == Signature("TES4") && !table.has_header_flags(record_type))
    return nullptr;  // the file header keeps its own names unless the table gives TES4 a set
  return table.header_flags(record_type, site);
}

}  // namespace

bool append_record_flags(std::string& out, Game game, Signature record_type, std::uint32_t flags,
                         const fields::FieldSite* site) {
  if (flags == 0) {
    out += '0';
    return true;
  }
  bool first = true;
  const auto name = [&](std::uint32_t bit, std::string_view label) {
    if (!(flags & bit) || bit == 0) return;
    if (!first) out += '|';
    out += label;
    flags &= ~bit;
    first = false;
  };
  if (const fields::ValueNames* names = table_flags(game, record_type, site)) {
    for (const auto& [bit, label] : names->entries)
      if (bit <= 0xFFFFFFFF) name(std::uint32_t(bit), label);
    // Bits the record type's own set leaves out keep their general names (`header *`), as the
    // editors show them on every record; the file header has only its own.
    const fields::ValueNames* general = fields::layout_table(game).header_flags(Signature());
    if (general && general != names && record_type != Signature("TES4"))
      for (const auto& [bit, label] : general->entries)
        if (bit <= 0xFFFFFFFF) name(std::uint32_t(bit), label);
  } else {
    for (const FlagName& f : record_flag_names(record_type)) name(f.bit, f.name);
  }
  if (!flags) return true;
  if (!first) out += '|';
  fmt::format_to(std::back_inserter(out), "0x{:08X}", flags);
  return false;
}

std::optional<std::uint32_t> parse_record_flags(Game game, Signature record_type, std::string_view text) {
  const fields::LayoutTable& table = fields::layout_table(game);
  std::uint32_t flags = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t bar = text.find('|', pos);
    if (bar == std::string_view::npos) bar = text.size();
    const std::string_view part = text.substr(pos, bar - pos);
    pos = bar + 1;
    std::optional<std::uint64_t> bit;
    if (record_type != Signature("TES4") || table.has_header_flags(record_type)) {
      for (const fields::ValueNames* names : table.header_flag_sets(record_type))
        if (!bit) bit = names->value(part);
      for (const fields::ValueNames* names : table.header_flag_sets(Signature()))
        if (!bit) bit = names->value(part);
    }
    for (const FlagName& f : record_flag_names(record_type))
      if (!bit && ascii::iequals(part, f.name)) bit = f.bit;
    if (!bit) bit = parse_uint(part);
    if (!bit || *bit > 0xFFFFFFFF) return std::nullopt;
    flags |= std::uint32_t(*bit);
  }
  return flags;
}

void append_signature(std::string& out, Signature sig) {
  if (plain(sig)) {
    for (int i = 0; i < 4; ++i) out += sig.at(i);
    return;
  }
  fmt::format_to(std::back_inserter(out), "0x{:08X}", sig.value());
}

std::optional<Signature> parse_signature(std::string_view word) {
  if (word.size() == 4) {
    const Signature sig = Signature::from_bytes(reinterpret_cast<const std::uint8_t*>(word.data()));
    if (plain(sig)) return sig;
    return std::nullopt;
  }
  if (word.size() == 10 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
    const auto v = parse_uint(word);
    if (!v) return std::nullopt;
    return Signature::from_value(std::uint32_t(*v));
  }
  return std::nullopt;
}

void append_group_header(std::string& out, const GroupHeader& header, Game game, const FormNamer& namer) {
  out += "group ";
  const std::int32_t type = header.type;
  if (type >= 0 && type <= kMaxGroupType) out += group_type_name(type);
  else fmt::format_to(std::back_inserter(out), "{}", type);
  out += ' ';
  switch (type) {
    case 0: append_signature(out, Signature::from_value(header.label)); break;
    case 2: case 3: fmt::format_to(std::back_inserter(out), "{}", std::int32_t(header.label)); break;
    case 4: case 5:
      fmt::format_to(std::back_inserter(out), "x={} y={}", std::int16_t(header.label >> 16), std::int16_t(header.label & 0xFFFF));
      break;
    default:
      if (group_label_is_form_id(type)) out += namer.name(header.label);
      else fmt::format_to(std::back_inserter(out), "0x{:08X}", header.label);
  }
  if (header.stamp) fmt::format_to(std::back_inserter(out), " stamp=0x{:08X}", header.stamp);
  if (game != Game::Oblivion && header.unknown) fmt::format_to(std::back_inserter(out), " unknown=0x{:08X}", header.unknown);
}

GroupHeader parse_group_header(LineScanner& s, Game game, const FormNamer& namer) {
  s.accept_word("group");
  GroupHeader h;
  s.skip_blanks();
  const std::size_t type_at = s.position();
  const std::string_view type = s.expect_word("a group type");
  bool known = false;
  for (std::int32_t t = 0; t <= kMaxGroupType; ++t)
    if (group_type_name(t) == type) {
      h.type = t;
      known = true;
    }
  if (!known) {
    const auto n = parse_int(type);
    if (!n || *n < INT32_MIN || *n > INT32_MAX) s.fail_at(type_at, fmt::format("unknown group type '{}'", type));
    h.type = std::int32_t(*n);
  }
  s.skip_blanks();
  const std::size_t label_at = s.position();
  switch (h.type) {
    case 0: {
      const auto sig = detail::parse_signature(s.word());
      if (!sig) s.fail_at(label_at, "expected the record type the group holds");
      h.label = sig->value();
      break;
    }
    case 2: case 3: {
      const auto n = parse_int(s.expect_word("a block number"));
      if (!n || *n < INT32_MIN || *n > INT32_MAX) s.fail_at(label_at, "expected a block number");
      h.label = std::uint32_t(std::int32_t(*n));
      break;
    }
    case 4: case 5: {
      s.expect_key("x");
      const auto x = parse_int(s.word());
      s.expect_key("y");
      const auto y = parse_int(s.word());
      if (!x || !y || *x < INT16_MIN || *x > INT16_MAX || *y < INT16_MIN || *y > INT16_MAX)
        s.fail_at(label_at, "expected x=N y=N grid coordinates (-32768 to 32767)");
      h.label = std::uint32_t(std::uint16_t(*x)) << 16 | std::uint16_t(*y);
      break;
    }
    default:
      if (group_label_is_form_id(h.type)) {
        const std::string_view ref = s.form_reference();
        const auto id = namer.resolve(ref);
        if (!id) s.fail_at(label_at, unknown_form_message(ref));
        h.label = *id;
      } else {
        const auto v = parse_uint(s.expect_word("a label"));
        if (!v || *v > 0xFFFFFFFF) s.fail_at(label_at, "expected the label as 0x + 8 hex digits");
        h.label = std::uint32_t(*v);
      }
  }
  while (!s.at_end() && s.peek() != '{') {
    const std::size_t at = s.position();
    const std::string_view key = s.word();
    if (!s.accept('=')) s.fail_at(at, "expected stamp=, unknown= or '{'");
    const auto v = parse_uint(s.word());
    if (!v || *v > 0xFFFFFFFF) s.fail_at(at, fmt::format("expected {}= and a 32-bit number", key));
    if (key == "stamp") h.stamp = std::uint32_t(*v);
    else if (key == "unknown" && game != Game::Oblivion) h.unknown = std::uint32_t(*v);
    else s.fail_at(at, fmt::format("unknown group value '{}'", key));
  }
  return h;
}

}  // namespace tesmod::text::detail
