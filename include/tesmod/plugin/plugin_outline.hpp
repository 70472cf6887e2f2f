// A plugin opened for reading some of its groups: at open, the file header and the top-level
// groups are read (each group's header checked, its contents stepped over, nothing paged in
// beyond); a group's contents are indexed, with the checks of a full open, the first time they
// are asked for. For work that reads a few record types of a large plugin; PluginFile indexes
// (and checks) everything up front.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "tesmod/plugin/plugin_bytes.hpp"
#include "tesmod/plugin/plugin_file.hpp"

namespace tesmod {

// Which records a search keeps, given each record's entry (no parent; end as FoundRecords says).
using RecordWanted = std::function<bool(const IndexEntry& record)>;

// The records a search of one top-level group kept, in file order, each with no parent and with
// end set to its index in the group's own index (PluginOutline::group) + 1, as a record's end is
// its own index + 1; and the number of entries that index holds (the group's own included).
struct FoundRecords {
  IndexVector records;
  std::uint32_t entries = 0;
};

class PluginOutline : public PluginBytes {
 public:
  // Maps the file with pages read on first touch, so that groups never asked for cost nothing.
  static PluginOutline open(const std::filesystem::path& path, const OpenOptions& options = {});
  static PluginOutline parse(std::shared_ptr<const FileBytes> bytes, const OpenOptions& options = {});

  PluginOutline(PluginOutline&&) noexcept = default;
  PluginOutline& operator=(PluginOutline&&) noexcept = default;

  // Skyrim LE and SE share the container: when the header does not say SE (HEDR 1.71, the ESL
  // flag), the records' form versions decide, and only a full index reads them all. Until
  // then game() says SkyrimLE and this is false.
  bool game_is_known() const { return game_known_; }

  // The top-level groups in file order (contents not indexed: end is the entry's own index + 1).
  std::span<const IndexEntry> top_groups() const { return top_; }
  // Top-level group i and everything in it, in file order, the group first (parent and end are
  // indices in this span). Indexed on the first call; throws tesmod::Error for damage inside.
  // Not safe to call from two threads at once.
  std::span<const IndexEntry> group(std::size_t i);
  bool group_is_indexed(std::size_t i) const { return !groups_[i].empty(); }
  // The records of top-level group i that want keeps, every header of the group checked as
  // group(i) checks them, but nothing else kept: for the few records of a large plugin that a
  // load order's plugins override. Reads only: safe from several threads. Throws tesmod::Error
  // for damage inside.
  FoundRecords find_records(std::size_t i, const RecordWanted& want) const;
  // Group i's contents as runs [begin, end) of whole direct children of about `piece` bytes (a
  // large group, such as a game master's worlds, walked on several threads), and the records of
  // one run, numbered as if its first item came right after the group's header (the entries of
  // the runs, in order, are the group's after its header).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> split_group(std::size_t i, std::uint64_t piece) const;
  FoundRecords find_records(std::size_t i, std::uint64_t begin, std::uint64_t end, const RecordWanted& want) const;

  // The top-level groups where a well-formed plugin keeps records of this type, in file order:
  // its own groups (labelled with the type), and for the types the format nests in cells,
  // worlds and topics (CELL, INFO, references, LAND, NAVM ...) or a type the game gives no
  // top-level group (group_order.hpp) and without one here, the CELL, WRLD and DIAL groups. Top-level groups of any other kind than 0 are always
  // included, as their contents cannot be known unread. A record stored in another type's
  // group (malformed) is found only by a full index.
  std::vector<std::size_t> groups_holding(Signature type) const;

  // The full index of the same bytes, every header checked, as PluginFile::parse with the
  // options this outline was opened with.
  PluginFile index_all() const;

 private:
  PluginOutline() = default;
  OpenOptions options_;
  bool game_known_ = true;
  IndexVector top_;
  std::vector<IndexVector> groups_;  // per top-level group; empty until indexed
  friend class IndexBuilder;
};

}  // namespace tesmod
