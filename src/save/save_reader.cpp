// Parsing a save, section by section, to its last byte.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "tesmod/io/byte_reader.hpp"
#include "tesmod/io/counted.hpp"
#include "tesmod/plugin/file_kind.hpp"
#include "tesmod/save/change_type.hpp"
#include "tesmod/save/save_file.hpp"

namespace tesmod::save {
namespace {

constexpr std::size_t kCreatedHeaderSize = 20;  // Oblivion record header

SystemTime read_time(ByteReader& r, std::string_view what) {
  const std::span<const std::uint8_t> b = r.bytes(16, what);
  SystemTime t;
  std::uint16_t* fields[] = {&t.year, &t.month, &t.day_of_week, &t.day, &t.hour, &t.minute, &t.second, &t.millisecond};
  for (std::size_t i = 0; i < 8; ++i) *fields[i] = le::u16(b.data() + 2 * i);
  return t;
}

// u8 length, then that many bytes.
std::string read_byte_string(ByteReader& r, std::string_view what) {
  const std::uint8_t n = r.u8(what);
  const std::span<const std::uint8_t> b = r.bytes(n, what);
  return std::string(b.begin(), b.end());
}

// u16 size, then that many bytes.
std::span<const std::uint8_t> read_block(ByteReader& r, std::string_view what) {
  const std::uint16_t n = r.u16(what);
  return r.bytes(n, what);
}

class Parser {
 public:
  Parser(SaveFile& save, std::span<const std::uint8_t> bytes, const std::string& name)
      : save_(save), bytes_(bytes), r_(bytes, ErrorContext{name, Error::kNoOffset, std::nullopt}) {}

  void run() {
    read_headers();
    read_plugins();
    const std::uint64_t form_ids_at = read_global_data();
    read_change_records();
    save_.temporary_effects = r_.bytes(r_.u32("the temporary effects' size"), "the temporary effects");
    if (r_.file_offset() != form_ids_at)
      r_.fail(fmt::format("FormID array: the global data's formIdsOffset is 0x{:X}, but the temporary effects end here",
                          form_ids_at));
    save_.form_ids = FormIdArray(read_u32_array("the FormID array"));
    save_.world_spaces = read_u32_array("the world space list");
    if (!r_.at_end())
      r_.fail(fmt::format("{} after the world space list, where the save should end", counted(r_.remaining(), "byte")));
  }

 private:
  void read_headers() {
    const std::span<const std::uint8_t> magic = bytes_.first(std::min(bytes_.size(), kSaveMagic.size()));
    if (!looks_like_save(bytes_)) {
      const FileKind kind = file_kind(bytes_);
      if (kind == FileKind::SkyrimSave)
        r_.fail("file header: this is a Skyrim save (TESV_SAVEGAME); only Oblivion saves are supported");
      if (kind == FileKind::UnrealSave)
        r_.fail("file header: this is an Oblivion Remastered (Unreal GVAS) save, which tesmod does not read; only "
                "Oblivion's .ess saves are supported");
      if (kind == FileKind::Plugin) r_.fail("file header: this is a plugin, not a save");
      if (magic.size() >= 4 && std::memcmp(magic.data(), "CON ", 4) == 0)
        r_.fail("file header: an Xbox 360 container ('CON '); extract the save from it first");
      r_.fail("file header: expected 'TES4SAVEGAME', the start of an Oblivion save");
    }
    r_.skip(kSaveMagic.size(), "file header: magic");
    SaveHeader& h = save_.header;
    h.major_version = r_.u8("file header: majorVersion");
    h.minor_version = r_.u8("file header: minorVersion");
    h.exe_time = read_time(r_, "file header: exeTime");
    h.header_version = r_.u32("file header: headerVersion");
    const std::uint32_t header_size = r_.u32("file header: saveHeaderSize");
    const std::uint64_t header_start = r_.file_offset();
    h.save_number = r_.u32("save header: saveNum");
    h.player_name_stored = read_byte_string(r_, "save header: pcName");
    h.player_level = r_.u16("save header: pcLevel");
    h.player_location_stored = read_byte_string(r_, "save header: pcLocation");
    h.game_days = r_.f32("save header: gameDays");
    h.game_ticks = r_.u32("save header: gameTicks");
    h.save_time = read_time(r_, "save header: gameTime");
    const std::uint64_t shot_at = r_.file_offset();
    const std::uint32_t shot_size = r_.u32("screenshot: screenshotSize");
    h.screenshot.width = r_.u32("screenshot: width");
    h.screenshot.height = r_.u32("screenshot: height");
    const std::uint64_t pixel_bytes = std::uint64_t(h.screenshot.width) * h.screenshot.height * 3;
    if (pixel_bytes + 8 != shot_size)
      r_.context().fail_at(shot_at, fmt::format("screenshot: screenshotSize is {}, but {}x{} RGB pixels take 8 + {} bytes",
                                                shot_size, h.screenshot.width, h.screenshot.height, pixel_bytes));
    if (pixel_bytes > r_.remaining())
      r_.fail(fmt::format("screenshot: {}x{} RGB pixels take {} bytes but only {} remain", h.screenshot.width,
                          h.screenshot.height, pixel_bytes, r_.remaining()));
    h.screenshot.pixels = r_.bytes(static_cast<std::size_t>(pixel_bytes), "screenshot: pixels");
    if (r_.file_offset() != header_start + header_size)
      r_.fail(fmt::format("save header: saveHeaderSize {} says the header ends at 0x{:X}, but its fields end here",
                          header_size, header_start + header_size));
  }

  void read_plugins() {
    const std::uint8_t n = r_.u8("plugins: pluginCount");
    save_.plugins.reserve(n);
    for (unsigned i = 0; i < n; ++i) save_.plugins.push_back(read_byte_string(r_, "plugins: a plugin name"));
  }

  // Returns formIdsOffset.
  std::uint64_t read_global_data() {
    GlobalData& g = save_.global;
    const std::uint32_t form_ids_offset = r_.u32("global data: formIdsOffset");
    change_record_count_ = r_.u32("global data: changeRecordCount");
    g.next_object_id = r_.u32("global data: nextObjectId");
    g.world_id = r_.u32("global data: worldId");
    g.world_x = r_.i32("global data: worldX");
    g.world_y = r_.i32("global data: worldY");
    g.player_cell = r_.u32("global data: pcCell");
    g.player_x = r_.f32("global data: pcX");
    g.player_y = r_.f32("global data: pcY");
    g.player_z = r_.f32("global data: pcZ");
    const std::uint16_t globals = r_.u16("global data: globalsCount");
    g.globals.reserve(globals);
    for (unsigned i = 0; i < globals; ++i) {
      Global v;
      v.iref = r_.u32("global data: a global's iref");
      v.value = r_.f32("global data: a global's value");
      g.globals.push_back(v);
    }
    g.tes_class = read_block(r_, "global data: TES class data");
    g.processes = read_block(r_, "global data: processes");
    g.spectator_events = read_block(r_, "global data: spectator events");
    g.weather = read_block(r_, "global data: sky and weather");
    g.player_combat_count = r_.u32("global data: player combat count");
    read_created_records();
    g.quick_keys = read_block(r_, "global data: quick keys");
    g.reticule = read_block(r_, "global data: reticule");
    g.interface_state = read_block(r_, "global data: interface");
    g.regions = read_block(r_, "global data: regions");
    return form_ids_offset;
  }

  void read_created_records() {
    const std::uint32_t n = r_.u32("created records: createdCount");
    // Every record takes at least its header: no reservation past what the file can hold.
    save_.global.created.reserve(std::min<std::size_t>(n, r_.remaining() / kCreatedHeaderSize));
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint64_t at = r_.file_offset();
      if (r_.remaining() < kCreatedHeaderSize)
        r_.fail(fmt::format("created records: record {} of {}: expected a {}-byte record header but only {} remain",
                            i + 1, n, kCreatedHeaderSize, counted(r_.remaining(), "byte")));
      CreatedRecord c;
      c.header = RecordHeader::read(r_.bytes(kCreatedHeaderSize, "created records: a record header").data(), Game::Oblivion);
      c.offset = at;
      if (c.header.data_size > r_.remaining())
        throw Error(r_.context().file, at, RecordRef{c.header.type, c.header.form_id, {}},
                    fmt::format("created records: record {} of {}: its {} of data run {} past the end of the file", i + 1, n,
                                counted(c.header.data_size, "byte"), counted(c.header.data_size - r_.remaining(), "byte")));
      c.data = r_.bytes(c.header.data_size, "created records: record data");
      save_.global.created.push_back(c);
    }
  }

  void read_change_records() {
    const std::uint32_t n = change_record_count_;
    save_.change_records.reserve(std::min<std::size_t>(n, r_.remaining() / kChangeRecordHeaderSize));
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint64_t at = r_.file_offset();
      if (r_.remaining() < kChangeRecordHeaderSize)
        r_.fail(fmt::format("change records: change record {} of {}: expected a {}-byte header but only {} remain",
                            i + 1, n, kChangeRecordHeaderSize, counted(r_.remaining(), "byte")));
      const std::uint8_t* p = r_.bytes(kChangeRecordHeaderSize, "change records: a header").data();
      const std::uint32_t form_id = le::u32(p);
      const std::uint8_t type = p[4];
      const std::uint32_t flags = le::u32(p + 5);
      const std::uint8_t version = p[9];
      const std::uint16_t size = le::u16(p + 10);
      if (size > r_.remaining())
        throw Error(r_.context().file, at, RecordRef{change_type_signature(type), form_id, {}},
                    fmt::format("change records: change record {} of {}: its {} of data run {} past the end of the file",
                                i + 1, n, counted(size, "byte"), counted(size - r_.remaining(), "byte")));
      save_.change_records.emplace_back(form_id, type, flags, version, r_.bytes(size, "change record data"), at);
    }
  }

  std::vector<std::uint32_t> read_u32_array(std::string_view what) {
    const std::uint32_t n = r_.u32(what);
    if (std::uint64_t(n) * 4 > r_.remaining())
      r_.fail(fmt::format("{}: {} take {} but only {} remain", what, counted(n, "entry", "entries"),
                          counted(std::uint64_t(n) * 4, "byte"), r_.remaining()));
    std::vector<std::uint32_t> out(n);
    if (n) std::memcpy(out.data(), r_.bytes(std::size_t(n) * 4, what).data(), std::size_t(n) * 4);
    return out;
  }

  SaveFile& save_;
  std::span<const std::uint8_t> bytes_;
  ByteReader r_;
  std::uint32_t change_record_count_ = 0;
};

std::string without_terminator(const std::string& stored) {
  return !stored.empty() && stored.back() == '\0' ? stored.substr(0, stored.size() - 1) : stored;
}

}  // namespace

bool looks_like_save(std::span<const std::uint8_t> bytes) {
  return bytes.size() >= kSaveMagic.size() && std::memcmp(bytes.data(), kSaveMagic.data(), kSaveMagic.size()) == 0;
}

std::string SaveHeader::player_name() const { return without_terminator(player_name_stored); }
std::string SaveHeader::player_location() const { return without_terminator(player_location_stored); }

SaveFile SaveFile::open(const std::filesystem::path& path) { return parse(FileBytes::map(path)); }

SaveFile SaveFile::parse(std::shared_ptr<const FileBytes> bytes) {
  SaveFile save;
  save.bytes_ = std::move(bytes);
  Parser(save, save.bytes_->span(), save.bytes_->name()).run();
  return save;
}

SaveFile SaveFile::create(std::string name) {
  SaveFile save;
  save.bytes_ = FileBytes::hold({}, std::move(name));
  return save;
}

const ChangeRecord* SaveFile::find(std::uint32_t form_id, std::optional<std::uint8_t> type) const {
  for (const ChangeRecord& c : change_records)
    if (c.form_id == form_id && (!type || c.type == *type)) return &c;
  return nullptr;
}

ChangeRecord* SaveFile::find(std::uint32_t form_id, std::optional<std::uint8_t> type) {
  return const_cast<ChangeRecord*>(std::as_const(*this).find(form_id, type));
}

const ChangeRecord* SaveFile::find_actor(std::uint32_t form_id) const {
  for (const ChangeRecord& c : change_records)
    if (c.form_id == form_id && is_actor_change_type(c.type)) return &c;
  return nullptr;
}

ChangeRecord* SaveFile::find_actor(std::uint32_t form_id) {
  return const_cast<ChangeRecord*>(std::as_const(*this).find_actor(form_id));
}

const ChangeRecord* SaveFile::change_record_at(std::uint64_t offset) const {
  // Records read from the file are in file order; an edited one keeps its original offset.
  const auto after = std::upper_bound(change_records.begin(), change_records.end(), offset,
                                      [](std::uint64_t o, const ChangeRecord& c) { return o < c.offset; });
  if (after == change_records.begin()) return nullptr;
  const ChangeRecord& c = *std::prev(after);
  return offset < c.offset + kChangeRecordHeaderSize + c.data().size() ? &c : nullptr;
}

std::optional<std::string> SaveFile::plugin_of(std::uint32_t form_id) const {
  const std::uint32_t index = form_id >> 24;
  if (is_created_form_id(form_id) || index >= plugins.size()) return std::nullopt;
  return plugins[index];
}

}  // namespace tesmod::save
