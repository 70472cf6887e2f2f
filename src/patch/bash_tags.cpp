#include "tesmod/patch/bash_tags.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <re2/re2.h>

#include "tesmod/clean/clean.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/io/file_bytes.hpp"
#include "tesmod/loadorder/plugin_list.hpp"

namespace tesmod::patch {
namespace {

namespace fs = std::filesystem;

// The tags Wrye Bash's patchers know (facts from its game tables), sorted.
constexpr std::string_view kOblivionTags[] = {
    "Actors.ACBS", "Actors.AIData", "Actors.AIPackages", "Actors.AIPackagesForceAdd", "Actors.Anims",
    "Actors.CombatStyle", "Actors.DeathItem", "Actors.Factions", "Actors.RecordFlags", "Actors.Skeleton",
    "Actors.Spells", "Actors.SpellsForceAdd", "Actors.Stats", "C.Climate", "C.Light", "C.MiscFlags", "C.Music",
    "C.Name", "C.Owner", "C.RecordFlags", "C.Regions", "C.Water", "Creatures.Blood", "Creatures.Type", "Deactivate",
    "Delev", "EffectStats", "EnchantmentStats", "Enchantments", "Filter", "Graphics", "IIM", "Invent.Add",
    "Invent.Change", "Invent.Remove", "MustBeActiveIfImported", "NPC.Class", "NPC.Eyes", "NPC.FaceGen", "NPC.Hair",
    "NPC.Race", "Names", "NoMerge", "NpcFacesForceFullImport", "R.AddSpells", "R.Attributes-F", "R.Attributes-M",
    "R.Body-F", "R.Body-M", "R.Body-Size-F", "R.Body-Size-M", "R.ChangeSpells", "R.Description", "R.Ears", "R.Eyes",
    "R.Hair", "R.Head", "R.Mouth", "R.Relations.Add", "R.Relations.Change", "R.Relations.Remove", "R.Skills",
    "R.Teeth", "R.Voice-F", "R.Voice-M", "Relations.Add", "Relations.Change", "Relations.Remove", "Relev", "Roads",
    "Scripts", "Sound", "SpellStats", "Stats", "Text"};
constexpr std::string_view kSkyrimTags[] = {
    "Actors.ACBS", "Actors.AIData", "Actors.AIPackages", "Actors.AIPackagesForceAdd", "Actors.CombatStyle",
    "Actors.DeathItem", "Actors.Factions", "Actors.RecordFlags", "Actors.Spells", "Actors.SpellsForceAdd",
    "Actors.Stats", "Actors.Voice", "C.Acoustic", "C.Climate", "C.Encounter", "C.ForceHideLand", "C.ImageSpace",
    "C.Light", "C.Location", "C.LockList", "C.MiscFlags", "C.Music", "C.Name", "C.Owner", "C.RecordFlags",
    "C.Regions", "C.SkyLighting", "C.Water", "Deactivate", "Delev", "Destructible", "EffectStats", "EnchantmentStats",
    "Enchantments", "Filter", "Graphics", "Invent.Add", "Invent.Change", "Invent.Remove", "Keywords",
    "MustBeActiveIfImported", "NPC.AIPackageOverrides", "NPC.AttackRace", "NPC.Class", "NPC.CrimeFaction",
    "NPC.DefaultOutfit", "NPC.Perks.Add", "NPC.Perks.Change", "NPC.Perks.Remove", "NPC.Race", "Names",
    "ObjectBounds", "Outfits.Add", "Outfits.Remove", "R.AddSpells", "R.Body-Size-F", "R.Body-Size-M",
    "R.ChangeSpells", "R.Description", "R.Skills", "R.Stats", "R.Voice-F", "R.Voice-M", "Relations.Add",
    "Relations.Change", "Relations.Remove", "Relev", "Sound", "SpellStats", "Stats", "Text"};

// Old names and what they stand for now.
struct Alias {
  std::string_view old_name;
  std::string_view now[3];
};
constexpr Alias kAliases[] = {
    {"Actors.Perks.Add", {"NPC.Perks.Add"}},
    {"Actors.Perks.Change", {"NPC.Perks.Change"}},
    {"Actors.Perks.Remove", {"NPC.Perks.Remove"}},
    {"Body-F", {"R.Body-F"}},
    {"Body-M", {"R.Body-M"}},
    {"Body-Size-F", {"R.Body-Size-F"}},
    {"Body-Size-M", {"R.Body-Size-M"}},
    {"C.GridFlags", {"C.ForceHideLand"}},
    {"Derel", {"Relations.Remove"}},
    {"Eyes", {"R.Eyes"}},
    {"Eyes-D", {"R.Eyes"}},
    {"Eyes-E", {"R.Eyes"}},
    {"Eyes-R", {"R.Eyes"}},
    {"Factions", {"Actors.Factions"}},
    {"Hair", {"R.Hair"}},
    {"Invent", {"Invent.Add", "Invent.Remove"}},
    {"InventOnly", {"IIM", "Invent.Add", "Invent.Remove"}},
    {"Npc.EyesOnly", {"NPC.Eyes"}},
    {"Npc.HairOnly", {"NPC.Hair"}},
    {"NpcFaces", {"NPC.Eyes", "NPC.Hair", "NPC.FaceGen"}},
    {"R.Relations", {"R.Relations.Add", "R.Relations.Change", "R.Relations.Remove"}},
    {"Relations", {"Relations.Add", "Relations.Change"}},
    {"Voice-F", {"R.Voice-F"}},
    {"Voice-M", {"R.Voice-M"}},
};
constexpr std::string_view kObsolete[] = {"Merge", "ScriptContents"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

// A file or folder in dir whose name equals name without regard to case.
std::optional<fs::path> find_any_case(const fs::path& dir, std::string_view name) {
  std::error_code ec;
  const fs::path exact = dir / std::string(name);
  if (fs::exists(exact, ec)) return exact;
  if (!fs::is_directory(dir, ec)) return std::nullopt;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (ascii::iequals(it->path().filename().string(), name)) return it->path();
  return std::nullopt;
}

// A path relative to data ('/' or '\\' separated) found without regard to case.
std::optional<fs::path> resolve_path(const fs::path& data, std::string_view relative) {
  fs::path at = data;
  std::size_t start = 0;
  while (start <= relative.size()) {
    std::size_t end = relative.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = relative.size();
    const std::string_view part = relative.substr(start, end - start);
    if (!part.empty() && part != ".") {
      if (part == "..") {
        at = at / "..";
      } else {
        auto next = find_any_case(at, part);
        if (!next) return std::nullopt;
        at = *next;
      }
    }
    start = end + 1;
  }
  return at;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string(), Error::kNoOffset, std::nullopt, "cannot open the file");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Applies one source's tags: additions first, then removals (a tag a source both adds and
// removes ends removed, as Wrye Bash's set arithmetic has it).
struct SourceTags {
  std::vector<TagChange> added, removed;
};

void apply(PluginTags& tags, const SourceTags& s) {
  for (const TagChange& c : s.added) {
    tags.tags.insert(c.tag);
    tags.changes.push_back(c);
  }
  for (const TagChange& c : s.removed) {
    tags.tags.erase(c.tag);
    tags.changes.push_back(c);
  }
}

// Adds a written tag to s, translated; an unknown one is a warning.
void take(Game game, PluginTags& tags, SourceTags& s, std::string_view written, bool removed, std::string detail,
          std::string_view plugin_name, TagSource source) {
  bool obsolete = false;
  const std::vector<std::string> names = canonical_tags(game, written, &obsolete);
  if (names.empty()) {
    tags.warnings.push_back(fmt::format("{}: {} ({}): {}tag '{}' {}", plugin_name, tag_source_name(source), detail,
                                        removed ? "removed " : "", written,
                                        obsolete ? "is no longer used by Wrye Bash: left out"
                                                 : fmt::format("is not a tag {} knows: left out", game_title(game))));
    return;
  }
  for (const std::string& name : names) {
    std::string d = detail;
    if (!ascii::iequals(name, written)) d += fmt::format(" (written '{}')", written);
    (removed ? s.removed : s.added).push_back({name, removed, source, std::move(d)});
  }
}

std::string stem_of(std::string_view plugin) {
  const std::size_t dot = plugin.rfind('.');
  return std::string(dot == std::string_view::npos ? plugin : plugin.substr(0, dot));
}

}  // namespace

std::string_view tag_source_name(TagSource source) {
  switch (source) {
    case TagSource::Description: return "description";
    case TagSource::Masterlist: return "masterlist";
    case TagSource::Userlist: return "userlist";
    case TagSource::BashTagsFile: return "bashtags_file";
    case TagSource::CommandLine: return "command_line";
  }
  return "?";
}

std::span<const std::string_view> known_tags(Game game) {
  if (game == Game::Oblivion) return kOblivionTags;
  return kSkyrimTags;
}

bool is_known_tag(Game game, std::string_view tag) {
  const auto tags = known_tags(game);
  return std::binary_search(tags.begin(), tags.end(), tag);
}

std::vector<std::string_view> tag_alias(std::string_view name) {
  std::vector<std::string_view> out;
  for (const Alias& a : kAliases)
    if (a.old_name == name)
      for (std::string_view n : a.now)
        if (!n.empty()) out.push_back(n);
  return out;
}

std::vector<std::string> canonical_tags(Game game, std::string_view written, bool* obsolete) {
  if (obsolete) *obsolete = false;
  for (std::string_view t : known_tags(game))
    if (ascii::iequals(t, written)) return {std::string(t)};
  for (const Alias& a : kAliases) {
    if (!ascii::iequals(a.old_name, written)) continue;
    std::vector<std::string> out;
    for (std::string_view n : a.now)
      if (!n.empty() && is_known_tag(game, n)) out.emplace_back(n);
    return out;
  }
  for (std::string_view t : kObsolete)
    if (ascii::iequals(t, written) && obsolete) *obsolete = true;
  return {};
}

std::vector<std::string> tags_in_description(std::string_view description) {
  static const RE2 kBash(R"((?i)\{\{ *BASH *:([^}]+)\}\})");
  std::vector<std::string> out;
  std::string list;
  if (!RE2::PartialMatch(re2::StringPiece(description.data(), description.size()), kBash, &list)) return out;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    const std::string_view tag = trim(std::string_view(list).substr(start, end - start));
    if (!tag.empty()) out.emplace_back(tag);
    start = end + 1;
  }
  return out;
}

std::vector<TagLine> parse_tag_list(std::string_view text) {
  std::vector<TagLine> out;
  std::size_t line_no = 0, start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    ++line_no;
    start = end + 1;
    if (line_no == 1 && line.size() >= 3 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
    line = line.substr(0, line.find('#'));
    std::size_t from = 0;
    while (from <= line.size()) {
      std::size_t comma = line.find(',', from);
      if (comma == std::string_view::npos) comma = line.size();
      std::string_view entry = trim(line.substr(from, comma - from));
      from = comma + 1;
      if (entry.empty()) continue;
      bool removed = false;
      if (entry.front() == '-') {
        removed = true;
        entry = trim(entry.substr(1));
        if (entry.empty()) continue;
      }
      out.push_back({std::string(entry), removed, line_no});
    }
  }
  return out;
}

LootFacts loot_facts(const loadorder::LoadOrder& order, const fs::path& data) {
  LootFacts f;
  auto plugin_path = [&order, data](std::string_view path) -> std::optional<fs::path> {
    if (auto p = resolve_path(data, path)) return p;
    if (auto p = resolve_path(data, std::string(path) + ".ghost")) return p;
    // A plugin of the load order named by itself (files given on the command line live elsewhere).
    if (path.find_first_of("/\\") == std::string_view::npos)
      if (auto position = order.find(path)) return order.plugin(*position).path;
    return std::nullopt;
  };
  f.file_exists = [plugin_path](std::string_view path) { return plugin_path(path).has_value(); };
  f.files_matching = [data](std::string_view regex_path) {
    std::vector<std::string> out;
    // A regex path names its folder with '/' only: a '\\' is the regex's escape.
    const std::size_t slash = regex_path.rfind('/');
    const std::string_view dir = slash == std::string_view::npos ? std::string_view() : regex_path.substr(0, slash);
    const std::string pattern(slash == std::string_view::npos ? regex_path : regex_path.substr(slash + 1));
    const auto folder = resolve_path(data, dir);
    if (!folder) return out;
    RE2::Options options;
    options.set_case_sensitive(false);
    options.set_log_errors(false);
    const RE2 re(pattern, options);  // RE2: LOOT's regex syntax, matched in linear time
    if (!re.ok()) return out;
    std::error_code ec;
    for (fs::directory_iterator it(*folder, ec), end; !ec && it != end; it.increment(ec)) {
      std::string name = it->path().filename().string();
      if (name.size() > 6 && ascii::iequals(std::string_view(name).substr(name.size() - 6), ".ghost"))
        name.resize(name.size() - 6);
      if (RE2::FullMatch(name, re)) out.push_back(std::string(dir.empty() ? "" : std::string(dir) + "/") + name);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };
  f.active = [&order](std::string_view plugin) {
    const auto position = order.find(plugin);
    return position && order.plugin(*position).active;
  };
  f.active_plugins = [&order] {
    std::vector<std::string> names;
    for (const auto& p : order.plugins())
      if (p.active) names.push_back(p.name);
    return names;
  };
  f.is_master = [&order](std::string_view plugin) {
    const auto position = order.find(plugin);
    return position && order.plugin(*position).readable() && order.plugin(*position).header.is_master();
  };
  f.crc32 = [plugin_path](std::string_view path) -> std::optional<std::uint32_t> {
    const auto p = plugin_path(path);
    if (!p) return std::nullopt;
    std::error_code ec;
    if (!fs::is_regular_file(*p, ec)) return std::nullopt;
    if (fs::file_size(*p, ec) == 0) return clean::crc32_of({});
    return clean::crc32_of(FileBytes::map(*p)->span());
  };
  // The description of a plugin of the load order that path names.
  auto description = [&order, plugin_path](std::string_view path) -> std::optional<std::string> {
    const auto p = plugin_path(path);
    if (!p) return std::nullopt;
    const std::string name = p->filename().string();
    const auto position = order.find(loadorder::strip_ghost(name));
    if (!position || !order.plugin(*position).readable()) return std::nullopt;
    return order.plugin(*position).header.description;
  };
  f.description = description;
  f.version = [description](std::string_view path) -> std::optional<std::string> {
    const auto d = description(path);
    if (!d) return std::nullopt;
    return loot_version_from_description(*d);
  };
  return f;
}

std::vector<PluginTags> read_bash_tags(const loadorder::LoadOrder& order, const TagOptions& options) {
  const Game game = order.game();
  std::vector<PluginTags> out(order.plugins().size());
  const std::optional<fs::path> tag_dir =
      options.read_bash_tags_files ? find_any_case(options.data, "BashTags") : std::nullopt;
  std::optional<LootFacts> facts;
  std::vector<const LootMetadata*> loot;
  if (options.masterlist) loot.push_back(options.masterlist);
  if (options.userlist) loot.push_back(options.userlist);
  if (!loot.empty()) facts = loot_facts(order, options.data);
  for (const auto& [plugin, spec] : options.command_line)
    if (!order.find(plugin))
      throw Error(plugin, Error::kNoOffset, std::nullopt,
                  fmt::format("--tags {}={}: the plugin is not in the load order", plugin, spec));
  for (std::uint32_t position = 0; position < out.size(); ++position) {
    PluginTags& tags = out[position];
    tags.plugin = position;
    const loadorder::LoadOrderPlugin& plugin = order.plugin(position);
    if (plugin.readable() && plugin.header.description) {
      SourceTags s;
      for (const std::string& t : tags_in_description(*plugin.header.description))
        take(game, tags, s, t, false, "{{BASH:...}}", plugin.name, TagSource::Description);
      apply(tags, s);
    }
    if (!loot.empty()) {
      SourceTags s;
      const std::vector<LootTagDecision> decisions = loot_tags_for(plugin.name, loot, *facts);
      for (const LootTagDecision& d : decisions) {
        const TagSource source = d.from == LootFile::Masterlist ? TagSource::Masterlist : TagSource::Userlist;
        const LootMetadata* file = d.from == LootFile::Masterlist ? options.masterlist : options.userlist;
        std::string where = fmt::format("{} line {}", file ? file->file : std::string(), d.line);
        if (!d.skipped.empty()) {
          tags.warnings.push_back(fmt::format("{}: {} ({}): {}tag '{}' skipped: {}", plugin.name,
                                              tag_source_name(source), where, d.removed ? "removed " : "", d.tag,
                                              d.skipped));
          continue;
        }
        if (!d.applies) continue;
        if (!d.condition.empty()) where += fmt::format(", condition {} holds", d.condition);
        take(game, tags, s, d.tag, d.removed, where, plugin.name, source);
      }
      apply(tags, s);  // both files as one source, as Wrye Bash takes them
    }
    if (tag_dir) {
      if (auto file = find_any_case(*tag_dir, stem_of(plugin.name) + ".txt")) {
        SourceTags s;
        const std::string text = read_text(*file);
        for (const TagLine& t : parse_tag_list(text))
          take(game, tags, s, t.tag, t.removed, fmt::format("{} line {}", file->filename().string(), t.line),
               plugin.name, TagSource::BashTagsFile);
        apply(tags, s);
      }
    }
    for (const auto& [name, spec] : options.command_line) {
      if (!ascii::iequals(name, plugin.name)) continue;
      SourceTags s;
      for (const TagLine& t : parse_tag_list(spec))
        take(game, tags, s, t.tag, t.removed, fmt::format("--tags {}={}", name, spec), plugin.name,
             TagSource::CommandLine);
      apply(tags, s);
    }
  }
  return out;
}

}  // namespace tesmod::patch
