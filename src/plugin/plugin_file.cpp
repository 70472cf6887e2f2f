#include "tesmod/plugin/plugin_file.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "index_builder.hpp"

namespace tesmod {

PluginFile PluginFile::open(const std::filesystem::path& path, const OpenOptions& options) {
  return parse(FileBytes::map(path), options);
}

PluginFile PluginFile::parse(std::shared_ptr<const FileBytes> bytes, const OpenOptions& options) {
  PluginFile file;
  file.bytes_ = std::move(bytes);
  IndexBuilder(file, options).build();
  return file;
}

std::optional<std::uint32_t> PluginFile::entry_at(std::uint64_t offset) const {
  if (entries_.empty() || offset >= bytes_->size()) return std::nullopt;
  // Entries are sorted by offset; the innermost one containing the offset is the last entry
  // starting at or before it, walked up to an ancestor if it ends too early.
  auto it = std::upper_bound(entries_.begin(), entries_.end(), offset,
                             [](std::uint64_t off, const IndexEntry& e) { return off < e.offset; });
  if (it == entries_.begin()) return std::nullopt;
  auto i = std::uint32_t(std::distance(entries_.begin(), it) - 1);
  for (;;) {
    const IndexEntry& e = entries_[i];
    const std::uint64_t end = e.offset + (e.is_group() ? e.size : header_size() + e.size);
    if (offset < end) return i;
    if (e.parent == kNoParent) return std::nullopt;
    i = e.parent;
  }
}

std::optional<std::uint32_t> PluginFile::find_form_id(std::uint32_t form_id) const {
  for (std::uint32_t i = 1; i < entries_.size(); ++i)
    if (!entries_[i].is_group() && entries_[i].id == form_id) return i;
  return std::nullopt;
}

}  // namespace tesmod
