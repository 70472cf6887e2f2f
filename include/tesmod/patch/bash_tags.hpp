// Bash Tags: what a plugin asks Wrye Bash's patch to take from it (Relev, Delev, Names, Stats,
// Invent.Add ...). A plugin's tags come from, in this order, each source overriding the ones
// before it (as Wrye Bash orders them): its description (`{{BASH:Tag,Tag}}`, BASH in any
// case), LOOT's masterlist and userlist (`-Tag` removes), Data/BashTags/<plugin stem>.txt (`-Tag`
// removes), and the command line (`--tags PLUGIN=Tag,-Tag`). Old names are translated (Invent ->
// Invent.Add + Invent.Remove, Factions -> Actors.Factions ...); a tag the game does not know is a
// warning naming the plugin and the source, and is left out.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/patch/loot_metadata.hpp"
#include "tesmod/plugin/game.hpp"

namespace tesmod::patch {

enum class TagSource : std::uint8_t { Description, Masterlist, Userlist, BashTagsFile, CommandLine };
std::string_view tag_source_name(TagSource source);  // description, masterlist, userlist, bashtags_file, command_line

// One tag added or removed by one source.
struct TagChange {
  std::string tag;      // the game's name for it (an old name is recorded once per tag it stands for)
  bool removed = false;
  TagSource source = TagSource::Description;
  std::string detail;   // where: the file and line, the condition that held, the old name it came from
};

struct PluginTags {
  std::uint32_t plugin = 0;   // position in the load order
  std::set<std::string> tags;  // the result
  std::vector<TagChange> changes;  // every source's additions and removals, in the order applied
  std::vector<std::string> warnings;  // unknown tags, LOOT tags skipped (a condition not evaluated)

  bool has(std::string_view tag) const { return tags.count(std::string(tag)) != 0; }
};

// The tags a game's patch knows, by their current names, sorted.
std::span<const std::string_view> known_tags(Game game);
bool is_known_tag(Game game, std::string_view tag);
// What an old name stands for (Invent -> Invent.Add, Invent.Remove); empty when it is no old name.
std::vector<std::string_view> tag_alias(std::string_view name);
// The game's spelling of a tag written in any case (relev -> Relev), an old name expanded; empty
// when unknown. removed_from_wrye_bash: tags Wrye Bash no longer has (Merge, ScriptContents).
std::vector<std::string> canonical_tags(Game game, std::string_view written, bool* obsolete = nullptr);

// The tags a description names in {{BASH:...}} (as written, trimmed); empty when none.
std::vector<std::string> tags_in_description(std::string_view description);

struct TagLine {
  std::string tag;  // as written, trimmed
  bool removed = false;
  std::size_t line = 0;
};
// A BashTags file or a --tags value: tags separated by commas (and lines), `-Tag` removing,
// `#` starting a comment.
std::vector<TagLine> parse_tag_list(std::string_view text);

struct TagOptions {
  std::filesystem::path data = ".";  // BashTags/ is looked for here (any case)
  const LootMetadata* masterlist = nullptr;
  const LootMetadata* userlist = nullptr;
  // --tags PLUGIN=Tag,-Tag, in the order given.
  std::vector<std::pair<std::string, std::string>> command_line;
  bool read_bash_tags_files = true;
};

// The tags of every plugin of the load order (inactive ones too), in load order. Throws
// tesmod::Error for a BashTags file that cannot be read, or a --tags plugin that is not in the
// load order.
std::vector<PluginTags> read_bash_tags(const loadorder::LoadOrder& order, const TagOptions& options);

// The facts LOOT's conditions ask about, for this load order and Data folder.
LootFacts loot_facts(const loadorder::LoadOrder& order, const std::filesystem::path& data);

}  // namespace tesmod::patch
