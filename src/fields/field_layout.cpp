#include "tesmod/fields/field_layout.hpp"

#include <algorithm>
#include <cstring>

#include "tesmod/io/ascii.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod::fields {
namespace {

// The tables, embedded by CMake from src/fields/layouts/*.layouts.
#include "layouts_data.inc"

}  // namespace

std::optional<std::string_view> ValueNames::label(std::uint64_t value) const {
  for (const auto& [v, l] : entries)
    if (v == value) return std::string_view(l);
  return std::nullopt;
}

std::optional<std::uint64_t> ValueNames::value(std::string_view label) const {
  // The label as written first (export writes them so): its length and first letter rule out
  // most labels without a compare, where every label is compared letter by letter ignoring case.
  if (!label.empty())
    for (const auto& [v, l] : entries)
      if (l.size() == label.size() && l[0] == label[0] && std::memcmp(l.data(), label.data(), l.size()) == 0) return v;
  for (const auto& [v, l] : entries)
    if (ascii::iequals(l, label)) return v;
  return std::nullopt;
}

bool LayoutMember::is_string() const {
  switch (type) {
    case ValueType::ZString: case ValueType::LString: case ValueType::Chars:
    case ValueType::Str8: case ValueType::Str16: case ValueType::Str32:
    case ValueType::ZStr8: case ValueType::ZStr16: case ValueType::ZStr32: case ValueType::ZBuffer:
      return true;
    default: return false;
  }
}

bool LayoutMember::plain_elements() const {
  // A zstringN has a fixed size but must hold its zero: measured, never taken on size alone.
  return element_size() != 0 && !fixed_value && type != ValueType::ZBuffer &&
         (type != ValueType::Struct || structure->plain);
}

bool LayoutMember::variable() const {
  if (count_prefix || count_member >= 0) return true;
  switch (type) {
    case ValueType::Str8: case ValueType::Str16: case ValueType::Str32:
    case ValueType::ZStr8: case ValueType::ZStr16: case ValueType::ZStr32:
      return true;
    case ValueType::ZString: return !open;
    case ValueType::Struct: return structure && structure->size == 0;
    default: return false;
  }
}

namespace {

std::uint64_t load_count(const std::uint8_t* p, std::uint32_t size) {
  return size == 1 ? p[0] : size == 2 ? le::u16(p) : le::u32(p);
}

}  // namespace

namespace {

// walk_members over the first `stop` members (the ones after are not read: a caller after the
// FormIDs of a navmesh need not measure its grid); on is any callable, so that measuring (which
// has nothing to call) pays for no std::function.
template <class On>
std::optional<std::size_t> walk_prefix(std::span<const LayoutMember> members, std::size_t stop,
                                       std::span<const std::uint8_t> data, bool field_end, bool localized, On&& on) {
  MemberIntegers integers(members.size());  // for `[@count]` arrays
  const std::span<std::uint64_t> values = integers.values();
  std::size_t at = 0;
  for (std::size_t i = 0; i < stop; ++i) {
    const LayoutMember& m = members[i];
    if (m.optional && field_end && at == data.size()) break;  // the field ends before its optional members
    const auto size = measure_member(m, data.subspan(at), field_end && i + 1 == members.size(), localized,
                                     values.first(std::min(i, values.size())));
    if (!size) return std::nullopt;
    if (is_integer_scalar(m) && m.element_size() && i < values.size()) values[i] = load_member_integer(m, data.data() + at);
    on(i, data.subspan(at, *size));
    at += *size;
  }
  return at;
}

void nothing(std::size_t, std::span<const std::uint8_t>) {}

}  // namespace

std::optional<std::size_t> measure_element(const LayoutMember& m, std::span<const std::uint8_t> data, bool localized) {
  switch (m.type) {
    case ValueType::Str8: case ValueType::Str16: case ValueType::Str32:
    case ValueType::ZStr8: case ValueType::ZStr16: case ValueType::ZStr32: {
      const std::uint32_t prefix = string_prefix_size(m.type);
      if (data.size() < prefix) return std::nullopt;
      const std::uint64_t length = load_count(data.data(), prefix);
      if (length > data.size() - prefix) return std::nullopt;
      if (is_zero_ended_string(m.type) && (length == 0 || data[prefix + length - 1] != 0)) return std::nullopt;
      return prefix + std::size_t(length);
    }
    case ValueType::ZString: {
      const auto end = std::find(data.begin(), data.end(), std::uint8_t{0});
      if (end == data.end()) return std::nullopt;
      return std::size_t(end - data.begin()) + 1;
    }
    case ValueType::ZBuffer: {  // the string's zero must be inside the buffer
      if (data.size() < m.byte_count) return std::nullopt;
      const auto buffer = data.first(m.byte_count);
      if (std::find(buffer.begin(), buffer.end(), std::uint8_t{0}) == buffer.end()) return std::nullopt;
      return m.byte_count;
    }
    case ValueType::Struct:
      if (m.structure->plain) return data.size() >= m.structure->size ? std::optional<std::size_t>(m.structure->size) : std::nullopt;
      return walk_prefix(m.structure->members, m.structure->members.size(), data, false, localized, nothing);
    default: {
      const std::uint32_t size = m.element_size();
      if (size == 0 || data.size() < size) return std::nullopt;
      if (m.fixed_value && load_member_integer(m, data.data()) != *m.fixed_value) return std::nullopt;
      return size;
    }
  }
}

bool is_integer_scalar(const LayoutMember& m) { return m.type <= ValueType::X64 && !m.array; }

std::uint64_t counted_by(const LayoutMember& m, std::span<const std::uint64_t> siblings) {
  if (m.count_member < 0 || std::size_t(m.count_member) >= siblings.size()) return 0;
  std::uint64_t count = siblings[std::size_t(m.count_member)];
  if (m.count_member2 >= 0 && std::size_t(m.count_member2) < siblings.size()) {
    const std::uint64_t other = siblings[std::size_t(m.count_member2)];
    // A product past any field's size cannot fit; keep it from wrapping.
    count = count > 0xFFFFFFFF || other > 0xFFFFFFFF ? ~std::uint64_t(0) : count * other;
  }
  return count;
}

std::optional<std::size_t> walk_members(std::span<const LayoutMember> members, std::span<const std::uint8_t> data,
                                        bool field_end, bool localized,
                                        const std::function<void(std::size_t, std::span<const std::uint8_t>)>& on) {
  if (!on) return walk_prefix(members, members.size(), data, field_end, localized, nothing);
  return walk_prefix(members, members.size(), data, field_end, localized, on);
}

std::optional<std::size_t> measure_member(const LayoutMember& m, std::span<const std::uint8_t> data, bool last,
                                          bool localized, std::span<const std::uint64_t> siblings) {
  if (m.open && last) {
    switch (m.type) {
      case ValueType::ZString:
        if (data.empty() || data.back() != 0) return std::nullopt;
        return data.size();
      case ValueType::LString:
        if (localized) return data.size() == 4 ? std::optional<std::size_t>(4) : std::nullopt;
        if (data.empty() || data.back() != 0) return std::nullopt;
        return data.size();
      case ValueType::Chars: case ValueType::Bytes: return data.size();
      default: break;
    }
    // A to-the-end array: whole elements up to the end.
    if (m.plain_elements()) return data.size() % m.element_size() ? std::nullopt : std::optional<std::size_t>(data.size());
    std::size_t at = 0;
    while (at < data.size()) {
      const auto size = measure_element(m, data.subspan(at), localized);
      if (!size || *size == 0) return std::nullopt;
      at += *size;
    }
    return at;
  }
  if (m.open) return std::nullopt;  // only the last member may take the rest
  if (!m.array) return measure_element(m, data, localized);
  std::size_t at = 0;
  std::uint64_t count = m.count_member >= 0 ? counted_by(m, siblings) : m.count;
  if (m.count_prefix) {
    if (data.size() < m.count_prefix) return std::nullopt;
    count = load_count(data.data(), m.count_prefix);
    at = m.count_prefix;
  }
  if (m.plain_elements()) {
    if (count > (data.size() - at) / m.element_size()) return std::nullopt;
    return at + std::size_t(count) * m.element_size();
  }
  // Every element takes at least one byte: a count past the bytes left cannot fit.
  if (count > data.size() - at) return std::nullopt;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto size = measure_element(m, data.subspan(at), localized);
    if (!size) return std::nullopt;
    at += *size;
  }
  return at;
}

namespace {

// Whether a member is a FormID or holds one (in a struct, at any depth).
bool holds_form_id(const LayoutMember& m) {
  if (m.type == ValueType::FormId) return true;
  if (m.type != ValueType::Struct || !m.structure) return false;
  return std::any_of(m.structure->members.begin(), m.structure->members.end(), holds_form_id);
}

// The members up to and including the last one holding a FormID (0: none does).
std::size_t form_id_prefix(std::span<const LayoutMember> members) {
  for (std::size_t i = members.size(); i > 0; --i)
    if (holds_form_id(members[i - 1])) return i;
  return 0;
}

void form_ids_in(const LayoutMember& m, std::span<const std::uint8_t> data, std::size_t base, bool localized,
                 const std::function<void(std::size_t, const LayoutMember&)>& visit);

// One element at data (measured to fit).
void form_ids_in_element(const LayoutMember& m, std::span<const std::uint8_t> data, std::size_t base, bool localized,
                         const std::function<void(std::size_t, const LayoutMember&)>& visit) {
  if (m.type == ValueType::FormId) {
    visit(base, m);
  } else if (m.type == ValueType::Struct) {
    const auto& members = m.structure->members;
    walk_prefix(members, form_id_prefix(members), data, false, localized,
                [&](std::size_t i, std::span<const std::uint8_t> bytes) {
                  form_ids_in(members[i], bytes, base + std::size_t(bytes.data() - data.data()), localized, visit);
                });
  }
}

// A member whose bytes are exactly data.
void form_ids_in(const LayoutMember& m, std::span<const std::uint8_t> data, std::size_t base, bool localized,
                 const std::function<void(std::size_t, const LayoutMember&)>& visit) {
  if (!holds_form_id(m)) return;
  if (!m.array) {
    form_ids_in_element(m, data, base, localized, visit);
    return;
  }
  std::size_t at = m.count_prefix;
  while (at < data.size()) {
    const auto size = measure_element(m, data.subspan(at), localized);
    if (!size || *size == 0) return;
    form_ids_in_element(m, data.subspan(at, *size), base + at, localized, visit);
    at += *size;
  }
}

}  // namespace

void for_each_form_id(const FieldLayout& layout, std::span<const std::uint8_t> data, bool localized,
                      const std::function<void(std::size_t offset, const LayoutMember& member)>& visit) {
  walk_prefix(layout.members, form_id_prefix(layout.members), data, true, localized,
              [&](std::size_t i, std::span<const std::uint8_t> bytes) {
                form_ids_in(layout.members[i], bytes, std::size_t(bytes.data() - data.data()), localized, visit);
              });
}

std::string_view editor_id_of(std::span<const FieldRef> fields) {
  for (const FieldRef& f : fields)
    if (f.type == Signature("EDID")) {
      std::string_view s(reinterpret_cast<const char*>(f.data.data()), f.data.size());
      if (const auto zero = s.find('\0'); zero != std::string_view::npos) s = s.substr(0, zero);
      return s;
    }
  return {};
}

bool FieldLayout::fits_size(std::size_t size) const {
  if (size < fixed_size) return false;
  if (!simple) return true;
  if (members.empty() || !members.back().open) return size == fixed_size;
  const LayoutMember& last = members.back();
  const std::uint32_t element = last.element_size();
  if (element == 0) return true;
  return (size - fixed_size) % element == 0;
}

bool FieldLayout::fits(std::span<const std::uint8_t> data, bool localized) const {
  if (!simple) {
    const auto taken = walk_members(members, data, true, localized);
    return taken && *taken == data.size();
  }
  if (!fits_size(data.size())) return false;
  if (members.empty()) return true;
  const LayoutMember& last = members.back();
  const std::size_t rest = data.size() - fixed_size;
  if (last.type == ValueType::ZString || (last.type == ValueType::LString && !localized))
    return rest > 0 && data.back() == 0;
  if (last.type == ValueType::LString) return rest == 4;
  return true;
}

std::span<const FieldLayout* const> LayoutTable::lookup(std::uint64_t k) const {
  if (slots_.empty()) return {};
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = std::size_t((k * 0x9E3779B97F4A7C15ull) >> 40) & mask;; at = (at + 1) & mask) {
    // Empty first: key 0 (a field type of four zero bytes, looked up among the wildcard layouts)
    // is never stored, and must not match an empty slot.
    if (slots_[at].key == 0) return {};
    if (slots_[at].key == k) return *slots_[at].layouts;
  }
}

std::span<const FieldLayout* const> LayoutTable::find(Signature record_type, Signature field) const {
  auto found = lookup(key(record_type, field));
  if (found.empty()) found = lookup(key(Signature(), field));
  return found;
}

const FieldLayout* LayoutTable::choose(Signature record_type, Signature field, std::span<const std::uint8_t> data,
                                       bool localized) const {
  for (const FieldLayout* layout : find(record_type, field))
    if (layout->conditions.empty() && layout->fits(data, localized)) return layout;
  return nullptr;
}

const FieldLayout* LayoutTable::choose(Signature field, std::span<const std::uint8_t> data, const FieldSite& site) const {
  for (const FieldLayout* layout : find(site.record_type, field))
    if (applies(*layout, data, site) && layout->fits(data, site.localized)) return layout;
  return nullptr;
}

bool LayoutTable::has_conditions(Signature record_type) const {
  return std::binary_search(conditional_types_.begin(), conditional_types_.end(), 0u) ||
         std::binary_search(conditional_types_.begin(), conditional_types_.end(), record_type.value());
}

namespace {

// The offset of a top-level member in data read with layout, or nullopt.
std::optional<std::size_t> member_offset(const FieldLayout& layout, std::span<const std::uint8_t> data, std::string_view name,
                                         bool localized, const LayoutMember** found) {
  std::optional<std::size_t> offset;
  walk_members(layout.members, data, true, localized, [&](std::size_t i, std::span<const std::uint8_t> bytes) {
    if (!offset && layout.members[i].name == name) {
      *found = &layout.members[i];
      offset = std::size_t(bytes.data() - data.data());
    }
  });
  return offset;
}

bool refers_to(std::uint32_t form_id, const std::vector<Signature>& types, const FieldSite& site) {
  if (form_id == 0 || !site.record_type_of) return false;
  const auto type = site.record_type_of(form_id);
  return type && std::find(types.begin(), types.end(), *type) != types.end();
}

}  // namespace

std::optional<std::uint64_t> LayoutTable::member_value(Signature record_type, const FieldRef& field,
                                                       std::span<const FieldRef> before, std::string_view member,
                                                       const FieldSite& site) const {
  FieldSite inner = site;
  inner.earlier = before;
  inner.record_type = record_type;
  const FieldLayout* layout = choose(field.type, field.data, inner);
  if (!layout) return std::nullopt;
  const LayoutMember* m = nullptr;
  const auto at = member_offset(*layout, field.data, member, site.localized, &m);
  if (!at || m->array || m->element_size() == 0 || *at + m->element_size() > field.data.size()) return std::nullopt;
  if (m->type > ValueType::X64) return std::nullopt;
  return load_member_integer(*m, field.data.data() + *at);
}

bool LayoutTable::applies(const FieldLayout& layout, std::span<const std::uint8_t> data, const FieldSite& site) const {
  using Kind = LayoutCondition::Kind;
  for (const LayoutCondition& c : layout.conditions) {
    switch (c.kind) {
      case Kind::EditorIdPrefix: {
        const std::string_view id = editor_id_of(site.earlier);
        if (id.size() < c.text.size() || !ascii::iequals(id.substr(0, c.text.size()), c.text)) return false;
        break;
      }
      case Kind::FormVersion:
        // Text readers take either form whatever the version: the keys tell them apart, and
        // text written before a layout asked for the version still reads.
        if (site.reading_text) break;
        if (c.all_bits ? site.form_version >= c.value : site.form_version < c.value) return false;
        break;
      case Kind::Previous:
        if (site.earlier.empty() ||
            std::find(c.types.begin(), c.types.end(), site.earlier.back().type) == c.types.end())
          return false;
        break;
      case Kind::Section: {
        Signature section;
        if (const auto it = sections_.find(site.record_type.value()); it != sections_.end())
          for (std::size_t i = site.earlier.size(); i-- > 0;)
            if (std::find(it->second.begin(), it->second.end(), site.earlier[i].type) != it->second.end()) {
              section = site.earlier[i].type;
              break;
            }
        if (std::find(c.types.begin(), c.types.end(), section) == c.types.end()) return false;
        break;
      }
      case Kind::FieldMember: {
        std::optional<std::uint64_t> value;
        for (std::size_t i = site.earlier.size(); i-- > 0;)
          if (site.earlier[i].type == c.field) {
            value = member_value(site.record_type, site.earlier[i], site.earlier.first(i), c.text, site);
            break;
          }
        if (!value || (c.all_bits ? (*value & c.value) != c.value : *value != c.value)) return false;
        break;
      }
      case Kind::RefersTo: {
        if (site.reading_text) break;
        const LayoutMember* m = nullptr;
        const auto at = member_offset(layout, data, c.text, site.localized, &m);
        if (!at || *at + 4 > data.size() || !refers_to(le::u32(data.data() + *at), c.types, site)) return false;
        break;
      }
    }
  }
  return true;
}

const ValueNames* LayoutTable::header_flags(Signature record_type, const FieldSite* site) const {
  for (const std::uint32_t key : {record_type.value(), 0u}) {
    const auto it = header_flags_.find(key);
    if (it == header_flags_.end()) continue;
    for (const HeaderFlags& h : it->second) {
      bool holds = true;
      for (const LayoutCondition& c : h.conditions) {  // FIELD->TYPE: the field's first FormID
        holds = false;
        if (!site) break;
        for (const FieldRef& f : site->earlier)
          if (f.type == c.field) {
            holds = f.data.size() >= 4 && refers_to(le::u32(f.data.data()), c.types, *site);
            break;
          }
        if (!holds) break;
      }
      if (holds) return h.names;
    }
  }
  return nullptr;
}

std::span<const ValueNames* const> LayoutTable::header_flag_sets(Signature record_type) const {
  if (const auto it = header_flag_sets_.find(record_type.value()); it != header_flag_sets_.end()) return it->second;
  if (const auto it = header_flag_sets_.find(0); it != header_flag_sets_.end()) return it->second;
  return {};
}

const StructLayout* LayoutTable::structure(std::string_view name) const {
  for (const StructLayout& s : structs_)
    if (s.name == name) return &s;
  return nullptr;
}

const ValueNames* LayoutTable::names(std::string_view name) const {
  for (const ValueNames& n : names_)
    if (n.name == name) return &n;
  return nullptr;
}

const LayoutTable& layout_table(Game game) {
  if (game == Game::Oblivion) {
    static const LayoutTable tes4 = LayoutTable::parse(kTes4Layouts, "src/fields/layouts/tes4.layouts");
    return tes4;
  }
  static const LayoutTable tes5 = LayoutTable::parse(kTes5Layouts, "src/fields/layouts/tes5.layouts");
  return tes5;
}

}  // namespace tesmod::fields
