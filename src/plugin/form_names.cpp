#include "tesmod/plugin/form_names.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tesmod/io/ascii.hpp"
#include "tesmod/io/thread_count.hpp"
#include "tesmod/plugin/editor_ids.hpp"
#include "tesmod/plugin/strings_file.hpp"
#include "tesmod/text/hex.hpp"

namespace tesmod {

PluginFormNamer PluginFormNamer::build(const PluginFile& plugin, const Options& options) {
  PluginFormNamer namer;
  const unsigned threads = thread_count(options.threads);
  for (const MasterFile& m : plugin.header().masters) namer.files_.push_back(m.name);
  const std::filesystem::path own(plugin.name());
  namer.files_.push_back(own.filename().string());
  if (options.load_masters) {
    std::filesystem::path dir = own.parent_path();
    if (dir.empty()) dir = ".";
    for (std::uint32_t m = 0; m + 1 < namer.files_.size(); ++m) {
      const std::string name = namer.files_[m];
      auto path = find_file_nocase(dir, name);
      if (!path) {
        namer.missing_.push_back(name + ": not found beside the plugin");
        continue;
      }
      try {
        OpenOptions o;
        o.threads = threads;
        const PluginFile master = PluginFile::open(*path, o);
        namer.add_file(master, m, threads);
        namer.loaded_.push_back(name);
      } catch (const Error& e) {
        namer.missing_.push_back(name + ": " + e.what());
      }
    }
  }
  namer.add_file(plugin, std::uint32_t(namer.files_.size() - 1), threads);
  namer.index_editor_ids();
  return namer;
}

void PluginFormNamer::add_file(const PluginFile& file, std::uint32_t file_index, unsigned threads) {
  // The file's own master indices, mapped onto the plugin's list (-1: not one of its files).
  const auto& masters = file.header().masters;
  std::vector<std::int64_t> to_ours(masters.size() + 1, -1);
  for (std::size_t m = 0; m < masters.size(); ++m)
    for (std::size_t k = 0; k < files_.size(); ++k)
      if (ascii::iequals(files_[k], masters[m].name)) to_ours[m] = std::int64_t(k);
  to_ours[masters.size()] = file_index;
  auto found_ids = collect_editor_ids(file, threads);
  names_.reserve(names_.size() + found_ids.size());
  for (auto& [entry, editor_id] : found_ids) {
    const std::uint32_t form_id = file.entry(entry).id;
    // FormIDs past the file's own index belong to the file itself, as the game reads them.
    const std::size_t top = std::min<std::size_t>(form_id >> 24, masters.size());
    if (to_ours[top] < 0) continue;
    const std::uint32_t defining = std::uint32_t(to_ours[top]);
    const std::uint32_t ours = defining << 24 | (form_id & 0xFFFFFF);
    Named& n = names_[ours];
    // The defining file's EditorID wins; without it, the last file that overrides the form.
    if (defining == file_index)
      n = Named{std::move(editor_id), true, false};
    else if (!n.from_defining_file)
      n.editor_id = std::move(editor_id);
  }
}

void PluginFormNamer::index_editor_ids() {
  by_editor_id_.reserve(names_.size());
  std::vector<std::pair<Named*, const Owner*>> owners;  // map nodes stay put as the maps grow
  owners.reserve(names_.size());
  for (auto& [form_id, named] : names_) {
    if (named.editor_id.empty()) continue;
    auto [it, fresh] = by_editor_id_.try_emplace(ascii::to_lower(named.editor_id), Owner{form_id, false});
    if (!fresh && it->second.form_id != form_id) it->second.ambiguous = true;
    owners.emplace_back(&named, &it->second);
  }
  // Only a name that resolve() reads back to its form is used: unique, and not one that reads as
  // `File:id` or `0x...`.
  for (auto [named, owner] : owners) {
    const std::string_view id = named->editor_id;
    const bool hex_form = id.size() > 2 && id[0] == '0' && (id[1] == 'x' || id[1] == 'X');
    named->usable = !owner->ambiguous && id.find(':') == std::string_view::npos && !hex_form;
  }
}

std::optional<std::string_view> PluginFormNamer::editor_id(std::uint32_t form_id) const {
  auto it = names_.find(form_id);
  if (it == names_.end() || !it->second.usable) return std::nullopt;
  return std::string_view(it->second.editor_id);
}

std::string PluginFormNamer::name(std::uint32_t form_id) const {
  if (auto id = editor_id(form_id)) return std::string(*id);
  const std::uint32_t top = form_id >> 24;
  if (top >= files_.size()) return text::raw_form_id(form_id);
  return fmt::format("{}:{:08X}", files_[top], form_id & 0xFFFFFF);
}

std::optional<std::uint32_t> PluginFormNamer::resolve(std::string_view text) const {
  if (const auto colon = text.rfind(':'); colon != std::string_view::npos) {
    const std::string_view file = text.substr(0, colon);
    const auto object = text::parse_hex_u32(text.substr(colon + 1));
    if (!object || *object > 0xFFFFFF) return std::nullopt;
    // The plugin itself is the last entry; a master of the same name comes first, as in the game.
    for (std::size_t k = 0; k < files_.size(); ++k)
      if (ascii::iequals(files_[k], file)) return std::uint32_t(k) << 24 | *object;
    return std::nullopt;
  }
  if (const auto raw = text::parse_raw_form_id(text)) return raw;
  auto it = by_editor_id_.find(ascii::to_lower(text));
  if (it == by_editor_id_.end() || it->second.ambiguous) return std::nullopt;
  return it->second.form_id;
}

}  // namespace tesmod
