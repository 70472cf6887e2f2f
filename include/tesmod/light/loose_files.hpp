// The loose files of the Data folder that are named by (or hold) the FormIDs of a plugin's own
// records, and so must follow them when `esl compact` renumbers the records: planned from the
// Data folder, the plugin's file name and the map of renumbered object ids, then applied.
//
// What is named by FormID (Skyrim SE; 8 hex digits = the record's FormID with the load-order
// byte as 00, i.e. "00" + the 6-hex object id, as the game and the Creation Kit name them):
//   meshes\actors\character\facegendata\facegeom\<plugin>\<8 hex>.nif   FaceGen head mesh: renamed;
//       inside, the face tint texture's path (a string of the head's BSShaderTextureSet, slot 6:
//       `textures\actors\character\facegendata\facetint\<plugin>\<8 hex>.dds`) is patched in
//       place: every `facetint\<plugin>\<8 hex>.dds` (either slash, any case) whose id is
//       renumbered gets the new digits, nothing else changes (same length, so nothing moves).
//       A head mesh whose own id is not renumbered is patched when it names a renumbered tint.
//   textures\actors\character\facegendata\facetint\<plugin>\<8 hex>.dds  FaceGen tint: renamed.
//   sound\voice\<plugin>\<voice type>\<quest>_<topic>_<8 hex>_<n>.<fuz|xwm|wav|lip>  voice files
//       of the plugin's INFOs: renamed. The EditorIDs before the id are truncated and may hold
//       underscores: the id is the second-to-last `_` part, the response number the last.
//   seq\<plugin base name>.seq   start-game-enabled quests: an array of u32 FormIDs as the
//       plugin stores them (file-relative: the plugin's own records carry its master count as
//       the top byte; xEdit writes MainRecord.FixedFormID). Entries of the plugin's own
//       renumbered quests are rewritten in place (same name, same size).
// Not handled (reported nowhere, listed here): voice files of the plugin's INFOs under a
// master's quest (xEdit's export script files them under the quest's plugin folder, where the
// 8 digits are not the plugin's); files of other frameworks that hold FormIDs in their text or
// under other names (SPID/KID/BOS ini files, DAR/OAR conditions, MCM and SKSE plugin json/toml,
// Luma's per-NPC json named by FormID, compiled scripts); script fragments (QF_/TIF__/PF_/SF_
// names carry a FormID but the plugin names them as strings, so they need no change).
//
// New hex digits keep the case style of the old ones: all lower case when the old digits had
// lower-case letters and no upper-case ones, else upper case (as the Creation Kit writes).
// Names are matched ignoring ASCII case (Windows game folders); the stored spelling of every
// folder and file is kept.
//
// The plugin's archives (`<base>.bsa`, `<base> - Textures.bsa`) may hold the same files; tesmod
// does not change archives, so every such file is listed as a warning.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tesmod::light {

enum class LooseFileKind { FaceGeom, FaceTint, Voice, Seq };
// "facegeom", "facetint", "voice", "seq".
std::string_view kind_key(LooseFileKind kind);

// Bytes of a file replaced by as many others.
struct BytePatch {
  std::uint64_t offset = 0;
  std::vector<std::uint8_t> before;
  std::vector<std::uint8_t> after;  // same size as before
};

struct LooseFileChange {
  LooseFileKind kind = LooseFileKind::FaceGeom;
  std::filesystem::path from;  // relative to Data, spelled as on disk
  std::filesystem::path to;    // relative to Data; equal to from when only the content changes
  std::vector<BytePatch> patches;  // in offset order; empty for a plain rename
  bool renamed() const { return from != to; }
};

struct LooseFileProblem {
  bool error = true;  // errors stop apply_loose_files; warnings are for the user to know
  std::string message;
};

struct LooseFilePlan {
  std::vector<LooseFileChange> changes;  // ordered by from
  std::vector<LooseFileProblem> problems;
  bool has_errors() const;
  // Nothing to change and nothing to say.
  bool empty() const { return changes.empty() && problems.empty(); }
};

struct LooseFileOptions {
  // The file index of the plugin's own records (its number of masters), for the SEQ file. When
  // absent and there is a SEQ file, it is read from the plugin's header in Data.
  std::optional<std::uint32_t> own_index;
  bool check_archives = true;  // list what the plugin's archives hold that would need a change
};

// object_map: old object id -> new (24-bit ids of the plugin's own records). Problems (errors):
// a target name that exists already and is not itself renamed away, two files renamed to one
// name, a file that cannot be read, a SEQ file whose size is not a multiple of 4 or whose
// plugin's master count cannot be found, an archive that cannot be read. Throws tesmod::Error
// when data is not a folder or an id does not fit in 24 bits.
LooseFilePlan plan_loose_files(const std::filesystem::path& data, std::string_view plugin,
                               const std::map<std::uint32_t, std::uint32_t>& object_map,
                               const LooseFileOptions& options = {});

// Writes the plan. With output: each renamed or patched file is written under output at its new
// relative path (Data untouched; unchanged files not copied). Without: in Data, each new file is
// written atomically, then the old one removed (renames that take each other's names are
// ordered, a cycle broken through a temporary name). Throws tesmod::Error before writing
// anything when the plan has errors, when a file to rename is gone, or when the bytes a patch
// replaces are no longer there.
void apply_loose_files(const LooseFilePlan& plan, const std::filesystem::path& data,
                       const std::optional<std::filesystem::path>& output);

// For --dry-run: one line per change (`from -> to`, `from: N FormIDs rewritten`), then
// `error: ...` / `warning: ...` per problem. Paths with forward slashes.
std::vector<std::string> loose_file_lines(const LooseFilePlan& plan);
// {"changes": [{"kind", "from", "to", "patches": [{"offset", "before", "after"}]}],
//  "problems": [{"error", "message"}]}; patch bytes as upper-case hex.
nlohmann::ordered_json loose_files_json(const LooseFilePlan& plan);

}  // namespace tesmod::light
