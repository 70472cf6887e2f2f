// LOOT's metadata files — the masterlist and the userlist — as a source of Bash Tags. Read with
// yaml-cpp (anchors and aliases; `<<` merge keys are applied here, as yaml-cpp 0.7 leaves them
// as plain keys). A plugin entry's `name` is a file name, or a regular expression when it holds
// any of the characters `:\*?|` (as LOOT decides); its `tag` list holds `Tag`, `-Tag` (the tag
// removed) or `{name: Tag, condition: '...'}`. Conditions (LOOT's condition strings) are evaluated
// for the load order at hand: file(), readable(), active(), many(), many_active(), is_master(),
// checksum(), version() and description_contains(), with not, and, or and parentheses (not binds
// tightest, then and, then or). product_version(), is_executable(), file_size(),
// filename_version(), version() of a file that is not a plugin, and any function LOOT may add
// later cannot be answered here: a condition that depends on one is skipped, and the skip names
// the function. A condition whose value does not depend on such a function (`file("A.esp") or
// product_version(...)` with A.esp present) is answered.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tesmod::patch {

enum class LootFile : std::uint8_t { Masterlist, Userlist };

struct LootTag {
  std::string name;                      // without a leading '-'
  bool removed = false;                  // written `-Tag`
  std::optional<std::string> condition;  // as written; nullopt when absent or empty (LOOT: no condition)
  std::size_t line = 0;                  // 1-based line of the tag in the file
};

struct LootPluginEntry {
  std::string name;  // as written
  bool regex = false;  // LOOT reads the name as a regular expression (ECMAScript, whole name, any case)
  std::vector<LootTag> tags;
  std::size_t line = 0;
};

struct LootMetadata {
  std::string file;  // the path as given, for messages
  LootFile kind = LootFile::Masterlist;
  std::vector<LootPluginEntry> plugins;  // in file order
};

// Reads a masterlist or userlist. Throws tesmod::Error naming the file, with the line and column,
// when it is not valid YAML or not LOOT's shape (the root not a map, plugins not a list, an entry
// without a name, tag not a list, a tag neither a string nor a map with a name, a name that is not
// a valid regular expression, a condition that does not parse, a `<<` merge of something that is
// not a map). Keys other than `plugins` (prelude, globals, groups, bash_tags) and an entry's keys
// other than `name` and `tag` are not read.
LootMetadata read_loot_metadata(const std::filesystem::path& path, LootFile kind);
// The same from text already read (name: for messages).
LootMetadata parse_loot_metadata(std::string_view text, std::string_view name, LootFile kind);

// What conditions ask about, answered for one load order. Paths are relative to the Data folder
// (`../` leading out of it), compared without regard to case; a plugin counts when it is present
// or ghosted (Name.esp.ghost). A member left empty makes the functions that need it skipped
// (except active_plugins, see there).
struct LootFacts {
  std::function<bool(std::string_view path)> file_exists;  // file(), readable(), and version() first
  // The files a regular-expression path names: the folder part (separated by '/' only, as '\\'
  // escapes inside the regex) and a regex for the whole file name (ECMAScript, any case; a
  // ghosted plugin matches by its name without .ghost). For file(regex), many() and, when
  // active_plugins is empty, active(regex) and many_active().
  std::function<std::vector<std::string>(std::string_view regex_path)> files_matching;
  std::function<bool(std::string_view plugin)> active;
  // The names of the active plugins, for active(regex) and many_active(regex). When empty, the
  // files of the Data folder that files_matching(regex) gives and active() calls active are used.
  std::function<std::vector<std::string>()> active_plugins;
  std::function<bool(std::string_view plugin)> is_master;
  std::function<std::optional<std::uint32_t>(std::string_view path)> crc32;  // nullopt: no such file
  // A plugin's version, as LOOT reads it from the description (loot_version_from_description);
  // nullopt when the plugin has none or is missing. Only asked about plugins (.esp, .esm, .esl,
  // ghosted or not): reading executables' versions is not supported, so version() of another
  // file that exists is skipped.
  std::function<std::optional<std::string>(std::string_view path)> version;
  // A plugin's description (the header's SNAM); nullopt when missing, not a plugin, or none.
  // For description_contains().
  std::function<std::optional<std::string>(std::string_view path)> description;
};

// One tag of an entry that matches the plugin, and what its condition gave.
struct LootTagDecision {
  std::string tag;
  bool removed = false;
  bool applies = false;      // no condition, or the condition holds (false when skipped)
  std::string condition;     // as written (empty: none)
  std::string skipped;       // why it was skipped when the condition could not be evaluated (e.g. "product_version() is not supported")
  LootFile from = LootFile::Masterlist;
  std::size_t line = 0;
};

// The tags every entry that matches `plugin` gives, masterlist files before userlist files (then
// in the order given), and within a file the entries whose exact name matches (any case) first,
// then the regex entries that match the whole name (any case), each in file order, each entry's
// tags in its order. Both a tag's addition and its removal are listed as they come: LOOT's rule is
// that a removal overrides an addition of the same tag (whatever the order or the file), which is
// for the caller to apply.
std::vector<LootTagDecision> loot_tags_for(std::string_view plugin, const std::vector<const LootMetadata*>& files,
                                           const LootFacts& facts);

// What a condition string gives.
struct LootConditionResult {
  bool holds = false;
  std::string skipped;  // non-empty: it could not be answered here (holds is then false), and why
};
// Why a condition string does not parse (with the character it stops at), or empty when it does.
std::string loot_condition_error(std::string_view condition);
// Evaluates a condition string. An empty (or blank) condition holds. One that does not parse is
// skipped, the reason saying why. version() of a missing file or of a plugin without a version
// holds for the comparators !=, < and <= only (a missing version is less than any: LOOT's rule for
// metadata syntax 0.18 to 0.26, which the masterlists Wrye Bash reads are written for, and what
// Wrye Bash gives by reading a missing version as 0; LOOT's syntax 0.29 makes it false for all).
LootConditionResult evaluate_loot_condition(std::string_view condition, const LootFacts& facts);

// LOOT's version order (its documented extension of SemVer: any number of numeric release parts,
// compared as numbers after padding the shorter with zeros; `.` or `,` between them; a pre-release
// after `-`, ` `, `:` or `_`, lower than the release itself; non-numeric parts compared as
// lowercased text; `+build` ignored; "0, 1, 2, 3" read as 0.1.2.3). Negative, zero or positive as
// a is less than, equal to or greater than b.
int compare_loot_versions(std::string_view a, std::string_view b);

// The version LOOT finds in a plugin's description: a `d/m/y h:m:s` timestamp, else a dotted
// version after "version" (and an optional colon) and one space, else a dotted version at the start,
// after a `v` or after a space, else a plain number at the start, after a `v` or after "version:"
// (a dotted version followed by a comma does not count). nullopt when there is none.
std::optional<std::string> loot_version_from_description(std::string_view description);

}  // namespace tesmod::patch
