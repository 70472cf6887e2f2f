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
  // The format puts the EditorID first in every record that has one (after an XXXX size field),
  // as the Creation Kit and xEdit write them: so only the head of a compressed record is
  // inflated, the EDID field when the head starts one, and a record that starts with another
  // field has none. (Inflating landscapes and navmeshes whole to learn that was most of the
  // time it took to name a plugin's forms.)
  PrefixInflater prefix_of(stored.subspan(4));
  const std::span<const std::uint8_t> head = prefix_of.first(std::min<std::size_t>(16, raw));
  std::size_t at = 0;
  std::optional<std::uint32_t> big;
  if (head.size() >= 10 && Signature::from_bytes(head.data()) == kOversizeSignature && le::u16(head.data() + 4) == 4) {
    big = le::u32(head.data() + 6);
    at = 10;
  }
  if (head.size() < at + 6 || Signature::from_bytes(head.data() + at) != Signature("EDID")) return std::nullopt;
  const std::size_t size = big ? *big : le::u16(head.data() + at + 4);
  if (size > raw) return std::nullopt;
  return find_editor_id(prefix_of.first(std::min<std::size_t>(at + 6 + size, raw)));
}

ErrorContext PluginBytes::context(const IndexEntry& e) const {
  if (e.is_group()) return ErrorContext{name(), e.offset, std::nullopt};
  return ErrorContext{name(), e.offset, RecordRef{e.type, e.id, editor_id(e).value_or(std::string())}};
}

}  // namespace tesmod
