// A plugin as a folder of editable text files (`tesmod export`), and the folder back as the
// plugin (`tesmod import`), byte for byte when nothing was edited.
//
//   DIR/plugin.txt        how to read the rest (game, code page), the TES4 header record, and the
//                         top-level contents in order
//   DIR/names.txt         EditorIDs of master forms the text uses (import needs no masters)
//   DIR/NPC_/_group.txt   a group: its header line, then its contents in order (files, and
//                         folders ending in '/')
//   DIR/NPC_/Bob [00012345].txt     a record (record_text.hpp)
//   DIR/CELL/block 0/sub-block 3/MyCell [00012346].txt   a cell with its references inline
//   DIR/DIAL/MyTopic [00012347].txt a topic with its responses inline
//   DIR/SCPT/MyScript [00012348].obl   an Oblivion script's source
//
// A plugin of more than 50,000 records (a master) is written compactly, or it would take hundreds
// of thousands of files: consecutive records of a group share a file while their FormIDs share
// their upper 16 bits (`0001xxxx.txt`, at most 1,000 records), and each sub-block of cells
// is one file (`sub-block 3.txt`, `sub-block x=-2 y=5.txt`).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/text_namer.hpp"

namespace tesmod::text {

struct ExportOptions {
  unsigned threads = 0;                      // 0: all cores
  std::string encoding = "WINDOWS-1252";     // the plugin's code page
  bool load_masters = true;                  // name master forms by EditorID when the masters are found
  std::vector<std::filesystem::path> master_dirs;  // where masters are looked for (default: beside the plugin)
  std::string language = "English";          // string tables shown beside localized string ids
  bool replace = false;                      // replace an earlier export in the target folder
};

struct ExportSummary {
  std::uint64_t records = 0;  // the TES4 record included
  std::uint64_t groups = 0;
  std::uint64_t files = 0;          // record files
  std::uint64_t folders = 0;        // group folders
  std::uint64_t script_files = 0;
  std::uint64_t hex_records = 0;     // records whose typed text did not read back: fields as hex
  std::uint64_t stored_records = 0;  // records whose fields do not read: the stored bytes
  std::uint64_t text_bytes = 0;
  std::vector<std::string> masters_missing;
  // Every file written: record files, script sources, a _group.txt per folder, plugin.txt and names.txt.
  std::uint64_t all_files() const { return files + script_files + folders + 2; }
};

// Writes the folder (atomically: into a temporary folder beside it, renamed when complete). A
// target that exists is refused unless it is an earlier export and options.replace is set;
// then it is replaced, keeping its dot files (.git, .gitattributes).
ExportSummary export_plugin(const std::filesystem::path& plugin, const std::filesystem::path& dir,
                            const ExportOptions& options = {});

// The whole plugin as one text: the settings and the header record, then every group and record
// inline, scripts inline. What `tesmod export --stdout` prints (and git shows through textconv).
std::string plugin_text(const PluginFile& file, const TextNamer& namer, const TextCodec& codec);

struct ImportOptions {
  unsigned threads = 0;                            // 0: all cores
  std::vector<std::filesystem::path> master_dirs;  // masters for names the folder does not define, and
                                                   // for compiling changed scripts (default: beside the output)
};

struct ImportSummary {
  std::uint64_t records = 0;  // the TES4 record included
  std::uint64_t groups = 0;
  std::uint64_t files = 0;
  std::vector<std::string> missing;   // listed in a _group.txt but absent: left out
  std::vector<std::string> unlisted;  // present but not listed: added at the end of their group
  std::uint64_t scripts_compiled = 0;
  std::uint64_t script_hints = 0;  // names of masters not at hand taken from names.txt's script lines
};

// Reads the folder and writes the plugin to out atomically; nothing is written unless the whole
// folder reads. Errors name the file, line and column.
ImportSummary import_plugin(const std::filesystem::path& dir, const std::filesystem::path& out,
                            const ImportOptions& options = {});

}  // namespace tesmod::text
