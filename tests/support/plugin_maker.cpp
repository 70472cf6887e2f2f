#include "plugin_maker.hpp"

#include <sys/stat.h>
#include <utime.h>

#include <algorithm>
#include <fstream>

#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/file_header.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "test_support.hpp"

namespace tesmod::test {

std::vector<std::uint8_t> make_plugin(const TestPlugin& spec) {
  Plugin p = Plugin::create(spec.game, "test.esp");
  p.set_header_flags(spec.header_flags);
  if (spec.description) p.set_description(*spec.description);
  if (!spec.masters.empty()) {
    std::vector<MasterFile> masters;
    for (const std::string& m : spec.masters) masters.push_back(MasterFile{m, 0});
    const std::uint32_t self = std::uint32_t(masters.size());
    p.set_masters(masters, std::vector<std::uint32_t>{self});
  }
  auto make = [&](const TestRecord& r) {
    Record rec(r.type, r.form_id, r.fields, r.flags);
    if (spec.game != Game::Oblivion)
      rec.set_form_version(r.form_version.value_or(spec.game == Game::SkyrimSE ? 44 : 43));
    rec.set_version_control(r.version_control);
    return rec;
  };
  static const Signature kPlaced[] = {"REFR", "ACHR", "ACRE", "PGRE", "PMIS", "PHZD", "PARW", "PBAR", "PBEA", "PCON", "PFLA"};
  std::vector<Record> placed;
  for (const TestRecord& r : spec.records) {
    if (std::find(std::begin(kPlaced), std::end(kPlaced), r.type) != std::end(kPlaced)) placed.push_back(make(r));
    else p.add(make(r));
  }
  if (!placed.empty()) {
    // CELL > block 0 > sub-block 0 > the cell, then its children > temporary > the references.
    const std::uint32_t cell_id = spec.cell.value_or(std::uint32_t(spec.masters.size()) << 24 | 0x900);
    auto group = [](std::uint32_t label, std::int32_t type) {
      GroupHeader h;
      h.label = label;
      h.type = type;
      return Group(h);
    };
    Group temporary = group(cell_id, 9);
    for (Record& r : placed) temporary.children.emplace_back(std::move(r));
    Group children = group(cell_id, 6);
    children.children.emplace_back(std::move(temporary));
    TestRecord cell_record(Signature("CELL"), cell_id, {Field::zstring("EDID", "TestCell")});
    Group sub_block = group(0, 3);
    sub_block.children.emplace_back(make(cell_record));
    sub_block.children.emplace_back(std::move(children));
    Group block = group(0, 2);
    block.children.emplace_back(std::move(sub_block));
    p.top_group(Signature("CELL")).children.emplace_back(std::move(block));
  }
  std::vector<std::uint8_t> bytes = p.serialize();
  if (spec.hedr) le::store(bytes.data() + header_size(spec.game) + 6, *spec.hedr);
  return bytes;
}

TestPlugin skyrim_se_plugin(std::vector<std::string> masters, std::vector<TestRecord> records, float hedr,
                            std::uint32_t flags) {
  TestPlugin p;
  p.game = Game::SkyrimSE;
  p.masters = std::move(masters);
  p.records = std::move(records);
  p.hedr = hedr;
  p.header_flags = flags;
  return p;
}

void set_mtime(const std::filesystem::path& path, std::int64_t seconds) {
  utimbuf t{};
  t.actime = t.modtime = time_t(seconds);
  ::utime(path.c_str(), &t);
}

void write_plugin(const std::filesystem::path& path, const TestPlugin& plugin, std::optional<std::int64_t> mtime) {
  write_file(path, make_plugin(plugin));
  if (mtime) set_mtime(path, *mtime);
}

void write_text(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

}  // namespace tesmod::test
