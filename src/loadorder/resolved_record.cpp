#include "tesmod/loadorder/resolved_record.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "tesmod/fields/form_references.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace tesmod::loadorder {

bool ResolvedField::same_as(const ResolvedField& other) const {
  if (field.type != other.field.type || field.data.size() != other.field.data.size() ||
      forms.size() != other.forms.size() || opaque != other.opaque)
    return false;
  for (std::size_t i = 0; i < forms.size(); ++i)
    if (forms[i] != other.forms[i]) return false;
  if (opaque) return field.data == other.field.data;
  // The bytes outside the FormIDs (the slots are the same in both).
  std::size_t from = 0;
  auto equal_span = [&](std::size_t a, std::size_t b) {
    return a >= b || std::memcmp(field.data.data() + a, other.field.data.data() + a, b - a) == 0;
  };
  std::vector<std::uint32_t> starts;
  starts.reserve(forms.size());
  for (const auto& f : forms) starts.push_back(f.first);
  std::sort(starts.begin(), starts.end());
  for (std::uint32_t s : starts) {
    if (!equal_span(from, s)) return false;
    from = std::max<std::size_t>(from, s + 4);
  }
  return equal_span(from, field.data.size());
}

const ResolvedField* ResolvedRecord::find(Signature type) const {
  for (const ResolvedField& f : fields)
    if (f.field.type == type) return &f;
  return nullptr;
}

void RecordResolver::resolve_fields(Signature record_type, std::vector<Field> fields, std::uint32_t source,
                                    const ErrorContext& where, std::vector<ResolvedField>& out) const {
  const std::size_t first = out.size();
  fields::FormReferenceOptions options;
  options.localized = order_.game() != Game::Oblivion && order_.plugin(source).header.is_localized();
  std::vector<std::pair<std::size_t, std::pair<std::uint32_t, FormKey>>> found;  // field index, slot
  std::vector<bool> opaque(fields.size(), false);
  fields::visit_form_references(
      order_.game(), record_type, fields,
      [&](std::uint32_t& form_id, const fields::FormReference& ref) {
        const auto key = order_.key(source, form_id);
        if (!key)
          where.fail(fmt::format("{} ({}) holds FormID {:08X}, whose file index names a master that is not in the "
                                 "load order",
                                 ref.field.str(), ref.what, form_id));
        if (ref.offset == fields::FormReference::kUnknownOffset) opaque[ref.field_index] = true;
        found.push_back({ref.field_index,
                         {ref.offset == fields::FormReference::kUnknownOffset ? 0u : std::uint32_t(ref.offset), *key}});
      },
      options);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    ResolvedField r;
    r.field = std::move(fields[i]);
    r.source = source;
    r.opaque = opaque[i];
    out.push_back(std::move(r));
  }
  for (auto& [index, slot] : found) out[first + index].forms.push_back(slot);
}

ResolvedRecord RecordResolver::resolve(const RecordVersion& version, Inflater& inflater) const {
  const PluginBytes& bytes = order_.bytes(version.plugin);
  ResolvedRecord out;
  out.version = version;
  out.header = bytes.record_header(version.entry);
  const auto key = order_.key(version.plugin, version.entry.id);
  const ErrorContext where = bytes.context(version.entry);
  if (!key) where.fail("the record's FormID names a master that is not in the load order");
  out.form = *key;
  out.localized = order_.game() != Game::Oblivion && order_.plugin(version.plugin).header.is_localized();
  const auto body = bytes.body(version.entry, inflater);
  std::vector<Field> fields;
  for (const SubrecordView& v : read_subrecords(body, where, version.entry.is_compressed() ? Error::kNoOffset
                                                                                            : version.entry.offset + bytes.header_size()))
    fields.push_back(Field::from_view(v));
  resolve_fields(version.entry.type, std::move(fields), version.plugin, where, out.fields);
  return out;
}

ResolvedField RecordResolver::resolve_field(Signature record_type, Field field, std::uint32_t source,
                                            const ErrorContext& where) const {
  std::vector<Field> one;
  one.push_back(std::move(field));
  std::vector<ResolvedField> out;
  resolve_fields(record_type, std::move(one), source, where, out);
  return std::move(out.front());
}

std::vector<Field> write_fields(Game game, Signature record_type, std::span<const ResolvedField> fields,
                                const std::function<std::uint32_t(const FormKey&)>& stored) {
  std::vector<Field> out;
  out.reserve(fields.size());
  for (const ResolvedField& f : fields) {
    Field field = f.field;
    if (!f.opaque) {
      for (const auto& [offset, form] : f.forms) le::store(field.data.data() + offset, stored(form));
    } else if (!f.forms.empty()) {
      // Decoded and encoded again with the forms in the order they were visited in.
      std::vector<Field> one{std::move(field)};
      std::size_t next = 0;
      fields::visit_form_references(game, record_type, one, [&](std::uint32_t& form_id, const fields::FormReference&) {
        if (next < f.forms.size()) form_id = stored(f.forms[next++].second);
      });
      field = std::move(one.front());
    }
    out.push_back(std::move(field));
  }
  return out;
}

void collect_forms(std::span<const ResolvedField> fields, std::vector<FormKey>& out) {
  for (const ResolvedField& f : fields)
    for (const auto& slot : f.forms) out.push_back(slot.second);
}

}  // namespace tesmod::loadorder
