// Reads the `record` lines of a layout table into record structures (record_structure.hpp):
//   record LVLI,LVSP ordered EDID! OBND LVLD! LVLF! LVLG LLCT (LVLO COED)*
// A field is optional and stands once; `!` required, `*` any number in a row, `+` at least one;
// `A|B` either field in that place; `( ... )` fields that stand together, opened by the first,
// with the same marks after `)` for the group.
#include "tesmod/fields/record_structure.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tesmod/io/number_text.hpp"

namespace tesmod::fields {
namespace {

// A field type as the tables write it: four characters, or 0x and eight hex digits.
std::size_t read_signature(std::string_view text, Signature& out) {
  if (text.size() >= 10 && text.starts_with("0x")) {
    const auto v = parse_uint(text.substr(0, 10));
    if (v && *v <= 0xFFFFFFFF) {
      out = Signature::from_value(std::uint32_t(*v));
      return 10;
    }
  }
  if (text.size() >= 4 && Signature::parse(text.substr(0, 4), out)) return 4;
  return 0;
}

// Groups open at once, the record itself counted (the checks keep a small stack of them).
constexpr std::size_t kMaxGroupDepth = 5;

struct Marks {
  bool required = false;
  bool repeats = false;
};

// `!`, `*`, `+` or nothing at text[at].
Marks read_marks(std::string_view text, std::size_t& at) {
  Marks m;
  if (at < text.size()) {
    const char c = text[at];
    if (c == '!' || c == '+') m.required = true;
    if (c == '*' || c == '+') m.repeats = true;
    if (c == '!' || c == '*' || c == '+') ++at;
  }
  return m;
}

}  // namespace

std::string RecordStructures::add(std::span<const std::string_view> words, std::uint32_t table_line) {
  if (words.size() < 3) return "expected 'record RECORDS ordered|unordered FIELD...'";
  RecordStructure s;
  s.table_line = table_line;
  if (words[1] == "ordered") s.ordered = true;
  else if (words[1] != "unordered") return fmt::format("'{}': expected ordered or unordered after the record types", words[1]);
  s.groups.push_back({});  // the record itself
  std::vector<std::uint16_t> open{0};  // the groups open at this point, innermost last
  bool opens_group = false;            // the next element is the first of a group just opened
  for (std::size_t w = 2; w < words.size(); ++w) {
    std::string_view word = words[w];
    std::size_t at = 0;
    while (at < word.size() && word[at] == '(') {
      if (opens_group) return fmt::format("'{}': a group opens with a field, not with another group", word);
      if (open.size() >= kMaxGroupDepth) return fmt::format("'{}': groups nest at most {} deep", word, kMaxGroupDepth - 1);
      StructureGroup g;
      g.first = std::uint16_t(s.elements.size());
      g.parent = open.back();
      open.push_back(std::uint16_t(s.groups.size()));
      s.groups.push_back(g);
      opens_group = true;
      ++at;
    }
    const std::uint16_t slot = std::uint16_t(s.elements.size());
    const std::size_t first = s.elements.size();
    for (;;) {
      Signature field;
      const std::size_t taken = read_signature(word.substr(at), field);
      if (!taken) return fmt::format("'{}': expected a field type (four characters, or 0x and eight hex digits)", word);
      at += taken;
      if (s.elements.size() >= kMaxStructureElements)
        return fmt::format("more than {} fields in one record structure", kMaxStructureElements);
      StructureElement e;
      e.field = field;
      e.slot = slot;
      e.group = open.back();
      s.elements.push_back(e);
      if (at < word.size() && word[at] == '|') {
        ++at;
        continue;
      }
      break;
    }
    const Marks marks = read_marks(word, at);
    if (opens_group && (marks.required || marks.repeats))
      return fmt::format("'{}': the first field of a group opens each instance of it; mark the group after ')'", word);
    opens_group = false;
    for (std::size_t i = first; i < s.elements.size(); ++i) {
      s.elements[i].required = marks.required;
      s.elements[i].repeats = marks.repeats;
    }
    while (at < word.size() && word[at] == ')') {
      if (open.size() == 1) return fmt::format("'{}': ')' closes no group", word);
      ++at;
      const Marks group_marks = read_marks(word, at);
      StructureGroup& g = s.groups[open.back()];
      g.end = std::uint16_t(s.elements.size());
      g.required = group_marks.required;
      g.repeats = group_marks.repeats;
      open.pop_back();
    }
    if (at != word.size()) return fmt::format("'{}': unexpected '{}'", word, word.substr(at));
  }
  if (open.size() != 1) return "a group is not closed: expected ')'";
  s.groups[0].end = std::uint16_t(s.elements.size());
  s.required_slots.resize(s.groups.size());
  for (const StructureElement& e : s.elements) {
    auto& list = s.required_slots[e.group];
    if (e.required && std::find(list.begin(), list.end(), e.slot) == list.end()) list.push_back(e.slot);
  }
  for (std::size_t g = 1; g < s.groups.size(); ++g)
    if (s.groups[g].required) s.required_slots[s.groups[g].parent].push_back(s.elements[s.groups[g].first].slot);

  for (std::string_view record : [&] {
         std::vector<std::string_view> out;
         std::size_t p = 0;
         while (p <= words[0].size()) {
           std::size_t c = words[0].find(',', p);
           if (c == std::string_view::npos) c = words[0].size();
           out.push_back(words[0].substr(p, c - p));
           p = c + 1;
         }
         return out;
       }()) {
    Signature type;
    if (!Signature::parse(record, type) || !type.is_record_type_like())
      return fmt::format("'{}' is not a record type (record lines name each type, no '*')", record);
    for (const RecordStructure& other : structures_)
      if (other.record_type == type)
        return fmt::format("{} has a record structure already (line {})", type.str(), other.table_line);
    RecordStructure& added = structures_.emplace_back(s);
    added.record_type = type;
  }
  return {};
}

void RecordStructures::finish() {
  for (RecordStructure& s : structures_) {
    std::size_t distinct = 0;
    for (std::size_t i = 0; i < s.elements.size(); ++i) {
      s.elements[i].next_same = StructureElement::kNone;
      bool seen = false;
      for (std::size_t j = 0; j < i; ++j) seen = seen || s.elements[j].field == s.elements[i].field;
      if (!seen) ++distinct;
    }
    std::size_t capacity = 4;
    while (capacity < distinct * 2) capacity *= 2;
    s.lookup.assign(capacity, RecordStructure::Slot{});
    const std::size_t mask = capacity - 1;
    for (std::size_t i = s.elements.size(); i-- > 0;) {  // backwards: each chain in written order
      std::size_t at = RecordStructure::hash(s.elements[i].field) & mask;
      while (s.lookup[at].element != StructureElement::kNone && s.lookup[at].field != s.elements[i].field)
        at = (at + 1) & mask;
      s.elements[i].next_same = s.lookup[at].element;
      s.lookup[at] = {s.elements[i].field, std::uint16_t(i)};
    }
  }
  std::size_t capacity = 16;
  while (capacity < structures_.size() * 2) capacity *= 2;
  slots_.assign(capacity, nullptr);
  for (const RecordStructure& s : structures_) {
    std::size_t at = RecordStructure::hash(s.record_type) & (capacity - 1);
    while (slots_[at]) at = (at + 1) & (capacity - 1);
    slots_[at] = &s;
  }
}

}  // namespace tesmod::fields
