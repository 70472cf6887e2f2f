#include "tesmod/save/save_names.hpp"

#include <fmt/format.h>

#include "tesmod/io/ascii.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/strings_file.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "tesmod/text/form_namer.hpp"

namespace tesmod::save {
namespace {

// The FULL field of a record body, when it has one that reads.
std::optional<std::string> find_full_name(std::span<const std::uint8_t> body, const ErrorContext& where) {
  try {
    SubrecordCursor cursor(body, where);
    SubrecordView v;
    while (cursor.next(v))
      if (v.type == Signature("FULL")) {
        std::string s(v.data.begin(), v.data.end());
        if (!s.empty() && s.back() == '\0') s.pop_back();
        return s;
      }
  } catch (const Error&) {
    // A record whose fields do not read has no name to show.
  }
  return std::nullopt;
}

}  // namespace

struct SaveFormNamer::Loaded {
  PluginFile file;
};

SaveFormNamer::SaveFormNamer(const SaveFile& save, std::filesystem::path data_dir)
    : save_(save), data_dir_(std::move(data_dir)) {
  loaded_.resize(save.plugins.size());
  tried_.resize(save.plugins.size());
}

SaveFormNamer::~SaveFormNamer() = default;

const SaveFormNamer::Loaded* SaveFormNamer::plugin(std::size_t index) const {
  if (data_dir_.empty() || index >= loaded_.size()) return nullptr;
  if (!tried_[index]) {
    tried_[index] = true;
    const std::string& name = save_.plugins[index];
    if (auto path = find_file_nocase(data_dir_, name)) {
      try {
        loaded_[index] = std::make_unique<Loaded>(Loaded{PluginFile::open(*path)});
      } catch (const Error& e) {
        unreadable_[name] = e.what();
      }
    }
  }
  return loaded_[index].get();
}

std::vector<std::string> SaveFormNamer::plugins_not_found() const {
  std::vector<std::string> out;
  for (const std::string& name : save_.plugins)
    if (data_dir_.empty() || !find_file_nocase(data_dir_, name)) out.push_back(name);
  return out;
}

FormInfo SaveFormNamer::describe(std::uint32_t form_id) const {
  FormInfo info;
  info.form_id = form_id;
  if (is_created_form_id(form_id)) {
    info.created = true;
    info.status = FormInfo::Status::Missing;
    for (const CreatedRecord& c : save_.global.created) {
      if (c.header.form_id != form_id) continue;
      info.status = FormInfo::Status::Found;
      info.record_type = c.header.type;
      if (!(c.header.flags & record_flags::kCompressed)) {  // compressed fields are not inflated for a name
        info.editor_id = find_editor_id(c.data);
        info.full_name = find_full_name(c.data, ErrorContext{save_.name(), c.offset, RecordRef{c.header.type, form_id, {}}});
      }
      break;
    }
    return info;
  }
  const std::size_t index = form_id >> 24;
  info.plugin = save_.plugin_of(form_id);
  const Loaded* p = plugin(index);
  if (!p) return info;
  const PluginFile& file = p->file;
  const std::uint32_t local = std::uint32_t(file.header().masters.size()) << 24 | (form_id & 0xFFFFFF);
  const auto at = file.find_form_id(local);
  if (!at) {
    info.status = FormInfo::Status::Missing;
    return info;
  }
  const IndexEntry& e = file.entry(*at);
  info.status = FormInfo::Status::Found;
  info.record_type = e.type;
  try {
    info.editor_id = file.editor_id(e);
    Inflater inflater;
    info.full_name = find_full_name(file.body(e, inflater), file.context(e));
  } catch (const Error&) {
    // The plugin's own reader reports a broken record; here it only lacks a name.
  }
  return info;
}

std::string SaveFormNamer::name(std::uint32_t form_id) const {
  const FormInfo info = describe(form_id);
  if (info.editor_id && !info.editor_id->empty()) return *info.editor_id;
  if (info.plugin) return fmt::format("{}:{:06X}", *info.plugin, form_id & 0xFFFFFF);
  return fmt::format("{:08X}", form_id);
}

std::optional<std::uint32_t> SaveFormNamer::to_save_form_id(const PluginFile& file, std::size_t index,
                                                            std::uint32_t local) const {
  const std::size_t top = local >> 24;
  const auto& masters = file.header().masters;
  if (top >= masters.size()) return std::uint32_t(index) << 24 | (local & 0xFFFFFF);
  for (std::size_t i = 0; i < save_.plugins.size(); ++i)
    if (ascii::iequals(save_.plugins[i], masters[top].name)) return std::uint32_t(i) << 24 | (local & 0xFFFFFF);
  return std::nullopt;
}

void SaveFormNamer::index_editor_ids() const {
  if (by_editor_id_) return;
  by_editor_id_.emplace();
  // Later plugins win, as they do in the game.
  for (std::size_t i = 0; i < save_.plugins.size(); ++i) {
    const Loaded* p = plugin(i);
    if (!p) continue;
    for (const IndexEntry& e : p->file.entries().subspan(1)) {
      if (e.is_group()) continue;
      try {
        if (auto id = p->file.editor_id(e))
          if (auto form = to_save_form_id(p->file, i, e.id)) (*by_editor_id_)[ascii::to_lower(*id)] = *form;
      } catch (const Error&) {
      }
    }
  }
  for (const CreatedRecord& c : save_.global.created)
    if (!(c.header.flags & record_flags::kCompressed))
      if (auto id = find_editor_id(c.data)) by_editor_id_->try_emplace(ascii::to_lower(*id), c.header.form_id);
}

std::optional<std::uint32_t> SaveFormNamer::resolve(std::string_view text) const {
  if (const auto colon = text.rfind(':'); colon != std::string_view::npos) {
    const std::string_view file = text.substr(0, colon);
    const std::string_view object = text.substr(colon + 1);
    const auto id = text::HexFormNamer().resolve(object);
    if (!id || *id > 0xFFFFFF || object.starts_with("0x") || object.starts_with("0X") || object.starts_with('@'))
      return std::nullopt;
    for (std::size_t i = 0; i < save_.plugins.size(); ++i)
      if (ascii::iequals(save_.plugins[i], file)) return std::uint32_t(i) << 24 | *id;
    return std::nullopt;
  }
  if (has_data_dir() && !text.empty()) {
    index_editor_ids();
    if (auto it = by_editor_id_->find(ascii::to_lower(text)); it != by_editor_id_->end()) return it->second;
  }
  return text::HexFormNamer().resolve(text);
}

}  // namespace tesmod::save
