// The small files that hold an exported folder together: plugin.txt (settings, the TES4 record,
// the top-level contents), _group.txt (a group's header and contents) and names.txt.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/record_header.hpp"
#include "tesmod/script/master_facts.hpp"
#include "tesmod/text/form_namer.hpp"

namespace tesmod::text::detail {

inline constexpr std::string_view kPluginFile = "plugin.txt";
inline constexpr std::string_view kNamesFile = "names.txt";
inline constexpr std::string_view kGroupFile = "_group.txt";
inline constexpr std::string_view kScriptExtension = ".obl";
inline constexpr std::string_view kFormatLine = "tesmod-text 1";

struct FolderSettings {
  Game game = Game::SkyrimSE;
  std::string plugin_name;               // the file name the export was made from
  std::string encoding = "WINDOWS-1252";
  std::uint16_t form_version = 0;        // Skyrim: the form version records have unless they say otherwise
  std::uint64_t items = 0;               // groups and records (the TES4 record not counted) at export
};

// A folder listing: names of files, and of folders with a trailing '/'.
using Contents = std::vector<std::string>;

std::string plugin_file_text(const FolderSettings& settings, std::string_view header_record_text, const Contents& top);
std::string group_file_text(const GroupHeader& header, Game game, const FormNamer& namer, const Contents& contents);
// names: master EditorIDs the field text uses; script_facts: what the scripts use of masters
// (script::plugin_master_facts), so that edited scripts compile without the masters.
std::string names_file_text(const std::map<std::string, std::uint32_t>& names, const script::MasterFacts& script_facts,
                            const FormNamer& file_namer);

struct PluginFileParts {
  FolderSettings settings;
  std::string_view header_record;   // the TES4 record's text
  std::uint32_t header_first_line;  // its first line's number in plugin.txt
  Contents top;
};
// Raises SyntaxError (line, column) for a malformed plugin.txt.
PluginFileParts parse_plugin_file(std::string_view text);
// The file list FormIDs index: the masters the header record's MAST lines name, then the plugin.
// Raises SyntaxError for a malformed MAST line.
std::vector<std::string> file_list(const PluginFileParts& parts, const TextCodec& codec);

struct GroupFileParts {
  GroupHeader header;
  Contents contents;
};
GroupFileParts parse_group_file(std::string_view text, Game game, const FormNamer& namer);

struct NamesFile {
  // (EditorID, the text of the form it names): names the field text uses.
  std::vector<std::pair<std::string, std::string>> forms;
  // `script-form NAME FORM [global]`: a master form the scripts name (the form as text).
  struct ScriptForm {
    std::string name;
    std::string form;
    bool global = false;
  };
  std::vector<ScriptForm> script_forms;
  // `script-variable OWNER.VAR INDEX TYPE`: a variable of a master form's script.
  std::vector<std::pair<std::string, script::MasterFacts::Variable>> script_variables;
};
// Raises SyntaxError (line, column) for a malformed line.
NamesFile parse_names_file(std::string_view text);

}  // namespace tesmod::text::detail
