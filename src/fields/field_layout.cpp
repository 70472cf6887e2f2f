#include "tesmod/fields/field_layout.hpp"

#include <fmt/format.h>


#include "tesmod/error.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/io/number_text.hpp"

namespace tesmod::fields {
namespace {

// The tables, embedded by CMake from src/fields/layouts/*.layouts.
#include "layouts_data.inc"

struct TypeName {
  std::string_view name;
  ValueType type;
};
constexpr TypeName kTypes[] = {
    {"u8", ValueType::U8},       {"u16", ValueType::U16},       {"u32", ValueType::U32},
    {"u64", ValueType::U64},     {"i8", ValueType::I8},         {"i16", ValueType::I16},
    {"i32", ValueType::I32},     {"i64", ValueType::I64},       {"x8", ValueType::X8},
    {"x16", ValueType::X16},     {"x32", ValueType::X32},       {"f32", ValueType::F32},
    {"formid", ValueType::FormId}, {"zstring", ValueType::ZString}, {"lstring", ValueType::LString},
    {"chars", ValueType::Chars}, {"sig", ValueType::Sig},
};

bool is_integer(ValueType t) { return t <= ValueType::X32; }

bool valid_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

bool valid_label(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

class TableReader {
 public:
  TableReader(std::string_view name, std::uint32_t line) : name_(name), line_(line) {}
  [[noreturn]] void fail(const std::string& detail) const {
    throw Error(fmt::format("{}:{}", name_, line_), Error::kNoOffset, std::nullopt, detail);
  }

 private:
  std::string_view name_;
  std::uint32_t line_;
};

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

}  // namespace

std::optional<std::string_view> ValueNames::label(std::uint64_t value) const {
  for (const auto& [v, l] : entries)
    if (v == value) return std::string_view(l);
  return std::nullopt;
}

std::optional<std::uint64_t> ValueNames::value(std::string_view label) const {
  for (const auto& [v, l] : entries)
    if (ascii::iequals(l, label)) return v;
  return std::nullopt;
}

std::uint32_t LayoutMember::element_size() const {
  switch (type) {
    case ValueType::U8: case ValueType::I8: case ValueType::X8: return 1;
    case ValueType::U16: case ValueType::I16: case ValueType::X16: return 2;
    case ValueType::U32: case ValueType::I32: case ValueType::X32: case ValueType::F32: case ValueType::FormId:
    case ValueType::Sig:
      return 4;
    case ValueType::U64: case ValueType::I64: return 8;
    case ValueType::Bytes: return byte_count;
    case ValueType::ZString: case ValueType::LString: case ValueType::Chars: return 0;
  }
  return 0;
}

bool FieldLayout::fits_size(std::size_t size) const {
  if (size < fixed_size) return false;
  if (members.empty() || !members.back().open) return size == fixed_size;
  const LayoutMember& last = members.back();
  const std::uint32_t element = last.element_size();
  if (element == 0) return true;
  return (size - fixed_size) % element == 0;
}

bool FieldLayout::fits(std::span<const std::uint8_t> data, bool localized) const {
  if (!fits_size(data.size())) return false;
  if (members.empty()) return true;
  const LayoutMember& last = members.back();
  const std::size_t rest = data.size() - fixed_size;
  if (last.type == ValueType::ZString || (last.type == ValueType::LString && !localized))
    return rest > 0 && data.back() == 0;
  if (last.type == ValueType::LString) return rest == 4;
  return true;
}

LayoutTable LayoutTable::parse(std::string_view source, std::string_view name) {
  LayoutTable table;
  ValueNames* open_names = nullptr;
  std::unordered_map<std::string, const ValueNames*> names_by_name;
  struct Pending {  // an enum or flags name, resolved once the whole table is read
    FieldLayout* layout;
    std::size_t member;
    std::string name;
    std::uint32_t line;
  };
  std::vector<Pending> pending;
  std::vector<std::pair<std::uint64_t, const FieldLayout*>> wildcard, exact;
  std::uint32_t line_number = 0;
  std::size_t pos = 0;
  while (pos <= source.size()) {
    std::size_t end = source.find('\n', pos);
    if (end == std::string_view::npos) end = source.size();
    std::string_view line = source.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const TableReader at(name, line_number);
    const auto words = split_words(line);
    if (words.empty()) continue;
    const bool indented = line[0] == ' ' || line[0] == '\t';
    if (indented) {
      if (!open_names) at.fail("an indented line outside an enum or flags block");
      if (words.size() != 2) at.fail("expected a value and a label");
      // Negative enum values are kept sign-extended, as signed members read them.
      std::optional<std::uint64_t> value = parse_uint(words[0]);
      if (!value && words[0].starts_with('-'))
        if (auto v = parse_int(words[0])) value = std::uint64_t(*v);
      if (!value) at.fail(fmt::format("'{}' is not a number", words[0]));
      if (!valid_label(words[1])) at.fail(fmt::format("'{}' is not a label (letters, digits, _)", words[1]));
      if (open_names->value(words[1]) || open_names->label(*value))
        at.fail(fmt::format("'{}' or its value is already in {}", words[1], open_names->name));
      open_names->entries.emplace_back(*value, std::string(words[1]));
      continue;
    }
    open_names = nullptr;
    if (words[0] == "enum" || words[0] == "flags") {
      if (words.size() != 2 || !valid_label(words[1])) at.fail("expected 'enum Name' or 'flags Name'");
      if (names_by_name.count(std::string(words[1]))) at.fail(fmt::format("{} is defined twice", words[1]));
      ValueNames& n = table.names_.emplace_back();
      n.name = std::string(words[1]);
      n.is_flags = words[0] == "flags";
      names_by_name[n.name] = &n;
      open_names = &n;
      continue;
    }
    if (words[0] != "field") at.fail(fmt::format("unknown line '{}' (expected enum, flags or field)", words[0]));
    if (words.size() < 4) at.fail("expected 'field RECORDS FIELD member:type ...'");
    Signature field;
    if (!Signature::parse(words[2], field)) at.fail(fmt::format("'{}' is not a four-character field type", words[2]));
    FieldLayout& layout = table.layouts_.emplace_back();
    layout.table_line = line_number;
    for (std::size_t w = 3; w < words.size(); ++w) {
      const std::string_view spec = words[w];
      const auto colon = spec.find(':');
      if (colon == std::string_view::npos) at.fail(fmt::format("'{}': expected name:type", spec));
      LayoutMember m;
      m.name = std::string(spec.substr(0, colon));
      if (!valid_name(m.name)) at.fail(fmt::format("'{}' is not a member name (a-z, 0-9, -)", m.name));
      for (const LayoutMember& other : layout.members)
        if (other.name == m.name) at.fail(fmt::format("member '{}' appears twice", m.name));
      if (!layout.members.empty() && layout.members.back().open)
        at.fail(fmt::format("'{}' follows a member that takes the rest of the field", m.name));
      std::string_view type = spec.substr(colon + 1);
      if (type.ends_with("[]")) {
        m.array = m.open = true;
        type.remove_suffix(2);
      } else if (type.ends_with("]")) {
        const auto open = type.rfind('[');
        const auto n = open == std::string_view::npos ? std::nullopt : parse_uint(type.substr(open + 1, type.size() - open - 2));
        if (!n || *n == 0 || *n > 65535) at.fail(fmt::format("'{}': expected [N] with N from 1 to 65535", spec));
        m.array = true;
        m.count = std::uint32_t(*n);
        type = type.substr(0, open);
      }
      std::string_view names;
      if (const auto slash = type.find('/'); slash != std::string_view::npos) {
        names = type.substr(slash + 1);
        type = type.substr(0, slash);
      }
      bool known = false;
      for (const TypeName& t : kTypes)
        if (t.name == type) {
          m.type = t.type;
          known = true;
        }
      if (!known && type.starts_with("bytes")) {
        m.type = ValueType::Bytes;
        known = true;
        if (type.size() == 5) {
          m.open = true;
        } else {
          const auto n = parse_uint(type.substr(5));
          if (!n || *n == 0 || *n > 65535) at.fail(fmt::format("'{}': expected bytes or bytesN", type));
          m.byte_count = std::uint32_t(*n);
        }
      }
      if (!known) at.fail(fmt::format("unknown type '{}'", type));
      const bool rest = m.type == ValueType::ZString || m.type == ValueType::LString || m.type == ValueType::Chars;
      if (rest) {
        if (m.array) at.fail(fmt::format("'{}': strings cannot be arrays", spec));
        m.open = true;
      }
      if (m.type == ValueType::Bytes && m.array) at.fail(fmt::format("'{}': bytes cannot be arrays", spec));
      if (!names.empty() && m.type == ValueType::FormId) {
        // The record types the FormID may name: formid/RACE or formid/NPC_|LVLN.
        std::size_t p = 0;
        while (p <= names.size()) {
          std::size_t bar = names.find('|', p);
          if (bar == std::string_view::npos) bar = names.size();
          Signature t;
          if (!Signature::parse(names.substr(p, bar - p), t) || !t.is_record_type_like())
            at.fail(fmt::format("'{}': expected record types after formid/ (RACE or NPC_|LVLN)", spec));
          m.form_types.push_back(t);
          p = bar + 1;
        }
      } else if (!names.empty()) {
        if (!is_integer(m.type) || m.type == ValueType::X8 || m.type == ValueType::X16 || m.type == ValueType::X32)
          at.fail(fmt::format("'{}': only decimal integer types take an enum or flags", spec));
        pending.push_back({&layout, layout.members.size(), std::string(names), line_number});
      }
      if (!m.open) layout.fixed_size += m.element_size() * m.count;
      layout.members.push_back(std::move(m));
    }
    if (layout.members.size() > 1)
      for (const LayoutMember& m : layout.members)
        if (m.type == ValueType::LString) at.fail("an lstring must be the only member of its layout");
    for (std::string_view rec : [&] {
           std::vector<std::string_view> out;
           std::size_t p = 0;
           const std::string_view list = words[1];
           while (p <= list.size()) {
             std::size_t c = list.find(',', p);
             if (c == std::string_view::npos) c = list.size();
             out.push_back(list.substr(p, c - p));
             p = c + 1;
           }
           return out;
         }()) {
      if (rec == "*") {
        wildcard.emplace_back(key(Signature(), field), &layout);
        continue;
      }
      Signature record;
      if (!Signature::parse(rec, record)) at.fail(fmt::format("'{}' is not a record type (or *)", rec));
      exact.emplace_back(key(record, field), &layout);
    }
  }
  // Enum and flag names may be defined after their first use.
  for (const Pending& p : pending) {
    auto it = names_by_name.find(p.name);
    if (it == names_by_name.end()) TableReader(name, p.line).fail(fmt::format("no enum or flags named '{}'", p.name));
    p.layout->members[p.member].names = it->second;
  }
  for (const auto& [k, layout] : exact) table.by_key_[k].push_back(layout);
  for (const auto& [k, layout] : wildcard) table.by_key_[k].push_back(layout);
  // Each record type's own list ends with the wildcard layouts of the same field.
  for (auto& [k, list] : table.by_key_) {
    if (k >> 32 == 0) continue;
    auto it = table.by_key_.find(k & 0xFFFFFFFF);
    if (it != table.by_key_.end()) list.insert(list.end(), it->second.begin(), it->second.end());
  }
  std::size_t capacity = 16;
  while (capacity < table.by_key_.size() * 2) capacity *= 2;
  table.slots_.assign(capacity, Slot{});
  for (const auto& [k, list] : table.by_key_) {
    if (k == 0) continue;  // a field type of four zero bytes on any record: never looked up that way
    std::size_t at = std::size_t((k * 0x9E3779B97F4A7C15ull) >> 40) & (capacity - 1);
    while (table.slots_[at].key) at = (at + 1) & (capacity - 1);
    table.slots_[at] = Slot{k, &list};
  }
  return table;
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
    if (layout->fits(data, localized)) return layout;
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
