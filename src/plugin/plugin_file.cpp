#include "tesmod/plugin/plugin_file.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "index_builder.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/compressed_body.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace tesmod {

bool IndexEntry::is_compressed() const { return !is_group() && (flags & record_flags::kCompressed) && type != kHeaderRecord; }

PluginFile PluginFile::open(const std::filesystem::path& path, const OpenOptions& options) {
  return parse(FileBytes::map(path), options);
}

PluginFile PluginFile::parse(std::shared_ptr<const FileBytes> bytes, const OpenOptions& options) {
  PluginFile file;
  file.bytes_ = std::move(bytes);
  IndexBuilder(file, options).build();
  return file;
}

RecordHeader PluginFile::record_header(const IndexEntry& e) const {
  return RecordHeader::read(bytes_->data() + e.offset, game_);
}

GroupHeader PluginFile::group_header(const IndexEntry& e) const {
  return GroupHeader::read(bytes_->data() + e.offset, game_);
}

std::span<const std::uint8_t> PluginFile::stored_body(const IndexEntry& e) const {
  return bytes_->span().subspan(e.offset + header_size(), e.size);
}

std::span<const std::uint8_t> PluginFile::body(const IndexEntry& e, Inflater& inflater) const {
  std::span<const std::uint8_t> stored = stored_body(e);
  if (!e.is_compressed()) return stored;
  try {
    return inflate_record_body(stored, inflater, ErrorContext{name(), e.offset, RecordRef{e.type, e.id, {}}});
  } catch (const Error& error) {
    // Only now is it worth looking for the EditorID, to name the record fully.
    throw Error(name(), error.offset(), context(e).record, error.detail());
  }
}

std::optional<std::string> PluginFile::editor_id(const IndexEntry& e) const {
  if (e.is_group()) return std::nullopt;
  std::span<const std::uint8_t> stored = stored_body(e);
  if (!e.is_compressed()) return find_editor_id(stored);
  if (stored.size() < 4) return std::nullopt;
  const std::uint32_t raw = le::u32(stored.data());
  // The EditorID is the first field of every record that has one; a short prefix holds it.
  constexpr std::size_t kPrefix = 600;
  std::vector<std::uint8_t> prefix = inflate_prefix(stored.subspan(4), std::min<std::size_t>(kPrefix, raw));
  if (auto id = find_editor_id(prefix)) return id;
  if (raw <= kPrefix) return std::nullopt;
  try {
    Inflater inflater;
    return find_editor_id(inflate_record_body(stored, inflater, ErrorContext{}));
  } catch (const Error&) {
    return std::nullopt;
  }
}

ErrorContext PluginFile::context(const IndexEntry& e) const {
  if (e.is_group()) return ErrorContext{name(), e.offset, std::nullopt};
  return ErrorContext{name(), e.offset, RecordRef{e.type, e.id, editor_id(e).value_or(std::string())}};
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
