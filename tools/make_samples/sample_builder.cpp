#include "sample_builder.hpp"

#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod::samples {
namespace {

std::vector<std::uint8_t> u32s(std::initializer_list<std::uint32_t> values) {
  std::vector<std::uint8_t> out(values.size() * 4);
  std::size_t i = 0;
  for (std::uint32_t v : values) le::store(out.data() + 4 * i++, v);
  return out;
}

std::vector<std::uint8_t> floats(std::initializer_list<float> values) {
  std::vector<std::uint8_t> out(values.size() * 4);
  std::size_t i = 0;
  for (float v : values) le::store(out.data() + 4 * i++, v);
  return out;
}

// A field of n bytes of a repeating pattern (compresses well, like real navmesh data).
Field pattern(Signature type, std::size_t n) {
  Field f{type, std::vector<std::uint8_t>(n)};
  for (std::size_t i = 0; i < n; ++i) f.data[i] = std::uint8_t((i * 7) ^ (i >> 5));
  return f;
}

// CELL top group > block > sub-block > CELL + its children > temporary children > REFR.
void add_interior_cell(Plugin& p, std::uint32_t cell_id, std::uint32_t ref_id, std::uint32_t base_id, bool oblivion) {
  GroupHeader block{0, 0, 2, 0, 0};
  GroupHeader sub_block{0, 0, 3, 0, 0};
  Group& top = p.top_group(Signature("CELL"));
  top.children.emplace_back(Group(block));
  Group& b = top.children.back().group();
  b.children.emplace_back(Group(sub_block));
  Group& sb = b.children.back().group();
  std::vector<Field> cell{Field::zstring("EDID", "TesmodSampleRoom"), Field::zstring("FULL", "Sample Room"),
                          Field::bytes("DATA", std::vector<std::uint8_t>(oblivion ? 1 : 2, 1))};
  Record c(Signature("CELL"), cell_id, std::move(cell));
  if (!oblivion) c.set_form_version(p.game() == Game::SkyrimSE ? 44 : 43);
  sb.children.emplace_back(std::move(c));
  sb.children.emplace_back(Group(GroupHeader{0, cell_id, 6, 0, 0}));
  Group& children = sb.children.back().group();
  children.children.emplace_back(Group(GroupHeader{0, cell_id, 9, 0, 0}));
  Group& temp = children.children.back().group();
  std::vector<Field> ref{Field::u32("NAME", base_id), Field::bytes("DATA", floats({128, 64, 0, 0, 0, 1.5708f}))};
  Record r(Signature("REFR"), ref_id, std::move(ref));
  if (!oblivion) r.set_form_version(p.game() == Game::SkyrimSE ? 44 : 43);
  temp.children.emplace_back(std::move(r));
}

void add_topic(Plugin& p, std::uint32_t dial_id, std::uint32_t info_id, bool oblivion) {
  Group& top = p.top_group(Signature("DIAL"));
  Record dial(Signature("DIAL"), dial_id, {Field::zstring("EDID", "TesmodSampleTopic"), Field::zstring("FULL", "Hello")});
  if (!oblivion) dial.set_form_version(p.game() == Game::SkyrimSE ? 44 : 43);
  top.children.emplace_back(std::move(dial));
  top.children.emplace_back(Group(GroupHeader{0, dial_id, 7, 0, 0}));
  Record info(Signature("INFO"), info_id, {Field::zstring("NAM1", "Well met, traveller.")});
  if (!oblivion) info.set_form_version(p.game() == Game::SkyrimSE ? 44 : 43);
  top.children.back().group().children.emplace_back(std::move(info));
}

Plugin build(Game game, const std::string& name) {
  const bool oblivion = game == Game::Oblivion;
  Plugin p = Plugin::create(game, name);
  p.set_author("tesmod");
  p.set_description("Sample plugin written by tesmod's own writer");

  const std::uint32_t coin = p.allocate_form_id();
  p.add(Record("MISC", coin,
               {Field::zstring("EDID", "TesmodSampleCoin"), Field::zstring("FULL", "Sample Coin"),
                Field::zstring("MODL", "Clutter\\Coin01.nif"), Field::bytes("DATA", u32s({25, 0x3DCCCCCD}))}));
  const std::uint32_t note = p.allocate_form_id();
  p.add(Record("BOOK", note,
               {Field::zstring("EDID", "TesmodSampleNote"), Field::zstring("FULL", "A Note on Bytes"),
                Field::zstring("DESC", "Whatever is read and not changed is written back byte for byte.")}));
  // Compressed: stored as u32 size + zlib stream.
  const std::uint32_t atlas = p.allocate_form_id();
  p.add(Record("STAT", atlas, {Field::zstring("EDID", "TesmodSampleCompressed"), pattern("MODT", 3000)},
               record_flags::kCompressed));
  // Oversize: a field over 65535 bytes, written with an XXXX size prefix.
  const std::uint32_t big = p.allocate_form_id();
  p.add(Record("STAT", big, {Field::zstring("EDID", "TesmodSampleOversize"), pattern("MODT", 70000)}));
  const std::uint32_t deleted = p.allocate_form_id();
  p.add(Record("MISC", deleted, {Field::zstring("EDID", "TesmodSampleDeleted")}, record_flags::kDeleted));

  // Allocated one statement at a time: argument evaluation order is unspecified.
  const std::uint32_t cell = p.allocate_form_id();
  const std::uint32_t ref = p.allocate_form_id();
  add_interior_cell(p, cell, ref, coin, oblivion);
  const std::uint32_t topic = p.allocate_form_id();
  const std::uint32_t response = p.allocate_form_id();
  add_topic(p, topic, response, oblivion);
  return p;
}

}  // namespace

Plugin skyrim_sample() { return build(Game::SkyrimSE, "TesmodSample.esp"); }
Plugin oblivion_sample() { return build(Game::Oblivion, "TesmodSampleOblivion.esp"); }

Plugin localized_sample() {
  Plugin p = Plugin::create(Game::SkyrimSE, "TesmodLocalized.esm");
  p.set_header_flags(record_flags::kMaster | record_flags::kLocalized);
  p.set_author("tesmod");
  const std::uint32_t sword = p.allocate_form_id();
  p.add(Record("WEAP", sword,
               {Field::zstring("EDID", "TesmodLocalizedSword"), Field::u32("FULL", 1), Field::u32("DESC", 2),
                Field::bytes("DATA", u32s({100, 0x41200000, 12}))}));
  const std::uint32_t topic = p.allocate_form_id();
  Group& top = p.top_group(Signature("DIAL"));
  Record dial(Signature("DIAL"), topic, {Field::zstring("EDID", "TesmodLocalizedTopic"), Field::u32("FULL", 3)});
  dial.set_form_version(44);
  top.children.emplace_back(std::move(dial));
  top.children.emplace_back(Group(GroupHeader{0, topic, 7, 0, 0}));
  Record info(Signature("INFO"), p.allocate_form_id(), {Field::u32("NAM1", 4)});
  info.set_form_version(44);
  top.children.back().group().children.emplace_back(std::move(info));
  return p;
}

LocalizedStrings localized_sample_strings() {
  LocalizedStrings s;
  // Windows-1252 bytes: "Ébène" has two accented letters, so the encoding path is exercised.
  s.table(StringsKind::Strings).set(1, "Sword of \xC9" "b\xE8" "ne");
  s.table(StringsKind::Strings).set(3, "Greetings");
  s.table(StringsKind::DLStrings).set(2, "A blade forged in a test suite.");
  s.table(StringsKind::ILStrings).set(4, "Well met, traveller.");
  return s;
}

void write_all(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  skyrim_sample().save(dir / "TesmodSample.esp");
  oblivion_sample().save(dir / "TesmodSampleOblivion.esp");
  localized_sample().save(dir / "TesmodLocalized.esm");
  localized_sample_strings().save(dir / "TesmodLocalized.esm", "English");
}

}  // namespace tesmod::samples
