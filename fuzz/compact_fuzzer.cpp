// libFuzzer entry: FormID compaction (light/compact.hpp) of a damaged plugin or dependant.
//
// The target makes, once, a Skyrim SE master whose new records lie outside the light range and
// refer to each other (keywords, a leveled list, a condition, a script property, an interior cell
// with a placed reference, a compressed record), and a dependant that overrides some and refers to
// others. The input damages one of them: its first byte picks which, the next two cut bytes off
// the end, then each three bytes XOR a byte at an offset.
//
// Oracle. Planning and compacting either throw tesmod::Error or give files; each reads back as a
// plugin (every header checked) with as many records as before; compacting the result again
// renumbers nothing.
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "damage.hpp"
#include "oracle.hpp"
#include "tesmod/fields/vmad.hpp"
#include "tesmod/io/file_bytes.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/light/compact.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/record_flags.hpp"

using namespace tesmod;
namespace fs = std::filesystem;

namespace {

Record record(Signature type, std::uint32_t id, std::vector<Field> fields, std::uint32_t flags = 0) {
  Record r(type, id, std::move(fields), flags);
  r.set_form_version(44);
  return r;
}

Field ids(Signature type, std::initializer_list<std::uint32_t> values) {
  std::vector<std::uint8_t> d;
  for (std::uint32_t v : values) {
    d.resize(d.size() + 4);
    le::store(d.data() + d.size() - 4, v);
  }
  return Field::bytes(type, d);
}

Field lvlo(std::uint32_t item) {
  std::vector<std::uint8_t> d(12, 0);
  le::store(d.data() + 4, item);
  return Field::bytes(Signature("LVLO"), d);
}

Field ctda(std::uint32_t form) {
  std::vector<std::uint8_t> d(32, 0);
  d[8] = 72;  // GetIsID
  le::store(d.data() + 12, form);
  return Field::bytes(Signature("CTDA"), d);
}

Field vmad(std::uint32_t form) {
  fields::Vmad v;
  fields::Script s;
  s.name = "S";
  s.properties.push_back({"P", fields::Property::kEdited, fields::VmadObject::form(form)});
  v.scripts.push_back(s);
  return Field::bytes(Signature("VMAD"), fields::encode_vmad(v));
}

Field edid(const char* text) { return Field::zstring(Signature("EDID"), text); }

std::vector<std::uint8_t> make(bool master) {
  Plugin p = Plugin::create(Game::SkyrimSE, master ? "M.esm" : "D.esp");
  if (master) {
    p.set_header_flags(record_flags::kMaster);
    p.set_masters({MasterFile{"Skyrim.esm", 0}}, std::vector<std::uint32_t>{1});
  } else {
    p.set_masters({MasterFile{"Skyrim.esm", 0}, MasterFile{"M.esm", 0}}, std::vector<std::uint32_t>{2});
  }
  const std::uint32_t mi = 0x01000000;  // M.esm's records: index 1 in both (after Skyrim.esm)
  if (master) {
    p.add(record(Signature("KYWD"), mi | 0x12345, {edid("A")}));
    p.add(record(Signature("KYWD"), mi | 0x00100, {edid("B")}));
    p.add(record(Signature("KYWD"), mi | 0x00900, {edid("C")}));
    p.add(record(Signature("MISC"), mi | 0x20000, {edid("M"), ids(Signature("KSIZ"), {2}), ids(Signature("KWDA"), {mi | 0x12345, mi | 0x100})}));
    p.add(record(Signature("LVLI"), mi | 0x20001, {edid("L"), lvlo(mi | 0x20000), lvlo(mi | 0x900)}, record_flags::kCompressed));
    p.add(record(Signature("SPEL"), mi | 0x20002, {edid("S"), vmad(mi | 0x20001), ctda(mi | 0x12345)}));
  } else {
    p.add(record(Signature("KYWD"), mi | 0x12345, {edid("A2")}));
    p.add(record(Signature("LVLI"), 0x02000800, {edid("DL"), lvlo(mi | 0x20000), lvlo(mi | 0x100)}));
    p.add(record(Signature("SPEL"), 0x02000801, {edid("DS"), vmad(mi | 0x12345), ctda(mi | 0x20001)}, record_flags::kCompressed));
  }
  auto group = [](std::uint32_t label, std::int32_t type) {
    GroupHeader h;
    h.label = label;
    h.type = type;
    return Group(h);
  };
  const std::uint32_t cell = mi | 0x3000A;
  Group temporary = group(cell, 9);
  temporary.children.emplace_back(record(Signature("REFR"), master ? mi | 0x3000B : 0x02000802, {ids(Signature("NAME"), {mi | 0x20000})}));
  Group children = group(cell, 6);
  children.children.emplace_back(std::move(temporary));
  Group sub_block = group(0, 3);
  sub_block.children.emplace_back(record(Signature("CELL"), cell, {edid("Cell")}));
  sub_block.children.emplace_back(std::move(children));
  Group block = group(0, 2);
  block.children.emplace_back(std::move(sub_block));
  p.top_group(Signature("CELL")).children.emplace_back(std::move(block));
  return p.serialize();
}

struct Setup {
  fs::path dir;
  std::vector<std::uint8_t> files[2];  // M.esm, D.esp
  std::vector<std::uint8_t> game_master;
};

const Setup& setup() {
  static const Setup s = [] {
    Setup out;
    char name[] = "/tmp/tesmod_compact_fuzz_XXXXXX";
    out.dir = fs::path(mkdtemp(name));
    Plugin skyrim = Plugin::create(Game::SkyrimSE, "Skyrim.esm");
    skyrim.set_header_flags(record_flags::kMaster);
    skyrim.add(record(Signature("KYWD"), 0x00000800, {edid("Game")}));
    out.game_master = skyrim.serialize();
    out.files[0] = make(true);
    out.files[1] = make(false);
    return out;
  }();
  return s;
}

std::size_t record_count(const std::vector<std::uint8_t>& bytes) {
  const PluginFile file = PluginFile::parse(FileBytes::hold(bytes, "x.esp"));
  std::size_t n = 0;
  for (const IndexEntry& e : file.entries())
    if (!e.is_group()) ++n;
  return n;
}

// The Skyrim SE load order in dir (its plugins.txt), read on one thread.
loadorder::LoadOrder open_order(const fs::path& dir) {
  loadorder::LoadOrderSource source;
  source.data = dir;
  source.game = Game::SkyrimSE;
  source.threads = 1;
  return loadorder::LoadOrder::open(source);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Setup& s = setup();
  const int which = size > 0 ? data[0] & 1 : 0;
  std::vector<std::uint8_t> damaged = s.files[which];
  fuzz::damage(damaged, data, size);
  const fs::path in = s.dir / "in", again_dir = s.dir / "again";
  fs::create_directories(in);
  fs::create_directories(again_dir);
  fuzz::write_bytes(in / "Skyrim.esm", s.game_master);
  fuzz::write_bytes(in / "M.esm", which == 0 ? damaged : s.files[0]);
  fuzz::write_bytes(in / "D.esp", which == 1 ? damaged : s.files[1]);
  std::vector<light::CompactedFile> files;
  try {
    const loadorder::LoadOrder order = open_order(in);
    const auto position = order.find("M.esm");
    if (!position) return 0;
    const light::CompactPlan plan = light::plan_compaction(order, *position);
    files = light::compact_files(order, plan);
  } catch (const Error&) {
    return 0;  // damage found and named
  }
  // What was written reads back, with every record kept; compacting it again renumbers nothing.
  fuzz::write_bytes(again_dir / "Skyrim.esm", s.game_master);
  fuzz::write_bytes(again_dir / "M.esm", which == 0 ? damaged : s.files[0]);
  fuzz::write_bytes(again_dir / "D.esp", which == 1 ? damaged : s.files[1]);
  for (const light::CompactedFile& f : files) {
    try {
      const std::vector<std::uint8_t>& before = f.name == "M.esm" ? (which == 0 ? damaged : s.files[0])
                                                                  : (which == 1 ? damaged : s.files[1]);
      TESMOD_FUZZ_CHECK(record_count(f.bytes) == record_count(before));
    } catch (const Error& e) {
      std::fprintf(stderr, "%s\n", e.what());
      TESMOD_FUZZ_CHECK(!"a compacted file does not read back");
    }
    fuzz::write_bytes(again_dir / f.name, f.bytes);
  }
  try {
    const loadorder::LoadOrder order = open_order(again_dir);
    const light::CompactPlan again = light::plan_compaction(order, *order.find("M.esm"));
    TESMOD_FUZZ_CHECK(again.renumbered.empty());
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    TESMOD_FUZZ_CHECK(!"the compacted order does not plan again");
  }
  return 0;
}
