// An Oblivion save game (.ess), parsed to its last byte: the file and save headers with the
// screenshot, the plugin list, the global data (globals, the opaque engine blocks, the records
// created in game), every change record, the temporary effects, the FormID array that irefs
// index and the world spaces. Blocks whose contents are not decoded are kept as views of the
// file's bytes, so that writing back gives the input byte for byte; only the change records and
// the FormID array can be edited, and the writer recomputes every size and offset that depends
// on them (dataSize, changeRecordCount, formIdsOffset).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tesmod/io/byte_sink.hpp"
#include "tesmod/io/file_bytes.hpp"
#include "tesmod/plugin/record_header.hpp"
#include "tesmod/save/change_record.hpp"
#include "tesmod/save/form_id_array.hpp"

namespace tesmod::save {

inline constexpr std::string_view kSaveMagic = "TES4SAVEGAME";

// True when bytes start like an Oblivion save.
bool looks_like_save(std::span<const std::uint8_t> bytes);

// Windows SYSTEMTIME: eight u16.
struct SystemTime {
  std::uint16_t year = 0, month = 0, day_of_week = 0, day = 0, hour = 0, minute = 0, second = 0, millisecond = 0;
};

struct Screenshot {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::span<const std::uint8_t> pixels;  // width * height RGB triples, rows top to bottom
};

struct SaveHeader {
  std::uint8_t major_version = 0;
  std::uint8_t minor_version = 0;
  SystemTime exe_time;
  std::uint32_t header_version = 0;
  std::uint32_t save_number = 0;
  // bzstrings as stored (u8 length counting the terminator): the bytes after the length, so
  // that an unusual string writes back as found. player_name() drops the terminator.
  std::string player_name_stored;
  std::uint16_t player_level = 0;
  std::string player_location_stored;
  float game_days = 0;
  std::uint32_t game_ticks = 0;  // milliseconds of game time played
  SystemTime save_time;          // real time of the save
  Screenshot screenshot;

  std::string player_name() const;      // code-page bytes
  std::string player_location() const;  // code-page bytes
};

struct Global {
  std::uint32_t iref = 0;  // of the GLOB
  float value = 0;
};

// A form created in game (potion, spell, enchanted item ...): a whole mod-format record.
struct CreatedRecord {
  RecordHeader header;
  std::span<const std::uint8_t> data;  // the fields (header.data_size bytes)
  std::uint64_t offset = 0;            // of the header in the file
};

struct GlobalData {
  std::uint32_t next_object_id = 0;
  std::uint32_t world_id = 0;  // FormID of the player's world space
  std::int32_t world_x = 0, world_y = 0;
  std::uint32_t player_cell = 0;  // FormID
  float player_x = 0, player_y = 0, player_z = 0;
  std::vector<Global> globals;
  // Blocks the engine writes with a u16 size; kept as stored.
  std::span<const std::uint8_t> tes_class, processes, spectator_events, weather;
  std::uint32_t player_combat_count = 0;
  std::vector<CreatedRecord> created;
  std::span<const std::uint8_t> quick_keys, reticule, interface_state, regions;
};

class SaveFile {
 public:
  // Maps the file (read-only) and parses it. Throws tesmod::Error naming the section, the
  // offset and, inside a change record, its type and FormID.
  static SaveFile open(const std::filesystem::path& path);
  static SaveFile parse(std::shared_ptr<const FileBytes> bytes);
  // An empty save with no input, to be filled in field by field and written (name is used in
  // messages). Its views (screenshot pixels, engine blocks, temporary effects) must point at bytes
  // that outlive it; parse what to_bytes() gives for a save that owns its bytes and offsets.
  static SaveFile create(std::string name);

  const std::string& name() const { return bytes_->name(); }
  std::span<const std::uint8_t> input() const { return bytes_->span(); }

  SaveHeader header;
  std::vector<std::string> plugins;  // names as stored; index = top byte of FormIDs
  GlobalData global;
  std::vector<ChangeRecord> change_records;
  std::span<const std::uint8_t> temporary_effects;
  FormIdArray form_ids;
  std::vector<std::uint32_t> world_spaces;

  // The change record of this FormID (and type, when given), if any.
  const ChangeRecord* find(std::uint32_t form_id, std::optional<std::uint8_t> type = std::nullopt) const;
  ChangeRecord* find(std::uint32_t form_id, std::optional<std::uint8_t> type = std::nullopt);

  // The NPC_ or CREA change record of this FormID, if any.
  const ChangeRecord* find_actor(std::uint32_t form_id) const;
  ChangeRecord* find_actor(std::uint32_t form_id);

  // The change record whose header or data holds this offset of the input, if any (for
  // reports of where a difference or error lies).
  const ChangeRecord* change_record_at(std::uint64_t offset) const;

  // The plugin a FormID belongs to by its top byte; nullopt for created forms and indices past
  // the plugin list.
  std::optional<std::string> plugin_of(std::uint32_t form_id) const;

  // Writes the save. Sizes and offsets (saveHeaderSize, screenshotSize, changeRecordCount,
  // formIdsOffset, counts) are computed from the contents, so unchanged input comes back
  // byte-identical and edits keep the file consistent.
  void write(ByteSink& sink) const;
  std::vector<std::uint8_t> to_bytes() const;
  // Writes atomically (temporary file, then rename).
  void save(const std::filesystem::path& path) const;

  // What formIdsOffset will be when written.
  std::uint64_t form_ids_offset() const;

 private:
  SaveFile() = default;
  std::uint64_t write_front(ByteSink& sink, std::uint32_t form_ids_offset) const;
  std::shared_ptr<const FileBytes> bytes_;
};

}  // namespace tesmod::save
