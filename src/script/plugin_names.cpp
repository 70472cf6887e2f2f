#include "tesmod/script/plugin_names.hpp"

#include "tesmod/io/ascii.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/master_match.hpp"
#include "tesmod/plugin/strings_file.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "tesmod/script/plugin_scripts.hpp"

namespace tesmod::script {
namespace {

constexpr Signature kEDID("EDID"), kSCRI("SCRI"), kNAME("NAME"), kSCPT("SCPT"), kREFR("REFR"), kACHR("ACHR"),
    kACRE("ACRE");

bool is_reference(Signature t) { return t == kREFR || t == kACHR || t == kACRE; }

// The forms a plugin takes from its masters: the records it overrides and its scripts' SCRO.
std::vector<std::uint32_t> forms_used(const PluginFile& plugin) {
  static constexpr Signature kSCRO("SCRO");
  const auto masters = static_cast<std::uint32_t>(plugin.header().masters.size());
  std::vector<std::uint32_t> ids;
  Inflater inflater;
  for (const IndexEntry& e : plugin.entries().subspan(1)) {
    if (e.is_group()) continue;
    if ((e.id >> 24) < masters) ids.push_back(e.id);
    if (!holds_scripts(e.type)) continue;  // SCRO lives only in script-holding records
    try {
      const auto body = plugin.body(e, inflater);
      const ErrorContext where{plugin.name(), e.offset, RecordRef{e.type, e.id, {}}};
      SubrecordCursor cursor(body, where, Error::kNoOffset);
      SubrecordView v;
      while (cursor.next(v))
        if (v.type == kSCRO && v.data.size() == 4) ids.push_back(le::u32(v.data.data()));
    } catch (const Error&) {
      // the plugin's own reader reports damaged records
    }
  }
  return ids;
}

}  // namespace

std::unique_ptr<PluginNames> PluginNames::build(const PluginFile& plugin, const Options& options) {
  auto names = std::make_unique<PluginNames>();
  const auto& masters = plugin.header().masters;
  if (options.load_masters && !masters.empty()) {
    const std::vector<std::uint32_t> used = forms_used(plugin);
    std::vector<std::filesystem::path> dirs = options.master_dirs;
    if (dirs.empty()) {
      const std::filesystem::path dir = std::filesystem::path(plugin.name()).parent_path();
      dirs.push_back(dir.empty() ? "." : dir);
    }
    for (std::size_t mi = 0; mi < masters.size(); ++mi) {
      std::optional<std::filesystem::path> path;
      for (const auto& dir : dirs)
        if (!path) path = find_file_nocase(dir, masters[mi].name);
      if (!path) {
        names->missing_.push_back(masters[mi].name);
        continue;
      }
      try {
        PluginFile m = PluginFile::open(*path, OpenOptions{.threads = 1, .count_subrecords = false, .game = std::nullopt});
        if (const MasterMatch match = match_master(m, static_cast<std::uint32_t>(mi), used); !match.plausible()) {
          names->mismatched_.push_back(match.describe(masters[mi].name));
          continue;
        }
        // The master's own file indexes, mapped onto the plugin's master list by name.
        std::vector<std::uint32_t> map;
        for (const MasterFile& mm : m.header().masters) {
          std::uint32_t to = 0xFF;
          for (std::size_t k = 0; k < masters.size(); ++k)
            if (ascii::iequals(masters[k].name, mm.name)) to = static_cast<std::uint32_t>(k);
          map.push_back(to);
        }
        map.push_back(static_cast<std::uint32_t>(mi));
        names->add_file(m, map);
      } catch (const Error&) {
        names->missing_.push_back(masters[mi].name);
      }
    }
  }
  std::vector<std::uint32_t> self;
  for (std::size_t k = 0; k <= masters.size(); ++k) self.push_back(static_cast<std::uint32_t>(k));
  names->add_file(plugin, self);
  return names;
}

void PluginNames::add_file(const PluginFile& file, const std::vector<std::uint32_t>& index_map) {
  auto remap = [&](std::uint32_t id) {
    std::uint32_t top = id >> 24;
    std::uint32_t to = top < index_map.size() ? index_map[top] : index_map.back();
    return (to << 24) | (id & 0xFFFFFF);
  };
  Inflater inflater;
  for (const IndexEntry& e : file.entries().subspan(1)) {
    if (e.is_group()) continue;
    std::span<const std::uint8_t> body;
    try {
      body = file.body(e, inflater);
    } catch (const Error&) {
      continue;  // unreadable records just lack names; the plugin's own reader reports them
    }
    Entry entry;
    entry.info.form_id = remap(e.id);
    entry.info.type = e.type;
    bool is_script = e.type == kSCPT;
    std::vector<Field> script_fields;
    // Errors here are swallowed, so the context need not look up the record's EditorID.
    const ErrorContext where{file.name(), e.offset, RecordRef{e.type, e.id, {}}};
    SubrecordCursor cursor(body, where, e.is_compressed() ? Error::kNoOffset : e.offset + file.header_size());
    SubrecordView v;
    while (true) {
      try {
        if (!cursor.next(v)) break;
      } catch (const Error&) {
        break;
      }
      if (v.type == kEDID) {
        std::string_view s(reinterpret_cast<const char*>(v.data.data()), v.data.size());
        while (!s.empty() && s.back() == '\0') s.remove_suffix(1);
        entry.editor_id = s;
      } else if (v.type == kSCRI && v.data.size() == 4) {
        entry.info.script = remap(le::u32(v.data.data()));
      } else if (v.type == kNAME && v.data.size() == 4 && is_reference(e.type)) {
        entry.base = remap(le::u32(v.data.data()));
      } else if (is_script && is_script_field(v.type)) {
        script_fields.push_back(Field::from_view(v));
      }
    }
    if (is_script) {
      try {
        scripts_[entry.info.form_id] = decode_script(script_fields, where);
      } catch (const Error&) {
      }
    }
    if (!entry.editor_id.empty()) by_editor_id_[ascii::to_lower(entry.editor_id)] = entry.info.form_id;
    forms_[entry.info.form_id] = std::move(entry);
  }
}

std::optional<FormInfo> PluginNames::form(std::uint32_t form_id) const {
  auto it = forms_.find(form_id);
  if (it == forms_.end()) return std::nullopt;
  FormInfo info = it->second.info;
  if (it->second.base) {
    if (auto b = forms_.find(it->second.base); b != forms_.end()) {
      info.base_type = b->second.info.type;
      if (!info.script) info.script = b->second.info.script;
    }
  }
  return info;
}

std::optional<FormInfo> PluginNames::find(std::string_view editor_id) const {
  auto it = by_editor_id_.find(ascii::to_lower(editor_id));
  if (it == by_editor_id_.end()) return std::nullopt;
  return form(it->second);
}

std::optional<std::string> PluginNames::editor_id(std::uint32_t form_id) const {
  auto it = forms_.find(form_id);
  if (it == forms_.end() || it->second.editor_id.empty()) return std::nullopt;
  return it->second.editor_id;
}

const ScriptData* PluginNames::script(std::uint32_t id) const {
  auto it = scripts_.find(id);
  return it == scripts_.end() ? nullptr : &it->second;
}

}  // namespace tesmod::script
