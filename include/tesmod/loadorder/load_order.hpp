// A load order: the plugins a game loads, in order, with their load-order indices, found the way
// the game and LOOT's libloadorder find them (see "Load orders" in README.md):
//
//   Oblivion     plugins.txt lists the active plugins; the order is the files' modification
//                times (ties by name), masters (ESM flag) before the other plugins.
//   Skyrim LE    loadorder.txt gives the order, plugins.txt the active plugins; Skyrim.esm first,
//                Update.esm always active. When the two files disagree, loadorder.txt wins and a
//                problem says so.
//   Skyrim SE    plugins.txt gives the order, `*` before the active plugins; Skyrim.esm,
//                Update.esm, Dawnguard.esm, HearthFires.esm, Dragonborn.esm and the plugins
//                Skyrim.ccc names are active and load first when present; light plugins (ESL
//                flag or .esl) take FE slots.
//   Oblivion Remastered
//                Oblivion's plugin format (game() is Game::Oblivion; rules() says which game):
//                Plugins.txt in the Data folder (.../OblivionRemastered/Content/Dev/ObvData/Data)
//                lists the active plugins in load order, one name a line, no `*`; a loadorder.txt
//                beside it (written by LOOT's libloadorder) gives the order of every plugin, as in
//                Skyrim LE. Nothing is active unless listed (a problem when Oblivion.esm is not);
//                the ESM flag moves no plugin, nor do masters (libloadorder reorders nothing for
//                this game): no plugin is `master`, and a master loading after a plugin needing it
//                is reported, not moved.
//   Every game   plugins in the data folder that the lists do not name load after those they
//                name (by modification time), inactive; masters load before other plugins; a
//                master that would load after a plugin needing it is moved before it (not in
//                Oblivion Remastered, above); a `.ghost` file counts as the plugin.
//
// Opening reads each plugin's file header only. Records are read when asked for (file(),
// versions(), winning()), and then only from the plugins that can hold them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/loadorder/form_key.hpp"
#include "tesmod/plugin/file_header.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/plugin_bytes.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/plugin_outline.hpp"

namespace tesmod::loadorder {

// Which rules put the plugins in order, where the plugins' container format (Game) does not tell:
// Oblivion Remastered reads Oblivion's plugins (Game::Oblivion everywhere a format is meant) but
// orders them by its Plugins.txt alone (see the comment at the top).
enum class OrderRules : std::uint8_t {
  Format,              // the rules of the game the format names: Oblivion, Skyrim LE or Skyrim SE
  OblivionRemastered,  // Oblivion Remastered (with Game::Oblivion)
};

struct LoadOrderSource {
  std::filesystem::path data = ".";                    // the Data folder
  std::optional<std::filesystem::path> plugins_file;   // default: DATA/plugins.txt (any case)
  std::optional<std::filesystem::path> load_order_file;  // Skyrim LE; default: loadorder.txt beside plugins.txt
  std::optional<Game> game;                            // default: from the plugins' headers and the lists
  // Default: Oblivion Remastered when `game` is not given, the plugins are Oblivion's and the data
  // folder's path (or, for `files`, a file's folder) ends in ObvData/Data (any case); else Format.
  // OblivionRemastered sets the game to Game::Oblivion (with another `game`, open() throws
  // tesmod::Error).
  std::optional<OrderRules> rules;
  // When given, the load order is these files, in this order, all active (the data folder and
  // the lists are not read); a master they need and do not name is taken from the folder of
  // the plugin that needs it.
  std::vector<std::filesystem::path> files;
  unsigned threads = 0;  // 0: all cores
};

// Sets source.game and source.rules from a game id as `--game` takes it: oblivion, skyrim,
// skyrimse (and the aliases tesmod::parse_game knows) or oblivionremastered. False for any other.
bool select_game(LoadOrderSource& source, std::string_view id);
// The ids select_game takes, for messages: "oblivion, skyrim, skyrimse or oblivionremastered".
inline constexpr std::string_view kGameIds = "oblivion, skyrim, skyrimse or oblivionremastered";

// Where a plugin loads: a full index (00-FE; FD is the last in Skyrim SE, whose FE holds the
// light plugins) or a light plugin's slot under FE (000-FFF).
struct LoadIndex {
  bool light = false;
  std::uint16_t value = 0;

  std::string text() const;  // "0A", "FE 001"
  // The load-order FormID of an object of the plugin at this index.
  std::uint32_t form_id(std::uint32_t object_id) const {
    return light ? 0xFE000000u | std::uint32_t(value) << 12 | (object_id & 0xFFF)
                 : std::uint32_t(value) << 24 | (object_id & 0xFFFFFF);
  }
};

struct LoadOrderPlugin {
  std::string name;             // as the data folder spells it, without .ghost (UTF-8)
  std::filesystem::path path;   // the file read (ending in .ghost when ghosted)
  bool ghosted = false;
  bool active = false;
  bool master = false;          // loads with the masters: ESM flag (Skyrim SE: also .esm, .esl;
                                // Oblivion Remastered: never, the flag orders nothing there)
  bool light = false;           // Skyrim SE: ESL flag or .esl
  std::optional<LoadIndex> index;  // active plugins whose header reads, within the limits
  std::vector<std::string> masters;                       // as the header names them
  std::vector<std::optional<std::uint32_t>> master_positions;  // each master's position here
  FileHeader header;
  Game format = Game::Oblivion;  // the file's own container format (as its header tells)
  std::string error;             // the header could not be read: why (then only name and path are known)

  bool readable() const { return error.empty(); }
};

struct Problem {
  std::string file;     // the plugin or list file it is about
  std::string message;  // what is wrong (with the line or byte offset where it applies)
};

// A record as one plugin holds it.
struct RecordVersion {
  std::uint32_t plugin = 0;  // position in LoadOrder::plugins()
  IndexEntry entry{};        // its index entry in that plugin (offset, type, flags, FormID)
};

// A form and its versions, in load order.
struct FormVersions {
  FormKey form;
  std::vector<RecordVersion> versions;
};

class RecordTypeTable;

class LoadOrder {
 public:
  // Reads the lists and every plugin's file header. Throws tesmod::Error only when the data
  // folder cannot be read or an explicit list file does not exist; everything else (a list
  // naming a missing plugin, a bad line, a damaged plugin, a missing master) is a problem.
  static LoadOrder open(const LoadOrderSource& source);

  LoadOrder(LoadOrder&&) noexcept;
  LoadOrder& operator=(LoadOrder&&) noexcept;
  ~LoadOrder();

  // The plugins' container format (Game::Oblivion for Oblivion Remastered too).
  Game game() const { return game_; }
  // The rules the order follows, and the game they name: its id as JSON and --game write it
  // ("oblivionremastered", else tesmod::game_id(game())) and its name ("Oblivion Remastered").
  OrderRules rules() const { return rules_; }
  std::string_view game_id() const;
  std::string_view game_title() const;
  // Every plugin found, active or not, in load order.
  std::span<const LoadOrderPlugin> plugins() const { return plugins_; }
  const LoadOrderPlugin& plugin(std::uint32_t position) const { return plugins_[position]; }
  // Positions of the active plugins that have an index, in load order.
  const std::vector<std::uint32_t>& active() const { return active_; }
  const std::vector<Problem>& problems() const { return problems_; }
  // Position of a plugin by file name (case-insensitive), if it is in the load order.
  std::optional<std::uint32_t> find(std::string_view name) const;
  unsigned threads() const { return threads_; }

  // ---- FormIDs ----
  // The form a FormID stored in plugin `position` names; nullopt when its file index names a
  // master that is not in the load order. An index past the master list names the plugin itself,
  // as the game reads it (tesmod check reports it).
  std::optional<FormKey> key(std::uint32_t position, std::uint32_t stored_form_id) const;
  // The game's load-order FormID of a form; nullopt when its plugin has no index (inactive).
  std::optional<std::uint32_t> load_order_form_id(const FormKey& key) const;
  // The form a load-order FormID names, if an active plugin has that index.
  std::optional<FormKey> from_load_order_form_id(std::uint32_t form_id) const;
  // The FormID plugin `position` stores for the form; nullopt when the plugin cannot name it
  // (its plugin is neither the plugin itself nor one of its masters).
  std::optional<std::uint32_t> stored_form_id(std::uint32_t position, const FormKey& key) const;

  // ---- records, read on demand ----
  // The plugin's full index (every header checked), read on first use; thread-safe. Throws
  // tesmod::Error (naming the file and offset) for a plugin that does not read.
  const PluginFile& file(std::uint32_t position) const;
  // Reads the full indices of these plugins as file() would, several at once (the largest
  // first). A plugin that does not read keeps its error for file() to throw.
  void read_files(std::span<const std::uint32_t> positions) const;
  // The plugin's records (not its TES4 header) that want keeps, in file order: every header is
  // checked as file() checks them, but no index of the rest is built (the top-level groups are
  // shared among the threads); from the full index when it is read already. Each record's end is
  // its index in file()'s entries + 1, as there (parent not set); entry_count, when given, is set
  // to the number of entries file() holds. For the few records of a large master that other
  // plugins override, or its deleted ones. Throws tesmod::Error as file() does.
  std::vector<IndexEntry> find_records(std::uint32_t position, const RecordWanted& want,
                                       std::uint32_t* entry_count = nullptr) const;
  // Whether file(position) has been read (without reading it).
  bool is_read(std::uint32_t position) const;
  // The first record with this stored FormID in the plugin, if any (a hash index over the
  // plugin's records, built on first use).
  std::optional<IndexEntry> find_record(std::uint32_t position, std::uint32_t stored_form_id) const;
  // The type of the first record with this stored FormID in the plugin, from a compact table of
  // the plugin's records built on first use (two bytes per object id: it stays in cache where the
  // hash index of find_record does not); nullopt when the plugin has none. Thread-safe.
  std::optional<Signature> record_type(std::uint32_t position, std::uint32_t stored_form_id) const;
  // The plugin's records whose FormID an earlier record of it has: (entry index, the first one's
  // entry index), by entry index (from the same table).
  std::span<const std::pair<std::uint32_t, std::uint32_t>> duplicate_form_ids(std::uint32_t position) const;
  // The type of the record a form names, looked for only among records of these types in its
  // defining plugin (only the groups that hold them are read, unless the plugin's full index is
  // read already); nullopt when it is none of them (or the plugin does not read). Thread-safe.
  std::optional<Signature> record_type_in(const FormKey& key, std::span<const Signature> types) const;

  // Every active plugin's version of the form, in load order: the defining plugin's first (when
  // it has the record), then its overrides. Reads only the plugins that can hold the form (the
  // defining plugin and those that name it as a master).
  std::vector<RecordVersion> versions(const FormKey& key) const;
  // The last of versions(key).
  std::optional<RecordVersion> winner(const FormKey& key) const;
  // The winning version of every record of this type among the active plugins, in order of the
  // record's first appearance in the load order. Reads only the groups where the format keeps
  // that type (top-level groups of that type; cells, worlds and topics for the types nested there).
  std::vector<RecordVersion> winning(Signature type) const;
  // Every active plugin's version of every record of this type, per form, in load order (the
  // forms in order of their first appearance). Reads only the groups where the format keeps that
  // type, as winning() does.
  std::vector<FormVersions> versions_of(Signature type) const;
  // The bytes of a version's plugin (for reading its record: PluginBytes::body etc.).
  const PluginBytes& bytes(std::uint32_t position) const;

 private:
  LoadOrder();
  struct Lazy;
  const PluginFile& open_file(std::uint32_t position, unsigned threads) const;
  const RecordTypeTable& type_table(std::uint32_t position) const;
  Game game_ = Game::Oblivion;
  OrderRules rules_ = OrderRules::Format;
  unsigned threads_ = 1;
  std::vector<LoadOrderPlugin> plugins_;
  std::vector<std::uint32_t> active_;
  std::vector<Problem> problems_;
  std::vector<std::unique_ptr<Lazy>> lazy_;  // per plugin: its outline, full index, FormID index
  friend struct LoadOrderBuilder;
};

}  // namespace tesmod::loadorder
