// Names for the forms a save refers to. A FormID's top byte indexes the save's plugin list (0xFF:
// created in game, defined by the save's created records); when a data folder is given, the
// plugins found there (names matched without regard to case) tell each form's record type,
// EditorID and full name, and whether the form exists at all.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/save/save_file.hpp"
#include "tesmod/text/form_namer.hpp"

namespace tesmod::save {

struct FormInfo {
  enum class Status {
    Unchecked,  // the defining plugin is not at hand: nothing is known beyond the FormID
    Found,
    Missing,    // the defining file was read and does not define the form
  };
  std::uint32_t form_id = 0;
  std::optional<std::string> plugin;  // the defining plugin by the save's list (not for created forms)
  bool created = false;               // 0xFF......: a record of the save itself
  Status status = Status::Unchecked;
  std::optional<Signature> record_type;
  std::optional<std::string> editor_id;  // code-page bytes, as stored
  std::optional<std::string> full_name;  // code-page bytes, as stored
};

class SaveFormNamer final : public text::FormNamer {
 public:
  // data_dir: where the save's plugins are (Oblivion's Data folder), or empty for none.
  explicit SaveFormNamer(const SaveFile& save, std::filesystem::path data_dir = {});
  ~SaveFormNamer() override;

  FormInfo describe(std::uint32_t form_id) const;

  // The EditorID when known, else `Plugin.esp:0A97DF` (the defining plugin and the object id),
  // else the 8 hex digits (created forms, top bytes past the plugin list).
  std::string name(std::uint32_t form_id) const override;
  // `Plugin.esp:ABCDEF` (1-6 hex digits), an EditorID of a plugin found in the data folder
  // (case-insensitive), or 1-8 hex digits with an optional 0x: the FormID as the save numbers it.
  std::optional<std::uint32_t> resolve(std::string_view text) const override;

  bool has_data_dir() const { return !data_dir_.empty(); }
  // Plugins of the save found in the data folder that could not be read (looked at so far), with
  // the error.
  const std::map<std::string, std::string>& plugins_unreadable() const { return unreadable_; }
  // Plugins of the save that the data folder does not hold (all of them without one).
  std::vector<std::string> plugins_not_found() const;

 private:
  struct Loaded;
  const Loaded* plugin(std::size_t index) const;
  std::optional<std::uint32_t> to_save_form_id(const PluginFile& file, std::size_t index, std::uint32_t local) const;
  void index_editor_ids() const;

  const SaveFile& save_;
  std::filesystem::path data_dir_;
  mutable std::vector<std::unique_ptr<Loaded>> loaded_;  // by plugin index; null when not tried or missing
  mutable std::vector<bool> tried_;
  mutable std::map<std::string, std::string> unreadable_;
  mutable std::optional<std::unordered_map<std::string, std::uint32_t>> by_editor_id_;  // lower case -> FormID
};

}  // namespace tesmod::save
