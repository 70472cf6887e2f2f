#include "tesmod/loadorder/record_equality.hpp"

#include <algorithm>

#include "tesmod/fields/form_references.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace tesmod::loadorder {

std::span<const std::uint8_t> LoadedRecord::fields() const {
  if (!read_) {
    if (entry_.is_compressed()) {
      const auto body = bytes_->body(entry_, *inflater_);
      inflated_.assign(body.begin(), body.end());
      fields_ = inflated_;
    } else {
      fields_ = stored;
    }
    read_ = true;
  }
  return fields_;
}

std::string LoadedRecord::editor_id() const {
  auto id = find_editor_id(fields());
  return id ? *id : std::string();
}

RecordComparer::RecordComparer(const LoadOrder& order) : order_(order) {
  const auto plugins = order.plugins();
  file_maps_.resize(plugins.size());
  for (std::uint32_t p = 0; p < plugins.size(); ++p) {
    auto& map = file_maps_[p];
    for (const auto& m : plugins[p].master_positions) map.push_back(m ? std::int64_t(*m) : -1);
    map.push_back(std::int64_t(p));  // the plugin itself
  }
}

bool RecordComparer::same_form_ids(std::uint32_t a, std::uint32_t b) const {
  if (a == b) return true;
  const auto& ma = file_maps_[a];
  const auto& mb = file_maps_[b];
  // Each map ends with the plugin itself. An index that names a master in either plugin and is
  // valid in both must name the same plugin in both; the plugins' own index in both (each names
  // itself), or an index past either's list (no real FormID has one), cannot name two forms.
  for (std::size_t i = 0; i < std::min(ma.size(), mb.size()); ++i) {
    const bool master_index = i + 1 < ma.size() || i + 1 < mb.size();
    if (master_index && ma[i] != mb[i]) return false;
  }
  return true;
}

LoadedRecord RecordComparer::load(const RecordVersion& version, Inflater& inflater) const {
  const PluginBytes& bytes = order_.bytes(version.plugin);
  LoadedRecord out;
  out.plugin = version.plugin;
  out.type = version.entry.type;
  out.flags = version.entry.flags;
  out.form_id = version.entry.id;
  out.stored = bytes.stored_body(version.entry);
  out.bytes_ = &bytes;
  out.entry_ = version.entry;
  out.inflater_ = &inflater;
  return out;
}

RecordComparer::Resolved RecordComparer::resolve(const LoadedRecord& r) const {
  Resolved out;
  const ErrorContext where{order_.plugin(r.plugin).name, Error::kNoOffset, RecordRef{r.type, r.form_id, {}}};
  for (const SubrecordView& v : read_subrecords(r.fields(), where)) out.fields.push_back(Field::from_view(v));
  fields::FormReferenceOptions options;
  options.localized = order_.plugin(r.plugin).header.is_localized() && order_.game() != Game::Oblivion;
  fields::visit_form_references(
      order_.game(), r.type, out.fields,
      [&](std::uint32_t& form_id, const fields::FormReference&) {
        // Past the plugin's own index: not a FormID the plugin can mean; kept as its bytes.
        const auto key = (form_id >> 24) < file_maps_[r.plugin].size() ? order_.key(r.plugin, form_id) : std::nullopt;
        out.forms.push_back(key ? key->packed() : (std::uint64_t(1) << 63 | form_id));
        form_id = 0;
      },
      options);
  for (Field& f : out.fields) f.oversize = false, f.stored_size = 0;
  return out;
}

namespace {

constexpr std::uint8_t kOversize[] = {'X', 'X', 'X', 'X'};

// Whether the two field lists pair up one to one with the same types and `same` true for each
// pair's data.
template <class SameData>
bool fields_pair_up(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b, SameData same) {
  const ErrorContext none;
  SubrecordCursor ca(a, none), cb(b, none);
  SubrecordView va, vb;
  while (true) {
    const bool more_a = ca.next(va);
    const bool more_b = cb.next(vb);
    if (more_a != more_b) return false;
    if (!more_a) return true;
    if (va.type != vb.type || !same(va.data, vb.data)) return false;
  }
}

// The same types and sizes in the same order: what two records that differ only in FormIDs share.
bool same_field_shapes(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  return fields_pair_up(a, b, [](auto x, auto y) { return x.size() == y.size(); });
}

bool same_field_list(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  return fields_pair_up(a, b, [](auto x, auto y) { return std::ranges::equal(x, y); });
}

}  // namespace

bool RecordComparer::names_differ(const LoadedRecord& a, std::uint32_t plugin_b) const {
  std::vector<Field> fields;
  const ErrorContext where{order_.plugin(a.plugin).name, Error::kNoOffset, RecordRef{a.type, a.form_id, {}}};
  for (const SubrecordView& v : read_subrecords(a.fields(), where)) fields.push_back(Field::from_view(v));
  const auto& ma = file_maps_[a.plugin];
  const auto& mb = file_maps_[plugin_b];
  bool differ = false;
  fields::FormReferenceOptions options;
  options.localized = order_.plugin(a.plugin).header.is_localized() && order_.game() != Game::Oblivion;
  fields::visit_form_references(
      order_.game(), a.type, fields,
      [&](std::uint32_t& form_id, const fields::FormReference&) {
        // An index valid in both plugins that names a master in at least one can name two forms;
        // the plugins' own index in both, or an index past either's list (which real FormIDs never
        // use), is compared as the bytes are.
        const std::size_t i = form_id >> 24;
        const bool master_index = i + 1 < ma.size() || i + 1 < mb.size();
        if (master_index && i < ma.size() && i < mb.size() && ma[i] != mb[i]) differ = true;
      },
      options);
  return differ;
}

bool RecordComparer::equal(const LoadedRecord& a, const LoadedRecord& b) const {
  if (a.type != b.type) return false;
  if ((a.flags & ~record_flags::kCompressed) != (b.flags & ~record_flags::kCompressed)) return false;
  try {
    // Stored alike (both compressed or both not, the same bytes): the same fields, uninflated.
    const bool same_stored = a.entry_.is_compressed() == b.entry_.is_compressed() && std::ranges::equal(a.stored, b.stored);
    // Field lists can be equal with different bytes only through XXXX size prefixes.
    const auto has_prefix = [](std::span<const std::uint8_t> d) {
      return std::search(d.begin(), d.end(), kOversize, kOversize + 4) != d.end();
    };
    const bool same_fields = same_stored || std::ranges::equal(a.fields(), b.fields()) ||
                             ((has_prefix(a.fields()) || has_prefix(b.fields())) && same_field_list(a.fields(), b.fields()));
    if (same_form_ids(a.plugin, b.plugin)) return same_fields;
    // The same bytes name the same forms unless a FormID's file index means another plugin in b.
    if (same_fields) return !names_differ(a, b.plugin);
    if (!same_field_shapes(a.fields(), b.fields())) return false;  // more than FormIDs differ
    const Resolved ra = resolve(a);
    const Resolved rb = resolve(b);
    return ra.forms == rb.forms && ra.fields == rb.fields;
  } catch (const Error&) {
    return std::ranges::equal(a.stored, b.stored);  // fields that do not read: only byte-identical ones are equal
  }
}

}  // namespace tesmod::loadorder
