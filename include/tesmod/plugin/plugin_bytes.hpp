// A plugin's mapped bytes with what the file header says about them (the game, the decoded TES4
// record): reads any group or record given its index entry. PluginFile (every group and record
// indexed at open) and PluginOutline (top-level groups at open, their contents on first use)
// are both this.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "tesmod/error.hpp"
#include "tesmod/io/file_bytes.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/file_header.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/record_header.hpp"

namespace tesmod {

inline constexpr std::uint32_t kNoParent = ~std::uint32_t{0};

// One group or record, in file order. Groups precede their contents; a group's descendants are
// the entries in (its index, end).
struct IndexEntry {
  std::uint64_t offset;  // of the header in the file
  Signature type;        // record type, or GRUP
  std::uint32_t size;    // record: data size after the header; group: whole group, header included
  std::uint32_t flags;   // record: header flags; group: group type
  std::uint32_t id;      // record: FormID; group: label
  std::uint32_t parent;  // index of the enclosing group, or kNoParent
  std::uint32_t end;     // group: index after its last descendant; record: own index + 1

  bool is_group() const { return type == kGroupSignature; }
  bool is_compressed() const;
  std::int32_t group_type() const { return std::int32_t(flags); }
};

class PluginBytes {
 public:
  const std::string& name() const { return bytes_->name(); }
  const std::shared_ptr<const FileBytes>& file_bytes() const { return bytes_; }
  std::span<const std::uint8_t> bytes() const { return bytes_->span(); }
  Game game() const { return game_; }
  std::size_t header_size() const { return tesmod::header_size(game_); }
  const FileHeader& header() const { return header_; }

  RecordHeader record_header(const IndexEntry& e) const;
  GroupHeader group_header(const IndexEntry& e) const;
  // The record's data as stored (compressed records: u32 size + zlib stream).
  std::span<const std::uint8_t> stored_body(const IndexEntry& e) const;
  // The record's fields: the stored data, or the inflated data (valid until the next use of inflater).
  std::span<const std::uint8_t> body(const IndexEntry& e, Inflater& inflater) const;
  // The record's EditorID (as stored) if it has one; reads at most the start of compressed data.
  std::optional<std::string> editor_id(const IndexEntry& e) const;
  // For errors about this entry: file, offset, record type, FormID and EditorID.
  ErrorContext context(const IndexEntry& e) const;

 protected:
  PluginBytes() = default;
  std::shared_ptr<const FileBytes> bytes_;
  Game game_ = Game::Oblivion;
  FileHeader header_;
  friend class IndexBuilder;
};

}  // namespace tesmod
