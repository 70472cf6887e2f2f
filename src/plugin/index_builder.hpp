// Builds a PluginFile's index: detects the format, decodes the file header, then walks every
// group and record, in parallel when asked for more than one thread.
#pragma once

#include "tesmod/plugin/plugin_file.hpp"

namespace tesmod {

struct LocalStats;

class IndexBuilder {
 public:
  IndexBuilder(PluginFile& out, const OpenOptions& options) : out_(out), options_(options) {}
  void build();

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
