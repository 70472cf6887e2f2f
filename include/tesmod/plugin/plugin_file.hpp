// A plugin opened read-only: the mapped bytes, the detected game, the decoded file header, and
// a flat zero-copy index of every group and record in file order. Record bodies are read (and
// compressed ones inflated) only when asked for.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/io/big_buffer.hpp"
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

using IndexVector = std::vector<IndexEntry, BigAllocator<IndexEntry>>;

struct SubrecordStats {
  std::uint64_t fields = 0;        // subrecords, not counting XXXX size prefixes
  std::uint64_t oversize = 0;      // XXXX size prefixes
  std::uint64_t inflated_bytes = 0;  // bytes produced by inflating every compressed record
};

struct PluginStats {
  std::uint64_t groups = 0;
  std::uint64_t records = 0;     // the TES4 header record not counted
  std::uint64_t compressed = 0;  // compressed records
  std::map<Signature, std::uint64_t> records_by_type;
  std::map<std::int32_t, std::uint64_t> groups_by_type;
  std::map<std::uint16_t, std::uint64_t> form_versions;  // Skyrim: records by form version (TES4 included)
  std::optional<SubrecordStats> subrecords;  // only when opened with count_subrecords
};

struct OpenOptions {
  unsigned threads = 0;            // 0: all cores
  bool count_subrecords = false;   // walk every subrecord, inflating compressed records
  std::optional<Game> game;        // skip detection and read as this game
};

class PluginFile {
 public:
  static PluginFile open(const std::filesystem::path& path, const OpenOptions& options = {});
  static PluginFile parse(std::shared_ptr<const FileBytes> bytes, const OpenOptions& options = {});

  PluginFile(PluginFile&&) noexcept = default;
  PluginFile& operator=(PluginFile&&) noexcept = default;

  const std::string& name() const { return bytes_->name(); }
  const std::shared_ptr<const FileBytes>& file_bytes() const { return bytes_; }
  std::span<const std::uint8_t> bytes() const { return bytes_->span(); }
  Game game() const { return game_; }
  std::size_t header_size() const { return tesmod::header_size(game_); }
  const FileHeader& header() const { return header_; }
  const PluginStats& stats() const { return stats_; }

  // Entry 0 is the TES4 header record.
  std::span<const IndexEntry> entries() const { return entries_; }
  const IndexEntry& entry(std::uint32_t i) const { return entries_[i]; }

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

  // The innermost entry whose bytes contain the file offset.
  std::optional<std::uint32_t> entry_at(std::uint64_t offset) const;
  // Index of the first record with this FormID, if any.
  std::optional<std::uint32_t> find_form_id(std::uint32_t form_id) const;

 private:
  PluginFile() = default;
  std::shared_ptr<const FileBytes> bytes_;
  Game game_ = Game::Oblivion;
  FileHeader header_;
  IndexVector entries_;
  PluginStats stats_;
  friend class IndexBuilder;
};

}  // namespace tesmod
