// Builds a PluginFile's index: detects the format, decodes the file header, then walks every
// group and record, in parallel when asked for more than one thread. Also a PluginOutline's
// top level and, on demand, one group.
#pragma once

#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/plugin_outline.hpp"

namespace tesmod {

struct LocalStats;

// What the TES4 record says, read and checked before anything else.
struct FileStart {
  IndexEntry header_entry;
  std::uint16_t form_version;  // Skyrim: the TES4 record's
  std::uint64_t body_start;    // first byte after the TES4 record
};

class IndexBuilder {
 public:
  IndexBuilder(PluginFile& out, const OpenOptions& options) : out_(out), options_(options) {}
  void build();

  // Detects the format and decodes the TES4 record into out.
  static FileStart read_file_start(PluginBytes& out, const OpenOptions& options);
  // The file header and the top-level groups (each header checked, contents not read).
  static void outline(PluginOutline& out, const OpenOptions& options);
  // One group and everything in it (the group first; parent and end are indices in the result),
  // with the checks of a full build.
  static IndexVector index_group(const PluginBytes& file, const IndexEntry& group);
  // The records that want keeps in a run [begin, end) of a top-level group's direct children
  // (its whole contents, or a run from split_group), every header checked as index_group checks
  // them, numbered as if the run's first item came right after a group header at 0. Reads the
  // bytes only: safe on several threads.
  static FoundRecords find_records(const PluginBytes& file, const IndexEntry& group, std::uint64_t begin,
                                   std::uint64_t end, const RecordWanted& want);
  // The group's contents as runs of whole direct children of about `piece` bytes each, for
  // walking a large group on several threads.
  static std::vector<std::pair<std::uint64_t, std::uint64_t>> split_group(const PluginBytes& file,
                                                                          const IndexEntry& group, std::uint64_t piece);

 private:
  void read_file_header();
  void add_stats(const LocalStats& local);
  void finish();  // TES4 fields, LE/SE decision
  PluginFile& out_;
  SubrecordStats sub_;
  const OpenOptions& options_;
  std::uint64_t body_start_ = 0;  // first byte after the TES4 record
};

}  // namespace tesmod
