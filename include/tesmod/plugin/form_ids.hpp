// FormIDs resolved to the file that defines them and to EditorIDs. A FormID's top byte indexes
// the plugin's master list; the index one past the last master is the plugin itself. The
// EditorID index covers the plugin and whichever of its masters are found in its folder.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tesmod/plugin/plugin_file.hpp"

namespace tesmod {

struct FormKey {
  std::string_view file;     // the defining file's name as the master list gives it
  std::uint32_t object_id;   // low 24 bits
};

class FormIds {
 public:
  struct Options {
    bool load_masters = true;  // look for master files beside the plugin
    unsigned threads = 0;      // 0: all cores
  };

  // Indexes the EditorIDs of the plugin and of its masters found beside it (file names
  // matched without regard to case). A master that cannot be read is reported, not fatal.
  static FormIds build(const PluginFile& plugin, const Options& options);
  static FormIds build(const PluginFile& plugin) { return build(plugin, Options{}); }

  FormKey key(std::uint32_t form_id) const;
  // The EditorID (as stored, code-page bytes) of the form, if its file was indexed.
  std::optional<std::string_view> editor_id(std::uint32_t form_id) const;
  // The plugin-relative FormID of an EditorID (case-insensitive), if indexed.
  std::optional<std::uint32_t> find(std::string_view editor_id) const;
  // The EditorID when known, else `File.esm:00ABCDEF` (the object id in eight hex digits).
  std::string display(std::uint32_t form_id) const;

  // The files: masters in order, then the plugin itself.
  const std::vector<std::string>& files() const { return files_; }
  // Masters that were found and indexed, and those that were not (with the reason).
  const std::vector<std::string>& masters_loaded() const { return loaded_; }
  const std::vector<std::string>& masters_missing() const { return missing_; }

 private:
  void add_file(const PluginFile& file, std::uint32_t file_index, unsigned threads);
  std::vector<std::string> files_;
  std::vector<std::string> loaded_, missing_;
  std::unordered_map<std::uint64_t, std::string> by_key_;        // file index << 32 | object id
  std::unordered_map<std::string, std::uint32_t> by_editor_id_;  // lower-case EditorID -> FormID
};

}  // namespace tesmod
