// The stricter checks of `tesmod check` (record_check.hpp): fields against the record type's
// structure, values against their layout, sizes against the layouts that apply.
#include "tesmod/fields/record_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "tesmod/io/little_endian.hpp"

namespace tesmod::fields {
namespace {

constexpr Signature kXXXX("XXXX");

// "an LVLO", "a COED": the article English puts before a field type's name.
std::string with_article(Signature field) {
  const char c = field.at(0);
  const bool vowel = c == 'A' || c == 'E' || c == 'F' || c == 'H' || c == 'I' || c == 'L' || c == 'M' || c == 'N' ||
                     c == 'O' || c == 'R' || c == 'S' || c == 'X';
  return fmt::format("{} {}", vowel ? "an" : "a", field.str());
}

// The group whose instance an element needs open: its own group, or for a group's opener the
// group around that one (0: the record, which is always open).
std::uint16_t owning_group(const RecordStructure& s, std::uint16_t element) {
  const std::uint16_t group = s.elements[element].group;
  if (group != 0 && s.elements[s.groups[group].first].slot == s.elements[element].slot) return s.groups[group].parent;
  return group;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Structure
// ---------------------------------------------------------------------------------------------

void RecordStructureCheck::Bits::clear(std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to; ++i) words[i >> 6] &= ~(std::uint64_t(1) << (i & 63));
}

RecordStructureCheck::RecordStructureCheck(Game game, Signature record_type)
    : RecordStructureCheck(layout_table(game), game_title(game), record_type) {}

RecordStructureCheck::RecordStructureCheck(const LayoutTable& table, std::string_view game_name, Signature record_type)
    : structure_(table.record_structure(record_type)), game_name_(game_name) {}

void RecordStructureCheck::open_group(std::uint16_t group, std::size_t index) {
  const StructureGroup& g = structure_->groups[group];
  seen_.clear(g.first, g.end);
  if (depth_ < kMaxDepth) {
    open_[depth_] = group;
    opener_index_[depth_] = index;
  }
  ++depth_;
}

// The instance of the innermost open group ends: its required fields must have been seen.
void RecordStructureCheck::close_group(std::uint16_t group, std::vector<RecordFinding>& out) {
  const RecordStructure& s = *structure_;
  const std::size_t at = std::min(depth_ - 1, kMaxDepth - 1);
  for (const std::uint16_t slot : s.required_slots[group]) {
    if (seen_.test(slot)) continue;
    const Signature opener = s.elements[s.groups[group].first].field;
    out.push_back({kMissingField, opener_index_[at], s.elements[slot].field,
                   fmt::format("the {} at field {} has no {}, which {} requires after it", opener.str(),
                               opener_index_[at], s.elements[slot].field.str(), s.record_type.str())});
  }
  --depth_;
}

void RecordStructureCheck::field(std::size_t index, Signature field, std::vector<RecordFinding>& out) {
  if (!structure_ || field == kXXXX) return;
  const RecordStructure& s = *structure_;
  const Signature previous = last_field_;
  const bool had_previous = any_field_;
  last_field_ = field;
  any_field_ = true;
  const std::uint16_t first = s.first_of(field);
  if (first == StructureElement::kNone) {
    out.push_back({kUnexpectedField, index, field,
                   fmt::format("{} is not a field of {} in {}", field.str(), s.record_type.str(), game_name_)});
    return;
  }
  const auto& e = s.elements;
  if (!s.ordered) {
    for (std::uint16_t c = first; c != StructureElement::kNone; c = e[c].next_same) seen_.set(e[c].slot);
    return;
  }
  // The same field (or another of its `A|B`) again where it may repeat.
  if (position_ >= 0 && e[std::size_t(position_)].repeats) {
    const std::uint16_t slot = e[std::size_t(position_)].slot;
    for (std::size_t c = slot; c < e.size() && e[c].slot == slot; ++c)
      if (e[c].field == field) return;
  }

  // Forward from the last match: in the innermost open group, then (closing it) in the groups
  // around it. A field of an inner group counts only as its opener (the group starts there); a
  // group's opener past its end starts its next instance.
  std::int32_t from = position_;
  std::size_t level = std::min(depth_, kMaxDepth) - 1;
  std::size_t closing = 0;  // groups closed on the way (innermost first), committed on success
  std::int32_t match = -1;
  bool restart = false;     // match is the opener of open_[level], starting a new instance of it
  for (;;) {
    const std::uint16_t group = open_[level];
    const std::uint16_t end = s.groups[group].end;
    for (std::uint16_t c = first; c != StructureElement::kNone && c < end; c = e[c].next_same) {
      if (std::int32_t(c) <= from) continue;
      const std::uint16_t inner = e[c].group;
      if (inner == group || (s.groups[inner].parent == group && e[s.groups[inner].first].slot == e[c].slot)) {
        match = c;
        break;
      }
    }
    if (match >= 0 || level == 0) break;
    const StructureGroup& g = s.groups[group];
    if (g.repeats)
      for (std::uint16_t c = g.first; c < g.end && e[c].slot == e[g.first].slot; ++c)
        if (e[c].field == field) {
          match = c;
          restart = true;
          break;
        }
    if (match >= 0) break;
    from = std::int32_t(g.end) - 1;
    ++closing;
    --level;
  }
  if (match < 0) {
    report_order(index, had_previous ? previous : Signature(), first, out);
    seen_.set(e[first].slot);  // present, if out of place: not missing as well
    // Go on from where this field stands in the structure when that is at the top (a field of
    // the record, or the opener of one of its groups): the fields after it are then judged
    // against it, not reported again for the same displacement.
    const std::uint16_t group = e[first].group;
    const bool opener = group != 0 && s.groups[group].parent == 0 && e[s.groups[group].first].slot == e[first].slot;
    if (group == 0 || opener) {
      depth_ = 1;  // the instances open end here, unchecked: this record's order is already reported
      if (opener) open_group(group, index);
      position_ = first;
    }
    return;
  }
  for (std::size_t i = 0; i < closing; ++i) close_group(open_[std::min(depth_, kMaxDepth) - 1], out);
  const std::uint16_t group = e[std::size_t(match)].group;
  if (restart) {
    close_group(group, out);
    open_group(group, index);
  } else if (group != open_[std::min(depth_, kMaxDepth) - 1]) {
    open_group(group, index);
  }
  position_ = match;
  seen_.set(e[std::size_t(match)].slot);
}

void RecordStructureCheck::report_order(std::size_t index, Signature previous, std::uint16_t first,
                                        std::vector<RecordFinding>& out) const {
  const RecordStructure& s = *structure_;
  const auto& e = s.elements;
  const Signature field = e[first].field;
  const std::string after = previous == Signature() ? std::string("first") : "after " + previous.str();
  std::string message;
  if (position_ >= 0 && e[std::size_t(position_)].field == field && !e[std::size_t(position_)].repeats) {
    message = fmt::format("{} twice in a row: {} holds one there", field.str(), s.record_type.str());
  } else if (position_ >= 0 && std::int32_t(first) < position_ && e[first].group == 0) {
    message = fmt::format("{} {}: {} holds {} before {}", field.str(), after, s.record_type.str(), field.str(),
                          e[std::size_t(position_)].field.str());
  } else if (const std::uint16_t owner = owning_group(s, first); owner != 0) {
    message = fmt::format("{} {}: in {} it belongs after {}", field.str(), after, s.record_type.str(),
                          with_article(e[s.groups[owner].first].field));
  } else {
    message = fmt::format("{} {}: {} holds its fields in another order", field.str(), after, s.record_type.str());
  }
  out.push_back({kFieldOrder, index, field, std::move(message)});
}

void RecordStructureCheck::finish(std::vector<RecordFinding>& out) {
  if (!structure_) return;
  const RecordStructure& s = *structure_;
  if (s.ordered)
    while (depth_ > 1) close_group(open_[std::min(depth_, kMaxDepth) - 1], out);
  for (const std::uint16_t slot : s.required_slots[0])
    if (!seen_.test(slot))
      out.push_back({kMissingField, SIZE_MAX, s.elements[slot].field,
                     fmt::format("{} has no {}, which {} requires", s.record_type.str(), s.elements[slot].field.str(),
                                 game_name_)});
}

void check_record_structure(const LayoutTable& table, std::string_view game_name, Signature record_type,
                            std::span<const Signature> fields, std::vector<RecordFinding>& out) {
  RecordStructureCheck check(table, game_name, record_type);
  if (!check.active()) return;
  for (std::size_t i = 0; i < fields.size(); ++i) check.field(i, fields[i], out);
  check.finish(out);
}

void check_record_structure(Game game, Signature record_type, std::span<const Signature> fields,
                            std::vector<RecordFinding>& out) {
  check_record_structure(layout_table(game), game_title(game), record_type, fields, out);
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

namespace {

struct ValueCheck {
  Signature field;
  std::size_t field_index;
  bool localized;
  std::vector<RecordFinding>& out;
};

inline bool is_nan(std::uint32_t bits) { return (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0; }

bool checks_member(const LayoutMember& m) { return m.type == ValueType::F32 || (m.names && m.names->complete); }

// One scalar element at p (element_size() bytes). Returns whether it was reported.
bool check_scalar(const LayoutMember& m, const std::uint8_t* p, ValueCheck& c) {
  if (m.type == ValueType::F32) {
    const std::uint32_t bits = le::u32(p);
    if (!is_nan(bits)) return false;
    c.out.push_back({kBadValue, c.field_index, c.field,
                     fmt::format("{} {} is NaN (0x{:08X}), not a number", c.field.str(), m.name, bits)});
    return true;
  }
  const ValueNames& names = *m.names;
  const std::uint64_t value = load_member_integer(m, p);
  if (names.is_flags) {
    std::uint64_t known = 0;
    for (const auto& [bit, label] : names.entries) known |= bit;
    // Only the member's own bytes: a signed member's sign extension is no flag.
    const std::uint32_t size = m.element_size();
    const std::uint64_t own = size >= 8 ? ~std::uint64_t(0) : (std::uint64_t(1) << (8 * size)) - 1;
    const std::uint64_t unknown = value & own & ~known;
    if (!unknown) return false;
    c.out.push_back({kBadValue, c.field_index, c.field,
                     fmt::format("{} {} 0x{:X} holds {} 0x{:X}, which {} does not name", c.field.str(), m.name,
                                 value & own, (unknown & (unknown - 1)) ? "bits" : "bit", unknown, names.name)});
    return true;
  }
  if (names.label(value)) return false;
  const std::string shown = is_signed_integer(m.type) ? std::to_string(std::int64_t(value)) : std::to_string(value);
  c.out.push_back({kBadValue, c.field_index, c.field,
                   fmt::format("{} {} is {}, which {} does not name", c.field.str(), m.name, shown, names.name)});
  return true;
}

// count elements of a scalar member, stride bytes apart from p; at most one finding. Floats are
// tested in a tight loop (navmesh vertices and landscape data hold thousands), formatting only a hit.
inline void check_elements(const LayoutMember& m, const std::uint8_t* p, std::size_t count, std::size_t stride,
                           ValueCheck& c) {
  if (m.type == ValueType::F32) {
    for (std::size_t k = 0; k < count; ++k)
      if (is_nan(le::u32(p + k * stride))) {
        check_scalar(m, p + k * stride, c);
        return;
      }
    return;
  }
  for (std::size_t k = 0; k < count; ++k)
    if (check_scalar(m, p + k * stride, c)) return;
}

void check_members(std::span<const LayoutMember> members, std::span<const std::uint8_t> data, bool field_end,
                   ValueCheck& c);

// A struct of fixed size without fixed values (StructLayout::plain) at p: members at fixed offsets.
void check_plain_struct(const StructLayout& s, const std::uint8_t* p, ValueCheck& c) {
  std::size_t offset = 0;
  for (const LayoutMember& m : s.members) {
    const std::size_t element = m.element_size();
    if (m.type == ValueType::Struct) {
      if (m.structure->checks_values)
        for (std::size_t k = 0; k < m.count; ++k) check_plain_struct(*m.structure, p + offset + k * element, c);
    } else if (checks_member(m)) {
      check_elements(m, p + offset, m.count, element, c);
    }
    offset += element * m.count;
  }
}

// A member whose bytes are exactly data (an array: every element; after its count, if stored).
void check_member(const LayoutMember& m, std::span<const std::uint8_t> data, ValueCheck& c) {
  if (m.type == ValueType::Struct) {
    if (!m.structure || !m.structure->checks_values) return;
    std::size_t at = m.array ? m.count_prefix : 0;
    if (m.structure->plain) {  // elements of one size: no measuring
      const std::size_t size = m.structure->size;
      for (; at + size <= data.size(); at += size) check_plain_struct(*m.structure, data.data() + at, c);
      return;
    }
    while (at < data.size()) {
      const auto size = measure_element(m, data.subspan(at), c.localized);
      if (!size || *size == 0) return;
      check_members(m.structure->members, data.subspan(at, *size), false, c);
      at += *size;
      if (!m.array) return;
    }
    return;
  }
  if (!checks_member(m)) return;
  const std::uint32_t size = m.element_size();
  if (size == 0) return;
  const std::size_t at = m.array ? m.count_prefix : 0;
  if (at > data.size()) return;
  check_elements(m, data.data() + at, (data.size() - at) / size, size, c);  // one finding per member of a field
}

void check_members(std::span<const LayoutMember> members, std::span<const std::uint8_t> data, bool field_end,
                   ValueCheck& c) {
  walk_members(members, data, field_end, c.localized, [&](std::size_t i, std::span<const std::uint8_t> bytes) {
    check_member(members[i], bytes, c);
  });
}

}  // namespace

void check_field_values(const FieldLayout& layout, std::span<const std::uint8_t> data, bool localized,
                        std::size_t field_index, Signature field, std::vector<RecordFinding>& out) {
  if (!layout.checks_values) return;
  ValueCheck c{field, field_index, localized, out};
  if (!layout.simple) {
    // Members of fixed size (a layout that is not simple for its fixed values, optional members
    // or structs of fixed size) sit at fixed offsets: no walk. Data fits the layout, so a member
    // past its end is an optional one left out.
    bool fixed = true;
    for (const LayoutMember& m : layout.members) fixed = fixed && !m.variable() && (!m.open || m.element_size() != 0 || m.type == ValueType::Bytes);
    if (!fixed) {
      check_members(layout.members, data, true, c);
      return;
    }
    std::size_t offset = 0;
    for (const LayoutMember& m : layout.members) {
      const std::size_t element = m.element_size();
      const std::size_t bytes = m.open ? data.size() - std::min(offset, data.size()) : element * m.count;
      if (offset + bytes > data.size()) break;
      check_member(m, data.subspan(offset, bytes), c);
      offset += bytes;
    }
    return;
  }
  // Members at fixed offsets: no walk (the layouts of most fields; data fits the layout).
  if (data.size() < layout.fixed_size) return;
  const std::size_t rest = data.size() - layout.fixed_size;
  std::size_t offset = 0;
  for (const LayoutMember& m : layout.members) {
    const std::size_t element = m.element_size();
    const std::size_t count = m.open ? (element ? rest / element : 1) : m.count;
    const std::size_t bytes = element ? element * count : rest;
    if (element && checks_member(m)) check_elements(m, data.data() + offset, count, element, c);
    offset += bytes;
  }
}

// ---------------------------------------------------------------------------------------------
// Sizes
// ---------------------------------------------------------------------------------------------

namespace {

// The sizes a layout takes when they do not depend on its bytes' content: `size` exactly, or
// `size` plus any number of `step` bytes; optional members add the sizes where the field may end.
struct SizeRule {
  std::size_t size = 0;
  std::size_t step = 0;  // 0: exactly
};

// False when the layout's size depends on the bytes (strings, counted arrays, inner strings).
bool size_rules(const FieldLayout& layout, std::vector<SizeRule>& rules) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < layout.members.size(); ++i) {
    const LayoutMember& m = layout.members[i];
    if (m.optional) rules.push_back({at, 0});  // the field may end before it
    if (m.variable()) return false;
    if (m.open) {
      if (m.is_string()) return false;  // content decides: a zero, or a localized id
      const std::size_t element = m.type == ValueType::Bytes ? 1 : m.element_size();
      if (element == 0) return false;
      rules.push_back({at, element});
      return true;
    }
    const std::size_t element = m.element_size();
    if (element == 0) return false;
    at += element * m.count;
  }
  rules.push_back({at, 0});
  return true;
}

bool fits_rule(const SizeRule& r, std::size_t size) {
  if (size < r.size) return false;
  return r.step == 0 ? size == r.size : (size - r.size) % r.step == 0;
}

std::string rule_text(const SizeRule& r) {
  if (r.step == 0) return std::to_string(r.size);
  if (r.step == 1) return fmt::format("{} or more", r.size);
  return r.size == 0 ? fmt::format("a multiple of {}", r.step) : fmt::format("{} plus a multiple of {}", r.size, r.step);
}

}  // namespace

std::optional<RecordFinding> check_field_size(const LayoutTable& table, Signature record_type, Signature field,
                                              std::span<const std::uint8_t> data, const FieldSite& site,
                                              std::size_t field_index) {
  // An empty field is a marker in several record types (SCEN's empty ANAM ends an action, as
  // REFR's XMRK opens map marker data): never a size fault.
  if (data.empty()) return std::nullopt;
  const auto layouts = table.find(record_type, field);
  if (layouts.empty()) return std::nullopt;
  // The conditions on the record's earlier fields decide; those on the type a FormID names and
  // on the form version are taken to hold (reading_text skips them): any of those layouts may be meant.
  FieldSite lenient;
  lenient.record_type = record_type;
  lenient.form_version = site.form_version;
  lenient.earlier = site.earlier;
  lenient.localized = site.localized;
  lenient.reading_text = true;
  std::vector<SizeRule> rules;
  for (const FieldLayout* layout : layouts) {
    if (!layout->conditions.empty() && !table.applies(*layout, data, lenient)) continue;
    if (!size_rules(*layout, rules)) return std::nullopt;
  }
  if (rules.empty()) return std::nullopt;
  for (const SizeRule& r : rules)
    if (fits_rule(r, data.size())) return std::nullopt;  // the size fits; the content did not
  std::sort(rules.begin(), rules.end(), [](const SizeRule& a, const SizeRule& b) {
    return a.size != b.size ? a.size < b.size : a.step < b.step;
  });
  rules.erase(std::unique(rules.begin(), rules.end(),
                          [](const SizeRule& a, const SizeRule& b) { return a.size == b.size && a.step == b.step; }),
              rules.end());
  std::string sizes;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    if (i) sizes += i + 1 == rules.size() ? " or " : ", ";
    sizes += rule_text(rules[i]);
  }
  return RecordFinding{kBadSize, field_index, field,
                       fmt::format("{} holds {} bytes; its {} {}", field.str(), data.size(),
                                   rules.size() == 1 && rules[0].step == 0 ? "layout takes" : "layouts take", sizes)};
}

}  // namespace tesmod::fields
