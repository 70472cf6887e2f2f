// A FormNamer that knows a plugin and whichever of its masters are found beside it: a FormID is
// named by the EditorID its defining file gives it, or `File.esm:00ABCDEF` (the defining file and
// the object id) when there is none or the EditorID is not unique; both read back to the FormID
// as the plugin stores it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/form_namer.hpp"

namespace tesmod {

class PluginFormNamer final : public text::FormNamer {
 public:
  struct Options {
    bool load_masters = true;  // look for the master files beside the plugin
    unsigned threads = 0;      // 0: all cores
  };

  // Reads the EditorIDs of the plugin and of the masters found in its folder (file names matched
  // without regard to case). A master that is missing or unreadable is listed, not fatal.
  static PluginFormNamer build(const PluginFile& plugin, const Options& options);
  static PluginFormNamer build(const PluginFile& plugin) { return build(plugin, Options{}); }

  // The EditorID when it names exactly this form, else `File.esm:00ABCDEF`; a FormID whose top
  // byte is past the plugin itself (no file defines it) is written `0x01ABCDEF`.
  std::string name(std::uint32_t form_id) const override;
  // An EditorID (case-insensitive, unique ones only), `File.esm:ABCDEF` (file name without regard
  // to case, 1-8 hex digits of at most 24 bits) or `0x` + 1-8 hex digits (the stored FormID).
  std::optional<std::uint32_t> resolve(std::string_view text) const override;

  // The EditorID name() uses for the form, if any.
  std::optional<std::string_view> editor_id(std::uint32_t form_id) const;
  // Masters in order, then the plugin itself (as FormID top bytes index them).
  const std::vector<std::string>& files() const { return files_; }
  const std::vector<std::string>& masters_loaded() const { return loaded_; }
  // Masters not found or not readable, with the reason.
  const std::vector<std::string>& masters_missing() const { return missing_; }

 private:
  struct Named {
    std::string editor_id;
    bool from_defining_file = false;  // else from a file that overrides the form
    bool usable = false;              // unique, and read back to this form by resolve()
  };
  struct Owner {
    std::uint32_t form_id = 0;
    bool ambiguous = false;  // several forms carry this EditorID
  };
  void add_file(const PluginFile& file, std::uint32_t file_index, unsigned threads);
  void index_editor_ids();

  std::vector<std::string> files_;
  std::vector<std::string> loaded_, missing_;
  std::unordered_map<std::uint32_t, Named> names_;       // plugin-relative FormID -> EditorID
  std::unordered_map<std::string, Owner> by_editor_id_;  // lower-case EditorID -> form
};

}  // namespace tesmod
