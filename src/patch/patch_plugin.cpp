#include "tesmod/patch/patch_plugin.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "delocalize.hpp"
#include "tesmod/error.hpp"
#include "tesmod/fields/form_references.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/loadorder/resolved_record.hpp"
#include "tesmod/plugin/group_order.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod::patch {
namespace {

// Records add_override and add_record can place: those of a top-level group. A CELL lives in
// block groups, and the records of cells, worlds and topics in their children's groups.
void check_placeable(Game game, Signature type, const std::string& patch, std::uint32_t form_id) {
  if (type != Signature("CELL") && top_group_rank(game, type)) return;
  throw Error(patch, Error::kNoOffset, RecordRef{type, form_id, {}},
              fmt::format("{} records live inside cells, worlds or topics; a patch plugin takes records of "
                          "top-level groups only",
                          type.str()));
}

std::string editor_id_of(const Record& r) { return r.editor_id().value_or(std::string()); }

}  // namespace

PatchPlugin::PatchPlugin(const loadorder::LoadOrder& order, std::string name)
    : order_(order), model_(Plugin::create(order.game(), name)) {
  if (order.find(name))
    throw Error(name, Error::kNoOffset, std::nullopt,
                "the load order has a plugin of this name: a patch is made from the plugins before it (read the "
                "load order without it)");
}

const std::string& PatchPlugin::plugin_name(std::uint32_t position) const {
  return position == own_position() ? name() : order_.plugin(position).name;
}

loadorder::FormKey PatchPlugin::form_of(std::uint32_t held) const {
  const std::uint32_t index = held >> 24;
  const std::uint32_t object = held & 0xFFFFFFu;
  if (index == kOwnIndex) return {own_position(), object};
  if (index < held_.size()) return {held_[index], object};
  throw Error(name(), Error::kNoOffset, std::nullopt,
              fmt::format("FormID {:08X} names the patch's plugin {:02X}, and it has named only {} plugins", held,
                          index, held_.size()));
}

std::uint32_t PatchPlugin::held_form_id(const loadorder::FormKey& form) {
  const std::uint32_t object = form.object_id & 0xFFFFFFu;
  if (form.plugin == own_position()) return kOwnIndex << 24 | object;
  if (form.plugin > own_position())
    throw Error(name(), Error::kNoOffset, std::nullopt, "a FormKey names a plugin that is not in the load order");
  if (auto it = index_of_.find(form.plugin); it != index_of_.end()) return it->second << 24 | object;
  if (held_.size() >= 255)
    throw Error(name(), Error::kNoOffset, std::nullopt,
                fmt::format("naming {} would make it the 256th master; a plugin has at most 255",
                            order_.plugin(form.plugin).name));
  const auto index = std::uint32_t(held_.size());
  held_.push_back(form.plugin);
  index_of_.emplace(form.plugin, index);
  return index << 24 | object;
}

Record& PatchPlugin::add_override(const loadorder::RecordVersion& version, Inflater& inflater) {
  const auto form = order_.key(version.plugin, version.entry.id);
  if (!form)
    order_.bytes(version.plugin).context(version.entry).fail("the record's FormID names a master that is not in the load order");
  check_placeable(game(), version.entry.type, name(), version.entry.id);
  const std::uint32_t held = held_form_id(*form);
  if (held_records_.count(held))
    if (Record* r = model_.find(held)) return *r;
  loadorder::ResolvedRecord resolved = loadorder::RecordResolver(order_).resolve(version, inflater);
  if (resolved.localized) {
    auto& strings = strings_[version.plugin];
    if (!strings) strings = std::make_unique<LocalizedStrings>(LocalizedStrings::load(order_.plugin(version.plugin).path));
    delocalize(resolved, *strings, order_.plugin(version.plugin).name,
               [&](std::string w) { warnings_.push_back(std::move(w)); });
  }
  std::vector<Field> fields = loadorder::write_fields(game(), version.entry.type, resolved.fields,
                                                      [&](const loadorder::FormKey& k) { return held_form_id(k); });
  const std::uint32_t flags = resolved.header.flags & ~record_flags::kCompressed;
  copied_.emplace(held, Copied{version.plugin, fields, flags});
  held_records_.insert(held);
  Record record(version.entry.type, held, std::move(fields), flags);
  record.set_version_control(resolved.header.version_control, resolved.header.version_control_2);
  record.set_form_version(resolved.header.form_version);
  return model_.add(std::move(record));
}

Record& PatchPlugin::add_override(const loadorder::FormKey& form, Inflater& inflater) {
  const auto winner = order_.winner(form);
  if (!winner)
    throw Error(name(), Error::kNoOffset, std::nullopt,
                fmt::format("no active plugin has a record {}:{:06X}", plugin_name(form.plugin), form.object_id));
  return add_override(*winner, inflater);
}

Record& PatchPlugin::add_record(Signature type, std::vector<Field> fields, std::uint32_t flags) {
  check_placeable(game(), type, name(), kOwnIndex << 24 | next_object_id_);
  if (next_object_id_ > 0xFFFFFFu)
    throw Error(name(), Error::kNoOffset, std::nullopt, "the patch has used every object id (FFFFFF)");
  const std::uint32_t held = kOwnIndex << 24 | next_object_id_++;
  ++new_records_;
  held_records_.insert(held);
  Record record(type, held, std::move(fields), flags & ~record_flags::kCompressed);
  if (game() != Game::Oblivion) record.set_form_version(game() == Game::SkyrimSE ? 44 : 43);
  return model_.add(std::move(record));
}

Record* PatchPlugin::find(const loadorder::FormKey& form) {
  if (form.plugin != own_position() && !index_of_.count(form.plugin)) return nullptr;
  const std::uint32_t held = held_form_id(form);
  return held_records_.count(held) ? model_.find(held) : nullptr;
}

bool PatchPlugin::remove(const loadorder::FormKey& form) {
  if (!find(form)) return false;
  const std::uint32_t held = held_form_id(form);
  model_.remove(held);
  held_records_.erase(held);
  if (form.plugin == own_position()) --new_records_;
  else copied_.erase(held);
  return true;
}

std::vector<std::uint8_t> PatchPlugin::bytes(PatchPluginSaved* saved) const {
  PatchPluginSaved out;
  // The records, and the plugins they name (their own FormIDs and every FormID in their fields).
  std::vector<const Record*> records;
  std::vector<bool> used(held_.size(), false);
  const auto note = [&](std::uint32_t held, const Record& r) {
    const std::uint32_t index = held >> 24;
    if (index == kOwnIndex) return;
    if (index >= held_.size())
      throw Error(name(), Error::kNoOffset, RecordRef{r.type(), r.form_id(), editor_id_of(r)},
                  fmt::format("a field holds FormID {:08X}, whose top byte names none of the {} plugins the patch has "
                              "named",
                              held, held_.size()));
    used[index] = true;
  };
  const bool localized = false;  // the patch keeps its strings (copies were given their text)
  fields::FormReferenceOptions options;
  options.localized = localized;
  for (const Node& n : model_.top()) {
    if (!n.is_group()) continue;
    for (const Node& c : n.group().children) {
      if (!c.is_record()) continue;
      const Record& r = c.record();
      records.push_back(&r);
      note(r.form_id(), r);
      std::vector<Field> fields = r.fields();
      fields::visit_form_references(
          game(), r.type(), fields, [&](std::uint32_t& id, const fields::FormReference&) { note(id, r); }, options);
    }
  }
  // Masters in load order; held index -> final index.
  std::vector<std::uint32_t> positions;
  for (std::size_t i = 0; i < held_.size(); ++i)
    if (used[i]) positions.push_back(held_[i]);
  std::sort(positions.begin(), positions.end());
  std::vector<std::uint32_t> final_index(held_.size(), 0);
  for (std::size_t i = 0; i < held_.size(); ++i)
    if (used[i])
      final_index[i] = std::uint32_t(std::lower_bound(positions.begin(), positions.end(), held_[i]) - positions.begin());
  const auto own = std::uint32_t(positions.size());
  const auto stored = [&](std::uint32_t held) {
    const std::uint32_t index = held >> 24;
    return (index == kOwnIndex ? own : final_index[index]) << 24 | (held & 0xFFFFFFu);
  };

  Plugin patch = Plugin::create(game(), name());
  const TextCodec codec("WINDOWS-1252");
  std::vector<MasterFile> masters;
  for (std::uint32_t p : positions) {
    masters.push_back({codec.from_utf8(order_.plugin(p).name), std::uint64_t{0}});
    out.masters.push_back(order_.plugin(p).name);
  }
  const std::uint32_t none[] = {0};
  patch.set_masters(masters, none);
  patch.set_author("tesmod");

  // Records in the game's group order, then by FormID as stored (independent of edit order).
  std::vector<std::pair<std::uint64_t, const Record*>> order;
  for (const Record* r : records)
    order.emplace_back(std::uint64_t(*top_group_rank(game(), r->type())) << 32 | stored(r->form_id()), r);
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::uint32_t max_own = 0;
  bool fits_light = true;
  for (const auto& [key, r] : order) {
    std::vector<Field> fields = r->fields();
    fields::visit_form_references(
        game(), r->type(), fields, [&](std::uint32_t& id, const fields::FormReference&) { id = stored(id); }, options);
    if ((r->form_id() >> 24) == kOwnIndex) {
      ++out.new_records;
      const std::uint32_t object = r->form_id() & 0xFFFFFFu;
      max_own = std::max(max_own, object);
      fits_light = fits_light && object >= 0x800 && object <= 0xFFF;
    } else {
      ++out.overrides;
      const auto it = copied_.find(r->form_id());
      if (it != copied_.end() && it->second.flags == r->flags() && it->second.fields == r->fields())
        out.unchanged.push_back({form_of(r->form_id()), r->type(), editor_id_of(*r), it->second.from});
    }
    Record record(r->type(), stored(r->form_id()), std::move(fields), r->flags() & ~record_flags::kCompressed);
    record.set_version_control(r->header().version_control, r->header().version_control_2);
    record.set_form_version(r->header().form_version);
    patch.add(std::move(record));
  }
  out.records = out.new_records + out.overrides;
  out.next_object_id = std::max<std::uint32_t>(next_object_id_, max_own + 1);
  {
    std::vector<Field>& header = patch.header_record().edit_fields();
    for (Field& f : header)
      if (f.type == Signature("HEDR") && f.data.size() >= 12) le::store(f.data.data() + 8, out.next_object_id);
  }
  out.light = game() == Game::SkyrimSE && fits_light;
  if (out.light) patch.set_header_flags(record_flags::kLight);
  if (saved) *saved = std::move(out);
  return patch.serialize();
}

PatchPluginSaved PatchPlugin::save(const std::filesystem::path& path) const {
  for (const loadorder::LoadOrderPlugin& p : order_.plugins()) {
    std::error_code ec;
    if (std::filesystem::equivalent(p.path, path, ec))
      throw Error(path.string(), Error::kNoOffset, std::nullopt,
                  "this is " + p.name + ", a plugin of the load order: a patch is not written over a plugin it reads");
  }
  PatchPluginSaved saved;
  const std::vector<std::uint8_t> data = bytes(&saved);
  write_file_atomic(path, data);
  return saved;
}

}  // namespace tesmod::patch
