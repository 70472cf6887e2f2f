#include "field_import_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "tesmod/io/ascii.hpp"

namespace tesmod::patch {
namespace {

using loadorder::FormKey;
using loadorder::ResolvedField;

bool is_one_of(Signature s, const std::vector<Signature>& set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

// The forms a field names inside [offset, offset + size), by their offset from there.
std::vector<std::pair<std::uint32_t, FormKey>> forms_in(const ResolvedField& f, std::uint32_t offset,
                                                        std::uint32_t size) {
  std::vector<std::pair<std::uint32_t, FormKey>> out;
  for (const auto& [at, form] : f.forms)
    if (at >= offset && at < offset + size) out.push_back({at - offset, form});
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return out;
}

bool same_member(const ResolvedField& a, const AttributeValue::Slot& sa, const ResolvedField& b,
                 const AttributeValue::Slot& sb) {
  if (sa.size != sb.size) return false;
  const std::uint8_t* pa = a.field.data.data() + sa.offset;
  const std::uint8_t* pb = b.field.data.data() + sb.offset;
  if (a.opaque || b.opaque) return std::memcmp(pa, pb, sa.size) == 0;
  const auto fa = forms_in(a, sa.offset, sa.size);
  if (fa != forms_in(b, sb.offset, sb.size)) return false;
  // The bytes around the FormIDs (which may be stored differently).
  std::uint32_t from = 0;
  for (const auto& [at, form] : fa) {
    if (at > from && std::memcmp(pa + from, pb + from, at - from) != 0) return false;
    from = std::max(from, at + 4);
  }
  return from >= sa.size || std::memcmp(pa + from, pb + from, sa.size - from) == 0;
}

std::vector<std::string_view> zstrings(const std::vector<std::uint8_t>& data) {
  std::vector<std::string_view> out;
  const std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
  std::size_t from = 0;
  while (from < text.size()) {
    const std::size_t end = std::min(text.find('\0', from), text.size());
    out.push_back(text.substr(from, end - from));
    from = end + 1;
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The same FormIDs, or strings, in any order.
bool same_unordered(const ResolvedField& a, const ResolvedField& b) {
  if (a.field.type != b.field.type || a.field.data.size() != b.field.data.size()) return false;
  if (a.forms.empty() && b.forms.empty())
    return a.field.data == b.field.data || zstrings(a.field.data) == zstrings(b.field.data);
  std::vector<FormKey> fa, fb;
  for (const auto& f : a.forms) fa.push_back(f.second);
  for (const auto& f : b.forms) fb.push_back(f.second);
  std::sort(fa.begin(), fa.end());
  std::sort(fb.begin(), fb.end());
  return fa == fb;
}

// The text of the first field of the first part (a path), if the record has one.
std::optional<std::string> first_text(std::span<const ResolvedField> fields, const AttributeValue& v) {
  for (const auto& [i, part] : v.fields)
    if (part == 0) return fields[i].field.as_zstring();
  return std::nullopt;
}

// Where fields that followed `preceding` in their source record go in `fields`: after the nearest
// preceding field the record has too (the Creation Kit's order kept). A repeated type is matched
// by occurrence (a potion's own FULL, not its effect's), then to the end of its run (a list of
// entries); none: after the EditorID, or first.
std::size_t placement(std::span<const Signature> preceding, const std::vector<ResolvedField>& fields) {
  for (std::size_t j = preceding.size(); j-- > 0;) {
    const Signature s = preceding[j];
    const std::size_t k = std::size_t(std::count(preceding.begin(), preceding.begin() + std::ptrdiff_t(j), s));
    std::optional<std::size_t> at;
    std::size_t seen = 0;
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (fields[i].field.type == s) {
        at = i;
        if (seen++ == k) break;
      }
    if (!at) continue;
    while (*at + 1 < fields.size() && fields[*at + 1].field.type == s) ++*at;
    return *at + 1;
  }
  return !fields.empty() && fields.front().field.type == Signature("EDID") ? 1 : 0;
}

}  // namespace

AttributeReader::AttributeReader(Game game, Signature record_type, std::uint16_t form_version,
                                 std::span<const ResolvedField> fields)
    : game_(game), type_(record_type), form_version_(form_version), fields_(fields) {
  refs_.reserve(fields.size());
  for (const ResolvedField& f : fields) refs_.push_back({f.field.type, f.field.data});
}

bool AttributeReader::in_region(const ImportPart& part, std::size_t i) const {
  if (part.region == ImportRegion::Record) return true;
  if (part.region == ImportRegion::Before) {
    for (std::size_t k = 0; k < i; ++k)
      if (is_one_of(fields_[k].field.type, part.bounds)) return false;
    return true;
  }
  for (std::size_t k = fields_.size(); k-- > 0;)
    if (is_one_of(fields_[k].field.type, part.bounds)) return i > k;
  return false;  // no bound: there is no "after"
}

std::optional<std::size_t> AttributeReader::field_of(const ImportPart& part) const {
  for (Signature s : part.fields)
    for (std::size_t i = 0; i < fields_.size(); ++i)
      if (fields_[i].field.type == s && in_region(part, i)) return i;
  return std::nullopt;
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> AttributeReader::member(std::size_t i,
                                                                               std::string_view name) const {
  auto it = walked_.find(i);
  if (it == walked_.end()) {
    Walked w;
    const std::vector<std::uint8_t>& data = fields_[i].field.data;
    fields::FieldSite site;
    site.record_type = type_;
    site.form_version = form_version_;
    site.earlier = std::span<const fields::FieldRef>(refs_).first(i);
    // Lstrings were read as text (ImportState::read): not localized.
    w.layout = fields::layout_table(game_).choose(fields_[i].field.type, data, site);
    if (w.layout) {
      w.members.assign(w.layout->members.size(), {0u, ~0u});
      const auto read = fields::walk_members(
          w.layout->members, data, true, false, [&](std::size_t index, std::span<const std::uint8_t> bytes) {
            w.members[index] = {std::uint32_t(bytes.data() - data.data()), std::uint32_t(bytes.size())};
          });
      if (read != data.size()) w.layout = nullptr;  // chosen layouts fit, but a walk that fails says no
    }
    it = walked_.emplace(i, std::move(w)).first;
  }
  const Walked& w = it->second;
  if (!w.layout) return std::nullopt;
  for (std::size_t m = 0; m < w.layout->members.size(); ++m)
    if (w.layout->members[m].name == name) {
      if (w.members[m].second == ~0u) return std::nullopt;  // an optional member the field ends before
      return w.members[m];
    }
  return std::nullopt;
}

AttributeValue AttributeReader::read(const ImportAttribute& attribute) const {
  AttributeValue v;
  if (!attribute.members()) {
    for (std::size_t i = 0; i < fields_.size(); ++i)
      for (std::size_t p = 0; p < attribute.parts.size(); ++p)
        if (is_one_of(fields_[i].field.type, attribute.parts[p].fields) && in_region(attribute.parts[p], i)) {
          v.fields.push_back({i, p});
          break;
        }
    return v;
  }
  for (const ImportPart& part : attribute.parts) {
    const auto i = field_of(part);
    const auto m = i ? member(*i, part.member) : std::nullopt;
    if (!m) {
      v.found = false;
      v.slots.clear();
      return v;
    }
    v.slots.push_back({*i, m->first, m->second});
  }
  return v;
}

bool same_value(const ImportAttribute& attribute, std::span<const ResolvedField> a, const AttributeValue& va,
                std::span<const ResolvedField> b, const AttributeValue& vb, bool loose) {
  if (attribute.members()) {
    if (!va.found || !vb.found) return va.found == vb.found;
    for (std::size_t k = 0; k < va.slots.size(); ++k)
      if (!same_member(a[va.slots[k].field], va.slots[k], b[vb.slots[k].field], vb.slots[k])) return false;
    return true;
  }
  if (loose) {
    const auto ta = first_text(a, va);
    const auto tb = first_text(b, vb);
    return ta.has_value() == tb.has_value() && (!ta || ascii::iequals(*ta, *tb));
  }
  auto compared = [&](const AttributeValue& v) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (const auto& fp : v.fields)
      if (attribute.parts[fp.second].compared) out.push_back(fp);
    return out;
  };
  const auto ca = compared(va);
  const auto cb = compared(vb);
  if (ca.size() != cb.size()) return false;
  for (std::size_t k = 0; k < ca.size(); ++k) {
    if (ca[k].second != cb[k].second) return false;
    const ResolvedField& fa = a[ca[k].first];
    const ResolvedField& fb = b[cb[k].first];
    if (attribute.parts[ca[k].second].unordered ? !same_unordered(fa, fb) : !fa.same_as(fb)) return false;
  }
  return true;
}

TakenValue take_value(std::uint32_t plugin, const AttributeReader& source, const AttributeValue& value) {
  TakenValue out;
  out.plugin = plugin;
  out.value = value;
  const auto fields = source.fields();
  for (const auto& f : fields) out.order.push_back(f.field.type);
  // Copies of the fields it is in, the indices made to point at them.
  auto copy = [&](std::size_t i) {
    const auto it = std::find(out.at.begin(), out.at.end(), i);
    if (it != out.at.end()) return std::size_t(it - out.at.begin());
    out.at.push_back(i);
    out.fields.push_back(fields[i]);
    return out.fields.size() - 1;
  };
  for (auto& fp : out.value.fields) fp.first = copy(fp.first);
  for (auto& s : out.value.slots) s.field = copy(s.field);
  return out;
}

std::vector<std::string> set_value(const ImportAttribute& attribute, const TakenValue& taken, Game game,
                                   Signature record_type, std::uint16_t form_version,
                                   std::vector<ResolvedField>& fields) {
  std::vector<std::string> done;
  auto preceding = [&](std::size_t k) { return std::span<const Signature>(taken.order).first(taken.at[k]); };
  if (!attribute.members()) {
    const AttributeValue now = AttributeReader(game, record_type, form_version, fields).read(attribute);
    std::size_t at =
        now.fields.empty()
            ? (taken.value.fields.empty() ? 0 : placement(preceding(taken.value.fields.front().first), fields))
            : now.fields.front().first;
    for (auto it = now.fields.rbegin(); it != now.fields.rend(); ++it)
      fields.erase(fields.begin() + std::ptrdiff_t(it->first));
    for (const auto& [k, part] : taken.value.fields)
      fields.insert(fields.begin() + std::ptrdiff_t(at++), taken.fields[k]);
    return done;
  }
  for (std::size_t p = 0; p < attribute.parts.size(); ++p) {
    const ImportPart& part = attribute.parts[p];
    const AttributeValue::Slot& slot = taken.value.slots[p];
    const ResolvedField& source = taken.fields[slot.field];
    const AttributeReader reader(game, record_type, form_version, fields);
    const auto i = reader.field_of(part);
    if (!i) {
      fields.insert(fields.begin() + std::ptrdiff_t(placement(preceding(slot.field), fields)), source);
      done.push_back(
          fmt::format("{} taken whole for {}: the record has none", source.field.type.str(), attribute.name));
      continue;
    }
    const auto m = reader.member(*i, part.member);
    ResolvedField& target = fields[*i];
    if (!m || m->second != slot.size || target.opaque || source.opaque) {
      done.push_back(fmt::format("{} taken whole for {}: the record's {} does not hold {} as the source's does",
                                 source.field.type.str(), attribute.name, target.field.type.str(), part.member));
      target = source;
      continue;
    }
    std::copy_n(source.field.data.begin() + slot.offset, slot.size, target.field.data.begin() + m->first);
    std::erase_if(target.forms, [&](const auto& f) { return f.first >= m->first && f.first < m->first + m->second; });
    for (const auto& [at, form] : forms_in(source, slot.offset, slot.size))
      target.forms.push_back({m->first + at, form});
    std::stable_sort(target.forms.begin(), target.forms.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
  }
  return done;
}

}  // namespace tesmod::patch
