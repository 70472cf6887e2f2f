// Writing a save back: every size, count and offset is computed from the contents.
#include <fmt/format.h>

#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/save/save_file.hpp"

namespace tesmod::save {
namespace {

// Counts bytes without keeping them: the first pass that finds where sections will land.
class CountingSink final : public ByteSink {
 public:
  void write(std::span<const std::uint8_t> bytes) override { n_ += bytes.size(); }
  std::uint64_t position() const override { return n_; }

 private:
  std::uint64_t n_ = 0;
};

class Out {
 public:
  explicit Out(ByteSink& sink) : sink_(sink) {}
  template <class T>
  void put(T v) {
    std::uint8_t b[sizeof(T)];
    le::store(b, v);
    sink_.write(b);
  }
  // Empty writes are skipped: an empty vector's data() may be null, which sinks need not take.
  void bytes(std::span<const std::uint8_t> b) {
    if (!b.empty()) sink_.write(b);
  }
  void bytes(const std::string& s) { bytes({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}); }
  void time(const SystemTime& t) {
    for (std::uint16_t v : {t.year, t.month, t.day_of_week, t.day, t.hour, t.minute, t.second, t.millisecond}) put(v);
  }
  void byte_string(const std::string& s) {
    put(static_cast<std::uint8_t>(s.size()));
    bytes(s);
  }
  void block(std::span<const std::uint8_t> b) {
    put(static_cast<std::uint16_t>(b.size()));
    bytes(b);
  }

 private:
  ByteSink& sink_;
};

}  // namespace

// Everything before the change records; returns the bytes written.
std::uint64_t SaveFile::write_front(ByteSink& sink, std::uint32_t form_ids_offset) const {
  const std::uint64_t start = sink.position();
  Out o(sink);
  const SaveHeader& h = header;
  o.bytes({reinterpret_cast<const std::uint8_t*>(kSaveMagic.data()), kSaveMagic.size()});
  o.put(h.major_version);
  o.put(h.minor_version);
  o.time(h.exe_time);
  o.put(h.header_version);
  const std::uint64_t header_size = 4 + 1 + h.player_name_stored.size() + 2 + 1 + h.player_location_stored.size() + 4 +
                                    4 + 16 + 12 + h.screenshot.pixels.size();
  o.put(static_cast<std::uint32_t>(header_size));
  o.put(h.save_number);
  o.byte_string(h.player_name_stored);
  o.put(h.player_level);
  o.byte_string(h.player_location_stored);
  o.put(h.game_days);
  o.put(h.game_ticks);
  o.time(h.save_time);
  o.put(static_cast<std::uint32_t>(8 + h.screenshot.pixels.size()));
  o.put(h.screenshot.width);
  o.put(h.screenshot.height);
  o.bytes(h.screenshot.pixels);

  o.put(static_cast<std::uint8_t>(plugins.size()));
  for (const std::string& p : plugins) o.byte_string(p);

  const GlobalData& g = global;
  o.put(form_ids_offset);
  o.put(static_cast<std::uint32_t>(change_records.size()));
  o.put(g.next_object_id);
  o.put(g.world_id);
  o.put(g.world_x);
  o.put(g.world_y);
  o.put(g.player_cell);
  o.put(g.player_x);
  o.put(g.player_y);
  o.put(g.player_z);
  o.put(static_cast<std::uint16_t>(g.globals.size()));
  for (const Global& v : g.globals) {
    o.put(v.iref);
    o.put(v.value);
  }
  o.block(g.tes_class);
  o.block(g.processes);
  o.block(g.spectator_events);
  o.block(g.weather);
  o.put(g.player_combat_count);
  o.put(static_cast<std::uint32_t>(g.created.size()));
  for (const CreatedRecord& c : g.created) {
    std::uint8_t head[20];
    RecordHeader rh = c.header;
    rh.data_size = static_cast<std::uint32_t>(c.data.size());
    rh.write(head, Game::Oblivion);
    o.bytes(head);
    o.bytes(c.data);
  }
  o.block(g.quick_keys);
  o.block(g.reticule);
  o.block(g.interface_state);
  o.block(g.regions);
  return sink.position() - start;
}

std::uint64_t SaveFile::form_ids_offset() const {
  CountingSink count;
  std::uint64_t at = write_front(count, 0);
  for (const ChangeRecord& c : change_records) at += kChangeRecordHeaderSize + c.data().size();
  return at + 4 + temporary_effects.size();
}

void SaveFile::write(ByteSink& sink) const {
  const std::uint64_t form_ids_at = form_ids_offset();
  if (form_ids_at > 0xFFFFFFFFu)
    throw Error(name(), Error::kNoOffset, std::nullopt,
                fmt::format("the FormID array would start at offset {}, past what the u32 formIdsOffset can hold", form_ids_at));
  write_front(sink, static_cast<std::uint32_t>(form_ids_at));
  Out o(sink);
  for (const ChangeRecord& c : change_records) {
    const std::span<const std::uint8_t> data = c.data();
    std::uint8_t head[kChangeRecordHeaderSize];
    le::store(head, c.form_id);
    head[4] = c.type;
    le::store(head + 5, c.flags);
    head[9] = c.version;
    le::store(head + 10, static_cast<std::uint16_t>(data.size()));
    o.bytes(head);
    o.bytes(data);
  }
  o.put(static_cast<std::uint32_t>(temporary_effects.size()));
  o.bytes(temporary_effects);
  o.put(static_cast<std::uint32_t>(form_ids.size()));
  o.bytes({reinterpret_cast<const std::uint8_t*>(form_ids.ids().data()), form_ids.size() * 4});
  o.put(static_cast<std::uint32_t>(world_spaces.size()));
  o.bytes({reinterpret_cast<const std::uint8_t*>(world_spaces.data()), world_spaces.size() * 4});
}

std::vector<std::uint8_t> SaveFile::to_bytes() const {
  MemorySink sink(input().size() + 4096);
  write(sink);
  return std::move(sink.bytes());
}

void SaveFile::save(const std::filesystem::path& path) const {
  AtomicFile out(path);
  write(out);
  out.commit();
}

}  // namespace tesmod::save
