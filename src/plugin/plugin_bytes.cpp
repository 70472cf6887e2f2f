#include "tesmod/plugin/plugin_bytes.hpp"

#include <algorithm>
#include <vector>

#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/compressed_body.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace tesmod {

bool IndexEntry::is_compressed() const { return !is_group() && (flags & record_flags::kCompressed) && type != kHeaderRecord; }

RecordHeader PluginBytes::record_header(const IndexEntry& e) const {
  return RecordHeader::read(bytes_->data() + e.offset, game_);
}

GroupHeader PluginBytes::group_header(const IndexEntry& e) const {
  return GroupHeader::read(bytes_->data() + e.offset, game_);
}

std::span<const std::uint8_t> PluginBytes::stored_body(const IndexEntry& e) const {
  return bytes_->span().subspan(e.offset + header_size(), e.size);
}

std::span<const std::uint8_t> PluginBytes::body(const IndexEntry& e, Inflater& inflater) const {
  std::span<const std::uint8_t> stored = stored_body(e);
  if (!e.is_compressed()) return stored;
  try {
    return inflate_record_body(stored, inflater, ErrorContext{name(), e.offset, RecordRef{e.type, e.id, {}}});
  } catch (const Error& error) {
    // Only now is it worth looking for the EditorID, to name the record fully.
    throw Error(name(), error.offset(), context(e).record, error.detail());
  }
}

std::optional<std::string> PluginBytes::editor_id(const IndexEntry& e) const {
  if (e.is_group()) return std::nullopt;
  std::span<const std::uint8_t> stored = stored_body(e);
  if (!e.is_compressed()) return find_editor_id(stored);
  if (stored.size() < 4) return std::nullopt;
  const std::uint32_t raw = le::u32(stored.data());
  // The EditorID is the first field of every record that has one: a short prefix holds it, and
  // the less inflated the better (much of the cost is per byte). A longer prefix, then the whole
  // body (libdeflate: far faster than zlib's streaming for all of it) only for records that
  // need them, such as LAND and NAVM, which have no EditorID.
  PrefixInflater prefix_of(stored.subspan(4));
  for (const std::size_t want : {std::size_t{64}, std::size_t{600}}) {
    const std::size_t n = std::min<std::size_t>(want, raw);
    const std::span<const std::uint8_t> prefix = prefix_of.first(n);
    if (auto id = find_editor_id(prefix)) return id;
    if (prefix.size() < n || n == raw) return std::nullopt;
  }
  try {
    Inflater inflater;
    return find_editor_id(inflate_record_body(stored, inflater, ErrorContext{}));
  } catch (const Error&) {
    return std::nullopt;
  }
}

ErrorContext PluginBytes::context(const IndexEntry& e) const {
  if (e.is_group()) return ErrorContext{name(), e.offset, std::nullopt};
  return ErrorContext{name(), e.offset, RecordRef{e.type, e.id, editor_id(e).value_or(std::string())}};
}

}  // namespace tesmod
