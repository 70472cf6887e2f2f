// libFuzzer entry: the Bashed Patch of a load order whose last plugin is damaged (patch/patch.hpp).
//
// The target makes, once per game (Oblivion, Skyrim SE), a master with items and two leveled
// lists (one holding the other), a plugin changing both lists and adding a new empty list to one,
// and a second plugin (made against the master and the first) changing them again, tagged Relev
// and Delev in its description. The input damages the second plugin: its first byte picks the
// game, the mode (wryebash or merge) and "remove empty sublists"; the next two cut bytes off the
// end; then each three bytes XOR a byte at an offset.
//
// Oracle. Planning either throws tesmod::Error or gives a plan whose bytes read back as a plugin
// (every header checked) holding exactly the planned records, each list's entries in the order
// the patch writes them (by level, then FormID in the patch's master order), its masters active
// plugins in load order; planning and writing again gives the same bytes.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "damage.hpp"
#include "oracle.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/file_bytes.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/patch/patch.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/subrecord.hpp"

using namespace tesmod;
namespace fs = std::filesystem;

namespace {

Field lvlo(int level, std::uint32_t form, int count) {
  std::vector<std::uint8_t> d(12, 0);
  le::store(d.data(), std::uint16_t(level));
  le::store(d.data() + 4, form);
  le::store(d.data() + 8, std::uint16_t(count));
  return Field::bytes(Signature("LVLO"), d);
}

Record list(Game game, std::uint32_t id, std::uint8_t chance, std::vector<std::pair<int, std::uint32_t>> entries) {
  std::vector<Field> f{Field::zstring(Signature("EDID"), "List")};
  if (game != Game::Oblivion) f.push_back(Field::bytes(Signature("OBND"), std::vector<std::uint8_t>(12, 0)));
  f.push_back(Field::bytes(Signature("LVLD"), std::vector<std::uint8_t>{chance}));
  f.push_back(Field::bytes(Signature("LVLF"), std::vector<std::uint8_t>{1}));
  if (game != Game::Oblivion)
    f.push_back(Field::bytes(Signature("LLCT"), std::vector<std::uint8_t>{std::uint8_t(entries.size())}));
  for (const auto& [level, form] : entries) f.push_back(lvlo(level, form, 1));
  Record r(Signature("LVLI"), id, std::move(f));
  if (game != Game::Oblivion) r.set_form_version(44);
  return r;
}

std::vector<std::uint8_t> make(Game game, const char* name, std::vector<std::string> masters, std::vector<Record> records,
                               const char* description = nullptr) {
  Plugin p = Plugin::create(game, name);
  if (masters.empty()) p.set_header_flags(record_flags::kMaster);
  std::vector<MasterFile> m;
  for (const std::string& s : masters) m.push_back({s, 0});
  if (!m.empty()) p.set_masters(m, std::vector<std::uint32_t>{std::uint32_t(m.size())});
  if (description) p.set_description(description);
  for (Record& r : records) p.add(std::move(r));
  return p.serialize();
}

struct Setup {
  fs::path dir;
  std::vector<std::uint8_t> last[2];
};

const Setup& setup() {
  static const Setup s = [] {
    Setup out;
    char name[] = "/tmp/tesmod_patch_fuzz_XXXXXX";
    out.dir = fs::path(mkdtemp(name));
    const Game games[2] = {Game::Oblivion, Game::SkyrimSE};
    for (int g = 0; g < 2; ++g) {
      const Game game = games[g];
      auto misc = [&](std::uint32_t id) {
        Record r(Signature("MISC"), id, {Field::zstring(Signature("EDID"), "Item")});
        if (game != Game::Oblivion) r.set_form_version(44);
        return r;
      };
      std::vector<Record> m;
      for (std::uint32_t id = 0x800; id < 0x808; ++id) m.push_back(misc(id));
      m.push_back(list(game, 0x900, 10, {{1, 0x800}, {5, 0x801}, {3, 0x901}}));
      m.push_back(list(game, 0x901, 0, {{2, 0x802}}));
      std::vector<Record> a;
      a.push_back(list(game, 0x900, 20, {{1, 0x800}, {7, 0x803}, {3, 0x901}, {4, 0x01000900}}));
      a.push_back(list(game, 0x901, 0, {{2, 0x802}, {2, 0x804}}));
      a.push_back(list(game, 0x01000900, 0, {}));
      std::vector<Record> b;
      b.push_back(list(game, 0x900, 30, {{9, 0x800}, {6, 0x805}, {3, 0x901}}));
      b.push_back(list(game, 0x901, 0, {{1, 0x806}}));
      b.push_back(list(game, 0x01000900, 0, {{8, 0x807}}));
      const fs::path dir = out.dir / (g ? "sse" : "oblivion");
      fs::create_directories(dir);
      write_file_atomic(dir / "M.esm", make(game, "M.esm", {}, std::move(m)));
      write_file_atomic(dir / "A.esp", make(game, "A.esp", {"M.esm"}, std::move(a)));
      out.last[g] = make(game, "B.esp", {"M.esm", "A.esp"}, std::move(b), "{{BASH:Relev,Delev}}");
    }
    return out;
  }();
  return s;
}

// The lists of a patch, each as (level, FormID) in file order.
std::vector<std::vector<std::pair<int, std::uint32_t>>> lists_of(const PluginFile& file) {
  std::vector<std::vector<std::pair<int, std::uint32_t>>> out;
  Inflater inflater;
  for (const IndexEntry& e : file.entries()) {
    if (e.is_group() || e.type != Signature("LVLI")) continue;
    auto& entries = out.emplace_back();
    for (const SubrecordView& v : read_subrecords(file.body(e, inflater), file.context(e)))
      if (v.type == Signature("LVLO") && v.data.size() >= 8)
        entries.push_back({file.game() == Game::Oblivion ? int(le::load<std::int16_t>(v.data.data())) : int(le::u16(v.data.data())),
                           le::u32(v.data.data() + 4)});
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Setup& s = setup();
  const std::uint8_t choice = size > 0 ? data[0] : 1;
  const int g = choice & 1;
  std::vector<std::uint8_t> bytes = s.last[g];
  fuzz::damage(bytes, data, size);
  const fs::path dir = s.dir / (g ? "sse" : "oblivion");
  fuzz::write_bytes(dir / "B.esp", bytes);
  patch::PatchOptions options;
  options.mode = (choice & 2) ? patch::ListMode::Merge : patch::ListMode::WryeBash;
  options.remove_empty = (choice & 4) ? patch::RemoveEmpty::On : patch::RemoveEmpty::Off;
  options.tags.data = dir;
  auto build = [&](patch::PatchPlan& plan) {
    loadorder::LoadOrderSource source;
    source.files = {dir / "M.esm", dir / "A.esp", dir / "B.esp"};
    source.threads = 1;
    const loadorder::LoadOrder order = loadorder::LoadOrder::open(source);
    plan = patch::plan_patch(order, options);
    // Masters: active plugins of the order, in load order (damage to B.esp's header flags can make
    // it a master that loads before A.esp).
    for (std::size_t i = 0; i < plan.masters.size(); ++i) {
      TESMOD_FUZZ_CHECK(order.plugin(plan.masters[i]).active);
      TESMOD_FUZZ_CHECK(i == 0 || plan.masters[i - 1] < plan.masters[i]);
    }
    return patch::patch_bytes(order, plan);
  };
  patch::PatchPlan plan;
  std::vector<std::uint8_t> out;
  try {
    out = build(plan);
  } catch (const Error&) {
    return 0;  // damage found and named
  }
  try {
    const PluginFile file = PluginFile::parse(FileBytes::hold(out, "patch.esp"));
    std::size_t records = 0;
    for (const IndexEntry& e : file.entries()) records += !e.is_group() && e.type != kHeaderRecord;
    TESMOD_FUZZ_CHECK(records == plan.records.size());
    for (const auto& entries : lists_of(file))
      for (std::size_t i = 1; i < entries.size(); ++i)
        TESMOD_FUZZ_CHECK(entries[i - 1].first < entries[i].first ||
                          (entries[i - 1].first == entries[i].first && entries[i - 1].second <= entries[i].second));
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    TESMOD_FUZZ_CHECK(!"the patch does not read back");
  }
  patch::PatchPlan again;
  TESMOD_FUZZ_CHECK(build(again) == out);
  return 0;
}
