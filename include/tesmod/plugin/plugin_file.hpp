// A plugin opened read-only: the mapped bytes, the detected game, the decoded file header, and
// a flat zero-copy index of every group and record in file order, every header checked. Record
// bodies are read (and compressed ones inflated) only when asked for.
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
#include "tesmod/plugin/plugin_bytes.hpp"

namespace tesmod {

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

class PluginFile : public PluginBytes {
 public:
  static PluginFile open(const std::filesystem::path& path, const OpenOptions& options = {});
  static PluginFile parse(std::shared_ptr<const FileBytes> bytes, const OpenOptions& options = {});

  PluginFile(PluginFile&&) noexcept = default;
  PluginFile& operator=(PluginFile&&) noexcept = default;

  const PluginStats& stats() const { return stats_; }

  // Entry 0 is the TES4 header record.
  std::span<const IndexEntry> entries() const { return entries_; }
  const IndexEntry& entry(std::uint32_t i) const { return entries_[i]; }

  // The innermost entry whose bytes contain the file offset.
  std::optional<std::uint32_t> entry_at(std::uint64_t offset) const;
  // Index of the first record with this FormID, if any.
  std::optional<std::uint32_t> find_form_id(std::uint32_t form_id) const;

 private:
  PluginFile() = default;
  IndexVector entries_;
  PluginStats stats_;
  friend class IndexBuilder;
};

}  // namespace tesmod
