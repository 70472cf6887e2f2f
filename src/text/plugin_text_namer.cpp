#include "tesmod/text/plugin_text_namer.hpp"

#include "tesmod/io/ascii.hpp"
#include "tesmod/io/thread_count.hpp"
#include "tesmod/plugin/editor_ids.hpp"
#include "tesmod/plugin/strings_file.hpp"

namespace tesmod::text {
namespace {

// Adds a file's EditorIDs with its FormIDs moved onto the namer's file list.
void add_file(TextNamer& namer, const PluginFile& file, std::uint32_t file_index, TextNamer::Source source,
              unsigned threads) {
  const auto& masters = file.header().masters;
  const auto& files = namer.files();
  std::vector<std::int64_t> to_ours(masters.size() + 1, -1);
  for (std::size_t m = 0; m < masters.size(); ++m)
    for (std::size_t k = 0; k < files.size(); ++k)
      if (ascii::iequals(files[k], masters[m].name)) to_ours[m] = std::int64_t(k);
  to_ours[masters.size()] = file_index;
  for (const auto& [entry, editor_id] : collect_editor_ids(file, threads)) {
    const std::uint32_t form_id = file.entry(entry).id;
    // FormIDs past the file's own index belong to the file itself, as the game reads them.
    const std::size_t top = std::min<std::size_t>(form_id >> 24, masters.size());
    if (to_ours[top] < 0) continue;
    // A master's override of a form of a file the plugin does not know is not nameable.
    namer.add(std::uint32_t(to_ours[top]) << 24 | (form_id & 0xFFFFFF), editor_id, source);
  }
}

}  // namespace

void add_master_names(TextNamer& namer, const PluginFile& master, std::uint32_t index_in_plugin, unsigned threads) {
  add_file(namer, master, index_in_plugin, TextNamer::Source::Master, threads);
}

PluginNamer plugin_text_namer(const PluginFile& plugin, const PluginNamerOptions& options) {
  std::vector<std::string> files;
  for (const MasterFile& m : plugin.header().masters) files.push_back(m.name);
  const std::filesystem::path own(plugin.name());
  files.push_back(own.filename().string());
  PluginNamer result{TextNamer(files), {}, {}};
  const unsigned threads = thread_count(options.threads);
  if (options.load_masters) {
    std::vector<std::filesystem::path> dirs = options.master_dirs;
    if (dirs.empty()) dirs.push_back(own.parent_path().empty() ? std::filesystem::path(".") : own.parent_path());
    for (std::uint32_t m = 0; m + 1 < files.size(); ++m) {
      std::optional<std::filesystem::path> path;
      for (const auto& dir : dirs)
        if (!path) path = find_file_nocase(dir, files[m]);
      if (!path) {
        result.masters_missing.push_back(files[m] + ": not found");
        continue;
      }
      try {
        OpenOptions o;
        o.threads = threads;
        add_master_names(result.namer, PluginFile::open(*path, o), m, threads);
        result.masters_loaded.push_back(files[m]);
      } catch (const Error& e) {
        result.masters_missing.push_back(files[m] + ": " + e.what());
      }
    }
  }
  add_file(result.namer, plugin, std::uint32_t(files.size() - 1), TextNamer::Source::Plugin, threads);
  result.namer.finish();
  return result;
}

}  // namespace tesmod::text
