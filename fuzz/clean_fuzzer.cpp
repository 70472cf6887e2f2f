// libFuzzer entry: a damaged plugin cleaned against its master (clean/clean.hpp).
//
// The target makes, once, a master and a plugin overriding it (ITMs, an edited record, a deleted
// reference with and without fields, a compressed ITM, a deleted navmesh) for Oblivion and for
// Skyrim SE. The input damages the plugin: its first byte picks the game, the next two cut bytes
// off the end, then each three bytes XOR a byte at an offset. The damaged plugin is written beside
// the master and cleaned.
//
// Oracle. Cleaning either throws tesmod::Error or gives bytes; those read back as a plugin (every
// group and record header checked), with the input's groups and records less those removed, and
// cleaning them again removes and undeletes nothing.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "damage.hpp"
#include "oracle.hpp"
#include "tesmod/clean/clean.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/file_bytes.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/record_flags.hpp"

using namespace tesmod;
namespace fs = std::filesystem;

namespace {

Field position() {
  std::vector<std::uint8_t> d(24, 0);
  le::store(d.data() + 8, 64.0f);
  return Field::bytes(Signature("DATA"), d);
}

Record record(Game game, Signature type, std::uint32_t id, std::vector<Field> fields, std::uint32_t flags = 0) {
  Record r(type, id, std::move(fields), flags);
  if (game != Game::Oblivion) r.set_form_version(44);
  return r;
}

// A plugin with the given records, the references in an interior cell's temporary children.
std::vector<std::uint8_t> make(Game game, bool master, std::vector<Record> top, std::vector<Record> placed) {
  Plugin p = Plugin::create(game, master ? "M.esm" : "P.esp");
  if (master) p.set_header_flags(record_flags::kMaster);
  else p.set_masters({MasterFile{"M.esm", 0}}, std::vector<std::uint32_t>{1});
  for (Record& r : top) p.add(std::move(r));
  auto group = [](std::uint32_t label, std::int32_t type) {
    GroupHeader h;
    h.label = label;
    h.type = type;
    return Group(h);
  };
  Group temporary = group(0x900, 9);
  for (Record& r : placed) temporary.children.emplace_back(std::move(r));
  Group children = group(0x900, 6);
  children.children.emplace_back(std::move(temporary));
  Group sub_block = group(0, 3);
  sub_block.children.emplace_back(record(game, Signature("CELL"), 0x900, {Field::zstring(Signature("EDID"), "Cell")}));
  sub_block.children.emplace_back(std::move(children));
  Group block = group(0, 2);
  block.children.emplace_back(std::move(sub_block));
  p.top_group(Signature("CELL")).children.emplace_back(std::move(block));
  return p.serialize();
}

struct Setup {
  fs::path dir;
  std::vector<std::uint8_t> plugin[2];
};

const Setup& setup() {
  static const Setup s = [] {
    Setup out;
    char name[] = "/tmp/tesmod_clean_fuzz_XXXXXX";
    out.dir = fs::path(mkdtemp(name));
    const Game games[2] = {Game::Oblivion, Game::SkyrimSE};
    for (int g = 0; g < 2; ++g) {
      const Game game = games[g];
      auto misc = [&](std::uint32_t id, const char* edid, std::uint32_t flags = 0) {
        return record(game, Signature("MISC"), id, {Field::zstring(Signature("EDID"), edid), Field::u32(Signature("DATA"), id)}, flags);
      };
      auto ref = [&](std::uint32_t id, std::uint32_t flags, bool with_fields) {
        std::vector<Field> f;
        if (with_fields) f = {Field::u32(Signature("NAME"), 0x800), position()};
        return record(game, Signature("REFR"), id, std::move(f), flags);
      };
      std::vector<Record> mtop, mplaced, ptop, pplaced;
      for (std::uint32_t id = 0x800; id < 0x806; ++id) mtop.push_back(misc(id, "Item"));
      for (std::uint32_t id = 0xA00; id < 0xA04; ++id) mplaced.push_back(ref(id, 0, true));
      mplaced.push_back(record(game, Signature("NAVM"), 0xA10, {Field::u32(Signature("DATA"), 7)}));
      ptop.push_back(misc(0x800, "Item"));
      ptop.push_back(misc(0x801, "Item", record_flags::kCompressed));
      ptop.push_back(misc(0x802, "Changed"));
      ptop.push_back(misc(0x01000800, "New"));
      pplaced.push_back(ref(0xA00, record_flags::kDeleted, false));
      pplaced.push_back(ref(0xA01, record_flags::kDeleted | record_flags::kCompressed, true));
      pplaced.push_back(ref(0xA02, 0, true));
      pplaced.push_back(record(game, Signature("NAVM"), 0xA10, {}, record_flags::kDeleted));
      fs::create_directories(out.dir / (g ? "sse" : "oblivion"));
      write_file_atomic(out.dir / (g ? "sse" : "oblivion") / "M.esm", make(game, true, std::move(mtop), std::move(mplaced)));
      out.plugin[g] = make(game, false, std::move(ptop), std::move(pplaced));
    }
    return out;
  }();
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Setup& s = setup();
  const int g = size > 0 ? data[0] & 1 : 1;
  std::vector<std::uint8_t> bytes = s.plugin[g];
  fuzz::damage(bytes, data, size);
  const fs::path dir = s.dir / (g ? "sse" : "oblivion");
  fuzz::write_bytes(dir / "P.esp", bytes);
  std::vector<std::uint8_t> cleaned;
  clean::CleanReport report;
  try {
    const loadorder::LoadOrder order = clean::open_with_masters(dir / "P.esp", dir, 1);
    const auto position = order.find("P.esp");
    TESMOD_FUZZ_CHECK(position.has_value());
    report = clean::plan_cleaning(order, *position);
    cleaned = clean::clean_bytes(order, *position, report);
  } catch (const Error&) {
    return 0;  // damage found and named
  }
  TESMOD_FUZZ_CHECK(report.crc_after == clean::crc32_of(cleaned));
  try {
    const PluginFile out = PluginFile::parse(FileBytes::hold(cleaned, "cleaned.esp"));
    TESMOD_FUZZ_CHECK(out.entries().size() == report.entry_count - report.removed.size());
    fuzz::write_bytes(dir / "C.esp", cleaned);
    const loadorder::LoadOrder order = clean::open_with_masters(dir / "C.esp", dir, 1);
    const clean::CleanReport again = clean::plan_cleaning(order, *order.find("C.esp"));
    TESMOD_FUZZ_CHECK(again.removed.empty() && again.undeleted.empty());
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    TESMOD_FUZZ_CHECK(!"the cleaned plugin does not read back");
  }
  return 0;
}
