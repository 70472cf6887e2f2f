// Reads a layout table (src/fields/layouts/<game>.layouts): enum and flags blocks, structs,
// field layouts with their conditions, sections and header flag sets. Every mistake is an error
// naming `table:line` and what was expected.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "tesmod/error.hpp"
#include "tesmod/fields/field_layout.hpp"
#include "tesmod/io/number_text.hpp"

namespace tesmod::fields {
namespace {

struct TypeName {
  std::string_view name;
  ValueType type;
};
constexpr TypeName kTypes[] = {
    {"u8", ValueType::U8},         {"u16", ValueType::U16},         {"u32", ValueType::U32},
    {"u64", ValueType::U64},       {"i8", ValueType::I8},           {"i16", ValueType::I16},
    {"i32", ValueType::I32},       {"i64", ValueType::I64},         {"x8", ValueType::X8},
    {"x16", ValueType::X16},       {"x32", ValueType::X32},  {"x64", ValueType::X64},         {"f32", ValueType::F32},
    {"formid", ValueType::FormId}, {"zstring", ValueType::ZString}, {"lstring", ValueType::LString},
    {"chars", ValueType::Chars},   {"sig", ValueType::Sig},         {"str8", ValueType::Str8},
    {"str16", ValueType::Str16},   {"str32", ValueType::Str32},     {"zstr8", ValueType::ZStr8},
    {"zstr16", ValueType::ZStr16}, {"zstr32", ValueType::ZStr32},
};

bool is_integer(ValueType t) { return t <= ValueType::X64; }
bool is_hex(ValueType t) { return t == ValueType::X8 || t == ValueType::X16 || t == ValueType::X32 || t == ValueType::X64; }

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

bool valid_set_name(std::string_view s) { return valid_label(s) && s[0] >= 'A' && s[0] <= 'Z'; }

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  std::size_t p = 0;
  while (p <= text.size()) {
    std::size_t c = text.find(separator, p);
    if (c == std::string_view::npos) c = text.size();
    out.push_back(text.substr(p, c - p));
    p = c + 1;
  }
  return out;
}

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

// A field type or record type as the table writes it: four characters, or 0x and eight hex
// digits for one that is not printable (Skyrim IMAD's `\0IAD` is 0x44414900).
bool parse_signature_word(std::string_view word, Signature& out) {
  if (word.size() == 10 && word.starts_with("0x")) {
    const auto v = parse_uint(word);
    if (!v || *v > 0xFFFFFFFF) return false;
    out = Signature::from_value(std::uint32_t(*v));
    return true;
  }
  return Signature::parse(word, out);
}

}  // namespace

class LayoutTableParser {
 public:
  LayoutTableParser(LayoutTable& table, std::string_view name) : table_(table), name_(name) {}

  void run(std::string_view source) {
    std::size_t pos = 0;
    while (pos <= source.size()) {
      std::size_t end = source.find('\n', pos);
      if (end == std::string_view::npos) end = source.size();
      std::string_view line = source.substr(pos, end - pos);
      pos = end + 1;
      ++line_;
      // A comment starts with '#' at the start of the line or after a blank ('[#u32]' is no comment).
      for (std::size_t i = 0; i < line.size(); ++i)
        if (line[i] == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
          line = line.substr(0, i);
          break;
        }
      const auto words = split_words(line);
      if (words.empty()) continue;
      if (line[0] == ' ' || line[0] == '\t') {
        entry(words);
        continue;
      }
      open_names_ = nullptr;
      if (words[0] == "enum" || words[0] == "flags") names_block(words);
      else if (words[0] == "struct" || words[0] == "tuple") structure(words);
      else if (words[0] == "field") field(words);
      else if (words[0] == "sections") sections(words);
      else if (words[0] == "header") header(words);
      else if (words[0] == "record") record(words);
      else fail(fmt::format("unknown line '{}' (expected enum, flags, struct, tuple, field, sections, header or record)", words[0]));
    }
    finish();
  }

 private:
  [[noreturn]] void fail(const std::string& detail) const { fail_at(line_, detail); }
  [[noreturn]] void fail_at(std::uint32_t line, const std::string& detail) const {
    throw Error(fmt::format("{}:{}", name_, line), Error::kNoOffset, std::nullopt, detail);
  }

  void entry(const std::vector<std::string_view>& words) {
    if (!open_names_) fail("an indented line outside an enum or flags block");
    if (words.size() != 2) fail("expected a value and a label");
    // Negative enum values are kept sign-extended, as signed members read them.
    std::optional<std::uint64_t> value = parse_uint(words[0]);
    if (!value && words[0].starts_with('-'))
      if (auto v = parse_int(words[0])) value = std::uint64_t(*v);
    if (!value) fail(fmt::format("'{}' is not a number", words[0]));
    if (!valid_label(words[1])) fail(fmt::format("'{}' is not a label (letters, digits, _)", words[1]));
    if (open_names_->value(words[1]) || open_names_->label(*value))
      fail(fmt::format("'{}' or its value is already in {}", words[1], open_names_->name));
    open_names_->entries.emplace_back(*value, std::string(words[1]));
  }

  void claim_name(std::string_view name) {
    if (!valid_set_name(name)) fail(fmt::format("'{}' is not a name for an enum, flags or struct (A-Z first, then letters, digits, _)", name));
    if (!set_names_.emplace(std::string(name), line_).second) fail(fmt::format("{} is defined twice", name));
  }

  void names_block(const std::vector<std::string_view>& words) {
    if (words.size() != 2 && !(words.size() == 3 && words[2] == "complete"))
      fail("expected 'enum Name [complete]' or 'flags Name [complete]'");
    claim_name(words[1]);
    ValueNames& n = table_.names_.emplace_back();
    n.name = std::string(words[1]);
    n.is_flags = words[0] == "flags";
    n.complete = words.size() == 3;
    names_by_name_[n.name] = &n;
    open_names_ = &n;
  }

  void structure(const std::vector<std::string_view>& words) {
    if (words.size() < 3) fail(fmt::format("expected '{} Name member:type ...'", words[0]));
    claim_name(words[1]);
    StructLayout& s = table_.structs_.emplace_back();
    s.name = std::string(words[1]);
    bool variable = false;
    for (std::size_t w = 2; w < words.size(); ++w) {
      LayoutMember m = member(words[w], s.members, false);
      if (m.open) fail(fmt::format("'{}': a struct member cannot take the rest of the field", words[w]));
      variable = variable || m.variable();
      if (!variable) s.size += m.element_size() * m.count;
      s.members.push_back(std::move(m));
    }
    resolve_counts(s.members);
    for (const LayoutMember& m : s.members) variable = variable || m.variable();
    if (variable) s.size = 0;
    s.plain = s.size > 0 && std::all_of(s.members.begin(), s.members.end(), [](const LayoutMember& m) {
      return !m.fixed_value && m.type != ValueType::ZBuffer && (m.type != ValueType::Struct || m.structure->plain);
    });
    s.positional = words[0] == "tuple";
    checkable_structs_.push_back(&s);
    if (s.positional && (!s.plain || std::any_of(s.members.begin(), s.members.end(), [](const LayoutMember& m) {
                           return m.array || m.type == ValueType::Struct;
                         })))
      fail(fmt::format("tuple {}: its members are single values of fixed size, without fixed values", s.name));
    structs_by_name_[s.name] = &s;
  }

  void field(const std::vector<std::string_view>& words) {
    if (words.size() < 4) fail("expected 'field RECORDS FIELD [if CONDITION]... member:type ...'");
    Signature field;
    if (!parse_signature_word(words[2], field))
      fail(fmt::format("'{}' is not a field type (four characters, or 0x and eight hex digits)", words[2]));
    const std::vector<Signature> records = record_types(words[1]);
    FieldLayout& layout = table_.layouts_.emplace_back();
    layout.table_line = line_;
    std::size_t w = 3;
    for (; w + 1 < words.size() && words[w] == "if"; w += 2) {
      std::string value;
      layout.conditions.push_back(condition(words[w + 1], false, &value));
      if (layout.conditions.back().kind == LayoutCondition::Kind::FieldMember)
        for (Signature record : records) pending_conditions_.push_back({&layout, layout.conditions.size() - 1, record, value, line_});
    }
    if (w == words.size()) fail("expected members after the conditions");
    for (; w < words.size(); ++w) {
      if (!layout.members.empty() && layout.members.back().open && layout.members.back().type != ValueType::ZString)
        fail(fmt::format("'{}' follows a member that takes the rest of the field", words[w]));
      LayoutMember m = member(words[w], layout.members, true);
      layout.members.push_back(std::move(m));
    }
    resolve_counts(layout.members);
    for (std::size_t i = 1; i < layout.members.size(); ++i)
      if (layout.members[i - 1].optional && !layout.members[i].optional)
        fail(fmt::format("'{}' follows an optional member: mark it optional too (the field ends before one of them)",
                         layout.members[i].name));
    if (!layout.members.empty() && layout.members[0].optional) fail("the first member cannot be optional");
    // A zstring takes the rest of the field when it is the last member, else ends at its zero.
    for (std::size_t i = 0; i + 1 < layout.members.size(); ++i)
      if (layout.members[i].type == ValueType::ZString) layout.members[i].open = false;
    for (const LayoutMember& m : layout.members) {
      if (m.variable() || m.fixed_value || m.optional || m.type == ValueType::Struct || m.type == ValueType::ZBuffer)
        layout.simple = false;
      if (!m.open) layout.fixed_size += m.element_size() * m.count;
    }
    if (!layout.simple) layout.fixed_size = 0;
    layout.raw = std::all_of(layout.members.begin(), layout.members.end(),
                             [](const LayoutMember& m) { return m.type == ValueType::Bytes; });
    if (layout.members.size() > 1)
      for (const LayoutMember& m : layout.members)
        if (m.type == ValueType::LString) fail("an lstring must be the only member of its layout");
    for (const LayoutCondition& c : layout.conditions)
      if (c.kind == LayoutCondition::Kind::RefersTo) {
        const LayoutMember* target = nullptr;
        for (const LayoutMember& m : layout.members)
          if (m.name == c.text) target = &m;
        if (!target || target->type != ValueType::FormId || target->array)
          fail(fmt::format("'{}->': the condition names a formid member of this layout", c.text));
      }
    for (Signature record : records) {
      if (record == Signature()) wildcard_.emplace_back(LayoutTable::key(Signature(), field), &layout);
      else exact_.emplace_back(LayoutTable::key(record, field), &layout);
      if (!layout.conditions.empty()) table_.conditional_types_.push_back(record.value());
      for (const LayoutCondition& c : layout.conditions)
        if (c.kind == LayoutCondition::Kind::Section) section_uses_.push_back({record, line_});
    }
  }

  // `[@count]` and `[@rows*columns]` of the members just read: earlier integer members of the list.
  void resolve_counts(std::vector<LayoutMember>& members) {
    for (const PendingCount& p : pending_counts_) {
      if (p.members != &members) continue;
      LayoutMember& m = members[p.index];
      const auto find = [&](const std::string& name) -> std::int16_t {
        for (std::size_t i = 0; i < p.index; ++i)
          if (members[i].name == name) {
            if (!is_integer_scalar(members[i]))
              fail(fmt::format("'{}[@{}]': {} is not a single integer", m.name, name, name));
            return std::int16_t(i);
          }
        fail(fmt::format("'{}[@{}]': no member {} before it", m.name, name, name));
      };
      m.count_member = find(p.first);
      if (!p.second.empty()) m.count_member2 = find(p.second);
    }
    std::erase_if(pending_counts_, [&](const PendingCount& p) { return p.members == &members; });
  }

  void sections(const std::vector<std::string_view>& words) {
    if (words.size() < 3) fail("expected 'sections RECORDS FIELD FIELD ...'");
    std::vector<Signature> fields;
    for (std::size_t w = 2; w < words.size(); ++w) {
      Signature f;
      if (!parse_signature_word(words[w], f)) fail(fmt::format("'{}' is not a field type", words[w]));
      fields.push_back(f);
    }
    for (Signature record : record_types(words[1])) {
      if (record == Signature()) fail("sections are given per record type, not for '*'");
      if (!table_.sections_.emplace(record.value(), fields).second) fail(fmt::format("sections of {} are given twice", record.str()));
    }
  }

  void header(const std::vector<std::string_view>& words) {
    if (words.size() < 3) fail("expected 'header RECORDS [if FIELD->TYPE]... FlagsName'");
    LayoutTable::HeaderFlags h;
    std::size_t w = 2;
    for (; w + 1 < words.size() && words[w] == "if"; w += 2) h.conditions.push_back(condition(words[w + 1], true));
    if (w + 1 != words.size()) fail("expected one flags name after the conditions");
    pending_headers_.push_back({record_types(words[1]), std::move(h), std::string(words[w]), line_});
  }

  // `record RECORDS ordered|unordered FIELD...`: the fields of those record types (record_structure.cpp).
  void record(const std::vector<std::string_view>& words) {
    const std::string error = table_.record_structures_.add(std::span(words).subspan(1), line_);
    if (!error.empty()) fail(error);
  }

  std::vector<Signature> record_types(std::string_view list) {
    std::vector<Signature> out;
    for (std::string_view rec : split(list, ',')) {
      if (rec == "*") {
        out.push_back(Signature());
        continue;
      }
      Signature record;
      if (!Signature::parse(rec, record)) fail(fmt::format("'{}' is not a record type (or *)", rec));
      out.push_back(record);
    }
    return out;
  }

  std::vector<Signature> signature_list(std::string_view list, std::string_view what, bool allow_none) {
    std::vector<Signature> out;
    for (std::string_view part : split(list, '|')) {
      Signature s;
      if (allow_none && part == "-") s = Signature();
      else if (!parse_signature_word(part, s)) fail(fmt::format("'{}' is not {}", part, what));
      out.push_back(s);
    }
    return out;
  }

  // One `if` condition; for header lines only FIELD->TYPE.
  LayoutCondition condition(std::string_view text, bool header, std::string* value_text = nullptr) {
    using Kind = LayoutCondition::Kind;
    LayoutCondition c;
    if (const auto arrow = text.find("->"); arrow != std::string_view::npos) {
      c.kind = Kind::RefersTo;
      const std::string_view who = text.substr(0, arrow);
      if (header) {
        if (!parse_signature_word(who, c.field)) fail(fmt::format("'{}': expected FIELD->TYPE on a header line", text));
      } else if (!valid_name(who)) {
        fail(fmt::format("'{}': expected member->TYPE", text));
      }
      c.text = std::string(who);
      c.types = signature_list(text.substr(arrow + 2), "a record type", false);
      for (Signature t : c.types)
        if (!t.is_record_type_like()) fail(fmt::format("'{}' is not a record type", t.str()));
      return c;
    }
    if (header) fail(fmt::format("'{}': header lines take only FIELD->TYPE conditions", text));
    if (text.starts_with("version<") || text.starts_with("version>=")) {
      c.kind = Kind::FormVersion;
      c.all_bits = text[7] == '<';
      const auto n = parse_uint(text.substr(c.all_bits ? 8 : 9));
      if (!n || *n > 0xFFFF) fail(fmt::format("'{}': expected version<N or version>=N, N a form version", text));
      c.value = *n;
      return c;
    }
    if (text.starts_with("edid^=")) {
      c.kind = Kind::EditorIdPrefix;
      c.text = std::string(text.substr(6));
      if (c.text.empty()) fail("edid^= needs the letters the EditorID starts with");
      return c;
    }
    if (text.starts_with("prev=")) {
      c.kind = Kind::Previous;
      c.types = signature_list(text.substr(5), "a field type", false);
      return c;
    }
    if (text.starts_with("in=")) {
      c.kind = Kind::Section;
      c.types = signature_list(text.substr(3), "a field type (or - for none)", true);
      return c;
    }
    if (text.size() > 5 && text[4] == '.') {
      c.kind = Kind::FieldMember;
      if (!parse_signature_word(text.substr(0, 4), c.field)) fail(fmt::format("'{}': expected FIELD.member=VALUE", text));
      const auto op = text.find_first_of("=&", 5);
      if (op == std::string_view::npos) fail(fmt::format("'{}': expected FIELD.member=VALUE or FIELD.member&VALUE", text));
      c.text = std::string(text.substr(5, op - 5));
      if (!valid_name(c.text)) fail(fmt::format("'{}' is not a member name", c.text));
      c.all_bits = text[op] == '&';
      if (value_text) *value_text = std::string(text.substr(op + 1));  // numbers now, labels at the end
      if (const auto v = parse_uint(text.substr(op + 1))) c.value = *v;
      else if (const auto v = parse_int(text.substr(op + 1))) c.value = std::uint64_t(*v);
      return c;
    }
    fail(fmt::format("unknown condition '{}' (edid^=, prev=, in=, FIELD.member=VALUE, member->TYPE)", text));
  }

  // One member: name:type[/Names|/TYPES][array][=VALUE].
  // `owner` is the member list it is appended to (stable: lists live in deques), for names and
  // labels resolved once the whole table is read.
  LayoutMember member(std::string_view spec, std::vector<LayoutMember>& owner, bool in_field) {
    const std::vector<LayoutMember>& before = owner;
    const auto colon = spec.find(':');
    if (colon == std::string_view::npos) fail(fmt::format("'{}': expected name:type", spec));
    LayoutMember m;
    m.name = std::string(spec.substr(0, colon));
    if (!valid_name(m.name)) fail(fmt::format("'{}' is not a member name (a-z, 0-9, -)", m.name));
    for (const LayoutMember& other : before)
      if (other.name == m.name) fail(fmt::format("member '{}' appears twice", m.name));
    std::string_view type = spec.substr(colon + 1);
    if (type.ends_with('?')) {  // the field may end before this member
      if (!in_field) fail(fmt::format("'{}': only a field's members can be optional", spec));
      m.optional = true;
      type.remove_suffix(1);
    }
    std::string_view fixed;
    if (const auto eq = type.find('='); eq != std::string_view::npos) {
      fixed = type.substr(eq + 1);
      type = type.substr(0, eq);
      if (fixed.empty()) fail(fmt::format("'{}': expected a value after =", spec));
    }
    if (type.ends_with("]")) {
      const auto open = type.rfind('[');
      if (open == std::string_view::npos) fail(fmt::format("'{}': expected [N], [] or [#u8|#u16|#u32]", spec));
      const std::string_view inside = type.substr(open + 1, type.size() - open - 2);
      m.array = true;
      if (inside.empty()) {
        m.open = true;
      } else if (inside.starts_with('@')) {
        // Counted by earlier members of the same sequence: resolved once the line is read.
        const std::string_view names = inside.substr(1);
        const auto star = names.find('*');
        pending_counts_.push_back({&owner, owner.size(), std::string(names.substr(0, star)),
                                   star == std::string_view::npos ? std::string() : std::string(names.substr(star + 1))});
      } else if (inside == "#u8" || inside == "#u16" || inside == "#u32") {
        m.count_prefix = inside == "#u8" ? 1 : inside == "#u16" ? 2 : 4;
      } else {
        const auto n = parse_uint(inside);
        if (!n || *n == 0 || *n > 65535)
          fail(fmt::format("'{}': expected [N] with N from 1 to 65535, [], [#u32] or [@count]", spec));
        m.count = std::uint32_t(*n);
      }
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
        if (!n || *n == 0 || *n > 65535) fail(fmt::format("'{}': expected bytes or bytesN", type));
        m.byte_count = std::uint32_t(*n);
      }
    }
    if (!known && type.starts_with("zstring") && type.size() > 7) {  // zstringN: a string in N bytes
      const auto n = parse_uint(type.substr(7));
      if (!n || *n < 2 || *n > 65535) fail(fmt::format("'{}': expected zstringN with N from 2 to 65535", type));
      m.type = ValueType::ZBuffer;
      m.byte_count = std::uint32_t(*n);
      known = true;
    }
    if (!known && !type.empty() && type[0] >= 'A' && type[0] <= 'Z') {
      const auto it = structs_by_name_.find(std::string(type));
      if (it == structs_by_name_.end()) fail(fmt::format("no struct named '{}' is defined above this line", type));
      m.type = ValueType::Struct;
      m.structure = it->second;
      known = true;
    }
    if (!known) fail(fmt::format("unknown type '{}'", type));
    const bool rest = m.type == ValueType::ZString || m.type == ValueType::LString || m.type == ValueType::Chars;
    if (rest) {
      if (m.array) fail(fmt::format("'{}': zstring, lstring and chars cannot be arrays (str16[#u32] can)", spec));
      m.open = in_field;  // a zstring inside a struct ends at its zero; the field fixes the others
      if (!in_field && m.type != ValueType::ZString) fail(fmt::format("'{}': lstring and chars take the rest of the field", spec));
    }
    if (m.type == ValueType::Bytes && m.array) fail(fmt::format("'{}': bytes cannot be arrays", spec));
    if (m.open && !in_field) fail(fmt::format("'{}': a struct member cannot take the rest of the field", spec));
    if (!names.empty() && m.type == ValueType::FormId) {
      // The record types the FormID may name: formid/RACE or formid/NPC_|LVLN.
      for (std::string_view part : split(names, '|')) {
        Signature t;
        if (!Signature::parse(part, t) || !t.is_record_type_like())
          fail(fmt::format("'{}': expected record types after formid/ (RACE or NPC_|LVLN)", spec));
        m.form_types.push_back(t);
      }
    } else if (!names.empty()) {
      if (!is_integer(m.type) || is_hex(m.type)) fail(fmt::format("'{}': only decimal integer types take an enum or flags", spec));
      pending_names_.push_back({&owner, owner.size(), std::string(names), {}, line_});
    }
    if (!fixed.empty()) {
      if ((!is_integer(m.type) && m.type != ValueType::FormId) || m.array)
        fail(fmt::format("'{}': only a single integer or formid member takes a fixed value", spec));
      if (const auto v = parse_uint(fixed)) m.fixed_value = *v;
      else if (const auto v = parse_int(fixed)) m.fixed_value = std::uint64_t(*v);
      else if (names.empty() || m.type == ValueType::FormId)
        fail(fmt::format("'{}': the fixed value is a number, or a label of the member's enum", spec));
      else {
        m.fixed_value = 0;  // a label, read once the enum is known (set now: the layout is not simple)
        pending_names_.back().fixed = std::string(fixed);
      }
    }
    return m;
  }

  void finish() {
    resolve_names();  // enum and flag names may be defined after their first use
    for (const auto& [k, layout] : exact_) table_.by_key_[k].push_back(layout);
    for (const auto& [k, layout] : wildcard_) table_.by_key_[k].push_back(layout);
    // Each record type's own list ends with the wildcard layouts of the same field.
    for (auto& [k, list] : table_.by_key_) {
      if (k >> 32 == 0) continue;
      auto it = table_.by_key_.find(k & 0xFFFFFFFF);
      if (it != table_.by_key_.end()) list.insert(list.end(), it->second.begin(), it->second.end());
    }
    std::size_t capacity = 16;
    while (capacity < table_.by_key_.size() * 2) capacity *= 2;
    table_.slots_.assign(capacity, LayoutTable::Slot{});
    for (const auto& [k, list] : table_.by_key_) {
      if (k == 0) continue;  // a field type of four zero bytes on any record: never looked up that way
      std::size_t at = std::size_t((k * 0x9E3779B97F4A7C15ull) >> 40) & (capacity - 1);
      while (table_.slots_[at].key) at = (at + 1) & (capacity - 1);
      table_.slots_[at] = LayoutTable::Slot{k, &list};
    }
    for (const auto& [record, line] : section_uses_)
      if (record == Signature() || !table_.sections_.count(record.value()))
        fail_at(line, fmt::format("in= needs a 'sections {} ...' line", record == Signature() ? "*" : record.str()));
    resolve_member_values();
    for (PendingHeader& h : pending_headers_) {
      const auto it = names_by_name_.find(h.names);
      if (it == names_by_name_.end() || !it->second->is_flags) fail_at(h.line, fmt::format("no flags named '{}'", h.names));
      h.flags.names = it->second;
      for (Signature record : h.records) {
        table_.header_flags_[record.value()].push_back(h.flags);
        auto& sets = table_.header_flag_sets_[record.value()];
        if (std::find(sets.begin(), sets.end(), it->second) == sets.end()) sets.push_back(it->second);
      }
    }
    check_header_labels();
    for (StructLayout* s : checkable_structs_) s->checks_values = checks_values(s->members);
    for (FieldLayout& layout : table_.layouts_) layout.checks_values = checks_values(layout.members);
    table_.record_structures_.finish();
    std::sort(table_.conditional_types_.begin(), table_.conditional_types_.end());
    table_.conditional_types_.erase(std::unique(table_.conditional_types_.begin(), table_.conditional_types_.end()),
                                    table_.conditional_types_.end());
  }

  // Whether check_field_values has something to look at in these members: floats (NaN), and
  // integers named by a complete enum or flags set.
  static bool checks_values(const std::vector<LayoutMember>& members) {
    for (const LayoutMember& m : members) {
      if (m.type == ValueType::F32 || (m.names && m.names->complete)) return true;
      if (m.type == ValueType::Struct && m.structure && checks_values(m.structure->members)) return true;
    }
    return false;
  }

  void resolve_names() {
    for (const PendingName& p : pending_names_) {
      LayoutMember& m = (*p.members)[p.index];
      const auto it = names_by_name_.find(p.names);
      if (it == names_by_name_.end()) fail_at(p.line, fmt::format("no enum or flags named '{}'", p.names));
      m.names = it->second;
      if (p.fixed.empty()) continue;
      const auto v = m.names->value(p.fixed);
      if (!v) fail_at(p.line, fmt::format("'{}' is not a number or a label of {}", p.fixed, p.names));
      m.fixed_value = *v;
    }
  }

  // FIELD.member conditions: the member must be an integer of some layout of FIELD in the
  // record type; a label value is read with that member's names.
  void resolve_member_values() {
    for (const PendingCondition& p : pending_conditions_) {
      LayoutCondition& c = p.layout->conditions[p.index];
      const LayoutMember* target = nullptr;
      for (const FieldLayout* other : table_.find(p.record, c.field))
        for (const LayoutMember& m : other->members)
          if (m.name == c.text && !target) target = &m;
      if (!target || !is_integer(target->type) || target->array)
        fail_at(p.line, fmt::format("{}.{}: no layout of {} in {} records has an integer member '{}'", c.field.str(), c.text,
                                    c.field.str(), p.record == Signature() ? "*" : p.record.str(), c.text));
      if (parse_uint(p.value) || parse_int(p.value)) continue;
      if (!target->names) fail_at(p.line, fmt::format("'{}' is not a number", p.value));
      std::uint64_t value = 0;
      for (std::string_view label : split(p.value, '|')) {
        const auto v = target->names->value(label);
        if (!v) fail_at(p.line, fmt::format("'{}' is not a label of {}", label, target->names->name));
        value |= *v;
      }
      c.value = value;
    }
  }

  // A label means one bit in every set that may name a record type's header flags: reading text
  // meets the flags before the fields that choose the set.
  void check_header_labels() const {
    for (const auto& [record, sets] : table_.header_flag_sets_) {
      std::vector<const ValueNames*> all = sets;
      if (record != 0)
        if (auto it = table_.header_flag_sets_.find(0); it != table_.header_flag_sets_.end())
          all.insert(all.end(), it->second.begin(), it->second.end());
      for (const ValueNames* a : all)
        for (const ValueNames* b : all)
          for (const auto& [bit, label] : a->entries)
            if (const auto other = b->value(label); other && *other != bit)
              fail_at(set_names_.at(b->name), fmt::format("'{}' names 0x{:X} in {} but 0x{:X} in {}, both used for {} records",
                                                          label, bit, a->name, *other, b->name,
                                                          record ? Signature::from_value(record).str() : "*"));
    }
  }

  struct PendingName {
    std::vector<LayoutMember>* members;
    std::size_t index;
    std::string names;
    std::string fixed;  // a fixed value given by label
    std::uint32_t line;
  };
  struct PendingCount {
    std::vector<LayoutMember>* members;
    std::size_t index;
    std::string first, second;
  };
  struct PendingCondition {
    FieldLayout* layout;
    std::size_t index;
    Signature record;
    std::string value;
    std::uint32_t line;
  };
  struct PendingHeader {
    std::vector<Signature> records;
    LayoutTable::HeaderFlags flags;
    std::string names;
    std::uint32_t line;
  };

  LayoutTable& table_;
  std::string_view name_;
  std::uint32_t line_ = 0;
  ValueNames* open_names_ = nullptr;
  std::unordered_map<std::string, std::uint32_t> set_names_;  // enum, flags and struct names: defining line
  std::unordered_map<std::string, ValueNames*> names_by_name_;
  std::unordered_map<std::string, const StructLayout*> structs_by_name_;
  std::vector<PendingName> pending_names_;
  std::vector<PendingCondition> pending_conditions_;
  std::vector<PendingCount> pending_counts_;
  std::vector<PendingHeader> pending_headers_;
  std::vector<std::pair<Signature, std::uint32_t>> section_uses_;
  std::vector<StructLayout*> checkable_structs_;  // every struct, for checks_values once names are resolved
  std::vector<std::pair<std::uint64_t, const FieldLayout*>> wildcard_, exact_;
};

LayoutTable LayoutTable::parse(std::string_view source, std::string_view name) {
  LayoutTable table;
  LayoutTableParser(table, name).run(source);
  return table;
}

}  // namespace tesmod::fields
