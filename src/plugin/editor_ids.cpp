#include <fmt/format.h>

#include <algorithm>

#include "tesmod/io/ascii.hpp"
#include "tesmod/io/thread_count.hpp"
#include "tesmod/io/workers.hpp"
#include "tesmod/plugin/editor_ids.hpp"
#include "tesmod/plugin/form_ids.hpp"
#include "tesmod/plugin/strings_file.hpp"

namespace tesmod {

std::vector<std::pair<std::uint32_t, std::string>> collect_editor_ids(const PluginFile& file, unsigned threads) {
  const auto entries = file.entries();
  constexpr std::uint32_t kChunk = 4096;
  const std::uint32_t chunks = std::uint32_t((entries.size() + kChunk - 1) / kChunk);
  std::vector<std::vector<std::pair<std::uint32_t, std::string>>> parts(chunks);
  run_workers(chunks, threads, [&](auto claim) {
    for (std::uint32_t c; (c = std::uint32_t(claim())) < chunks;) {
      const std::uint32_t end = std::min<std::uint32_t>(std::uint32_t(entries.size()), (c + 1) * kChunk);
      for (std::uint32_t i = c * kChunk; i < end; ++i) {
        if (i == 0 || entries[i].is_group()) continue;
        try {
          if (auto id = file.editor_id(entries[i])) parts[c].emplace_back(i, std::move(*id));
        } catch (const Error&) {
          // A record that cannot be read has no name here.
        }
      }
    }
  });
  std::vector<std::pair<std::uint32_t, std::string>> out;
  for (auto& p : parts) std::move(p.begin(), p.end(), std::back_inserter(out));
  return out;
}

std::vector<std::optional<std::string>> editor_ids_of(const PluginBytes& file, std::span<const IndexEntry> records,
                                                      unsigned threads) {
  std::vector<std::optional<std::string>> out(records.size());
  // Claimed in runs of records, so that threads do not contend for every one.
  constexpr std::size_t kRun = 256;
  run_workers((records.size() + kRun - 1) / kRun, thread_count(threads), [&](auto claim) {
    for (std::size_t run; (run = claim()) < (records.size() + kRun - 1) / kRun;) {
      for (std::size_t i = run * kRun; i < std::min(records.size(), (run + 1) * kRun); ++i) {
        try {
          out[i] = file.editor_id(records[i]);
        } catch (const Error&) {
          // A record that cannot be read has no name here.
        }
      }
    }
  });
  return out;
}

void FormIds::add_file(const PluginFile& file, std::uint32_t file_index, unsigned threads) {
  // Map the file's own master indices to indices in files_.
  const auto& masters = file.header().masters;
  std::vector<std::int64_t> to_ours(masters.size() + 1, -1);
  for (std::size_t m = 0; m < masters.size(); ++m) {
    for (std::size_t k = 0; k < files_.size(); ++k)
      if (ascii::iequals(files_[k], masters[m].name)) to_ours[m] = std::int64_t(k);
  }
  to_ours[masters.size()] = file_index;
  const std::uint32_t self_plugin_index = std::uint32_t(files_.size() - 1);
  for (auto& [i, edid] : collect_editor_ids(file, threads)) {
    const std::uint32_t fid = file.entry(i).id;
    const std::size_t m = std::min<std::size_t>(fid >> 24, masters.size());
    if (to_ours[m] < 0) continue;
    const std::uint64_t key = std::uint64_t(to_ours[m]) << 32 | (fid & 0xFFFFFF);
    // The plugin's own definitions (its overrides included) win over a master's.
    auto [it, fresh] = by_key_.try_emplace(key, edid);
    if (!fresh && file_index == self_plugin_index) it->second = edid;
    const std::uint32_t ours = std::uint32_t(std::min<std::int64_t>(to_ours[m], self_plugin_index)) << 24 | (fid & 0xFFFFFF);
    by_editor_id_.insert_or_assign(ascii::to_lower(edid), ours);
  }
}

FormIds FormIds::build(const PluginFile& plugin, const Options& options) {
  FormIds ids;
  const unsigned threads = thread_count(options.threads);
  for (const MasterFile& m : plugin.header().masters) ids.files_.push_back(m.name);
  std::filesystem::path own(plugin.name());
  ids.files_.push_back(own.filename().string());
  if (options.load_masters) {
    std::filesystem::path dir = own.parent_path();
    if (dir.empty()) dir = ".";
    for (std::uint32_t m = 0; m + 1 < ids.files_.size(); ++m) {
      const std::string& name = ids.files_[m];
      auto path = find_file_nocase(dir, name);
      if (!path) {
        ids.missing_.push_back(name + ": not found beside the plugin");
        continue;
      }
      try {
        OpenOptions o;
        o.threads = threads;
        PluginFile master = PluginFile::open(*path, o);
        ids.add_file(master, m, threads);
        ids.loaded_.push_back(name);
      } catch (const Error& e) {
        ids.missing_.push_back(name + ": " + e.what());
      }
    }
  }
  ids.add_file(plugin, std::uint32_t(ids.files_.size() - 1), threads);
  return ids;
}

FormKey FormIds::key(std::uint32_t form_id) const {
  const std::size_t index = std::min<std::size_t>(form_id >> 24, files_.size() - 1);
  return FormKey{files_[index], form_id & 0xFFFFFF};
}

std::optional<std::string_view> FormIds::editor_id(std::uint32_t form_id) const {
  const std::uint64_t index = std::min<std::uint64_t>(form_id >> 24, files_.size() - 1);
  auto it = by_key_.find(index << 32 | (form_id & 0xFFFFFF));
  if (it == by_key_.end()) return std::nullopt;
  return std::string_view(it->second);
}

std::optional<std::uint32_t> FormIds::find(std::string_view editor_id) const {
  auto it = by_editor_id_.find(ascii::to_lower(editor_id));
  if (it == by_editor_id_.end()) return std::nullopt;
  return it->second;
}

std::string FormIds::display(std::uint32_t form_id) const {
  if (auto id = editor_id(form_id)) return std::string(*id);
  FormKey k = key(form_id);
  return fmt::format("{}:{:08X}", k.file, k.object_id);
}

}  // namespace tesmod
