// A NameSource over a plugin and whichever of its masters are found beside it: EditorIDs, record
// types, attached scripts (SCRI; a reference's through its base form) and every SCPT's locals.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/script/names.hpp"

namespace tesmod::script {

class PluginNames : public NameSource {
 public:
  struct Options {
    bool load_masters = true;
    std::vector<std::filesystem::path> master_dirs;  // where masters are looked for (default: beside the plugin)
  };
  static std::unique_ptr<PluginNames> build(const PluginFile& plugin, const Options& options);
  static std::unique_ptr<PluginNames> build(const PluginFile& plugin) { return build(plugin, Options{}); }

  std::optional<FormInfo> find(std::string_view editor_id) const override;
  std::optional<FormInfo> form(std::uint32_t form_id) const override;
  std::optional<std::string> editor_id(std::uint32_t form_id) const override;
  const ScriptData* script(std::uint32_t script_form_id) const override;

  const std::vector<std::string>& masters_missing() const { return missing_; }
  // Masters found beside the plugin but left out: another build than the plugin was made
  // against (see MasterMatch), so their names would resolve to the wrong forms.
  const std::vector<std::string>& masters_mismatched() const { return mismatched_; }

 private:
  struct Entry {
    FormInfo info;
    std::uint32_t base = 0;  // references: NAME
    std::string editor_id;
  };
  void add_file(const PluginFile& file, const std::vector<std::uint32_t>& file_index_map);
  std::unordered_map<std::uint32_t, Entry> forms_;
  std::unordered_map<std::string, std::uint32_t> by_editor_id_;  // lower case
  std::unordered_map<std::uint32_t, ScriptData> scripts_;
  std::vector<std::string> missing_;
  std::vector<std::string> mismatched_;
};

}  // namespace tesmod::script
