#include "load_order_sample.hpp"

#include <stdexcept>

#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod::samples {
namespace {

constexpr const char* kMasterName = "TesmodDemo.esm";
constexpr const char* kMissingMasterName = "TesmodDemoDLC.esm";  // named by a plugin, never written

// The master's forms, in the order the master allocates them (its own index is 0).
enum : std::uint32_t {
  kSword = 0x800,
  kBow,
  kHelmet,
  kGem,
  kLantern,
  kGuard,
  kLoot,
  kGuards,
  kHall,
  kGemRef,
  kLanternRef,
  kHelmetRef,
};

// Little-endian values one after another: a field's bytes.
struct Pack {
  std::vector<std::uint8_t> bytes;
  template <class T>
  Pack& operator()(T v) {
    const std::size_t at = bytes.size();
    bytes.resize(at + sizeof(T));
    le::store(bytes.data() + at, v);
    return *this;
  }
};

Record record(Signature type, std::uint32_t id, std::vector<Field> fields, std::uint32_t flags = 0) {
  Record r(type, id, std::move(fields), flags);
  r.set_form_version(44);  // what Skyrim SE's Creation Kit writes
  return r;
}

Field obnd() { return Field::bytes("OBND", std::vector<std::uint8_t>(12, 0)); }

Record weapon(std::uint32_t id, const char* edid, const char* name, std::uint32_t value, float weight,
              std::uint16_t damage) {
  return record("WEAP", id,
                {Field::zstring("EDID", edid), obnd(), Field::zstring("FULL", name),
                 Field::bytes("DATA", Pack{}(value)(weight)(damage).bytes)});
}

// A helmet or shield: the biped slot it covers, value, weight and armor rating (x100, as stored).
Record armor(std::uint32_t id, const char* edid, const char* name, std::uint32_t slots, std::int32_t value,
             float weight, std::int32_t rating) {
  return record("ARMO", id,
                {Field::zstring("EDID", edid), obnd(), Field::zstring("FULL", name),
                 Field::bytes("BOD2", Pack{}(slots)(std::uint32_t(0)).bytes),
                 Field::bytes("DATA", Pack{}(value)(weight).bytes), Field::bytes("DNAM", Pack{}(rating * 100).bytes)});
}

Record misc(std::uint32_t id, const char* edid, const char* name, std::int32_t value, float weight) {
  return record("MISC", id,
                {Field::zstring("EDID", edid), obnd(), Field::zstring("FULL", name),
                 Field::bytes("DATA", Pack{}(value)(weight).bytes)});
}

// An NPC with its base stats (ACBS) at a fixed level.
Record npc(std::uint32_t id, const char* edid, const char* name, std::int16_t level) {
  Pack acbs;
  acbs(std::uint32_t(0))(std::int16_t(0))(std::int16_t(0))(level)(std::uint16_t(1))(std::uint16_t(0))(
      std::uint16_t(100))(std::int16_t(35))(std::uint16_t(0))(std::int16_t(0))(std::uint16_t(0));
  return record("NPC_", id, {Field::zstring("EDID", edid), obnd(), Field::bytes("ACBS", acbs.bytes),
                             Field::zstring("FULL", name)});
}

struct Entry {
  std::int16_t level;
  std::uint32_t form;
};

// A leveled item (LVLI) or NPC (LVLN) list: chance none 0, "calculate from all levels".
Record leveled(Signature type, std::uint32_t id, const char* edid, const std::vector<Entry>& entries) {
  std::vector<Field> f{Field::zstring("EDID", edid), obnd(), Field::bytes("LVLD", std::vector<std::uint8_t>{0}),
                       Field::bytes("LVLF", std::vector<std::uint8_t>{0x01}),
                       Field::bytes("LLCT", std::vector<std::uint8_t>{std::uint8_t(entries.size())})};
  for (const Entry& e : entries)
    f.push_back(Field::bytes("LVLO", Pack{}(e.level)(std::uint16_t(0))(e.form)(std::uint16_t(1))(std::uint16_t(0)).bytes));
  return record(type, id, std::move(f));
}

Record loot(const std::vector<Entry>& entries) { return leveled("LVLI", kLoot, "TesmodDemoLoot", entries); }
Record guards(const std::vector<Entry>& entries) { return leveled("LVLN", kGuards, "TesmodDemoGuards", entries); }

Record hall() {
  return record("CELL", kHall, {Field::zstring("EDID", "TesmodDemoHall"), Field::zstring("FULL", "Demo Hall"),
                                Field::bytes("DATA", Pack{}(std::uint16_t(0x1)).bytes)});  // interior
}

Record placed(std::uint32_t id, std::uint32_t base, float x, float y, std::uint32_t flags = 0) {
  const float z = 0, rx = 0, ry = 0, rz = 0;
  return record("REFR", id,
                {Field::u32("NAME", base), Field::bytes("DATA", Pack{}(x)(y)(z)(rx)(ry)(rz).bytes)}, flags);
}

Group group(std::uint32_t label, std::int32_t type) {
  GroupHeader h;
  h.label = label;
  h.type = type;
  return Group(h);
}

// An interior cell, in the groups the game files it under (the block and sub-block are the last
// and next-to-last decimal digits of its object id); returns its temporary children's group.
Group& add_cell(Plugin& p, Record cell) {
  const std::uint32_t id = cell.form_id(), object = id & 0xFFFFFF;
  Group children = group(id, 6);
  children.children.emplace_back(group(id, 9));
  Group sub_block = group(object / 10 % 10, 3);
  sub_block.children.emplace_back(std::move(cell));
  sub_block.children.emplace_back(std::move(children));
  Group block = group(object % 10, 2);
  block.children.emplace_back(std::move(sub_block));
  Group& top = p.top_group("CELL");
  top.children.emplace_back(std::move(block));
  Group& placed_block = top.children.back().group();
  Group& placed_sub_block = placed_block.children.back().group();
  Group& placed_children = placed_sub_block.children.back().group();
  return placed_children.children.back().group();
}

Plugin plugin(const char* name, const char* description, std::vector<std::string> masters) {
  Plugin p = Plugin::create(Game::SkyrimSE, name);
  p.set_author("tesmod");
  p.set_description(description);
  std::vector<MasterFile> files;
  for (std::string& m : masters) files.push_back(MasterFile{std::move(m), 0});
  if (!files.empty()) p.set_masters(files, std::vector<std::uint32_t>{std::uint32_t(files.size())});
  return p;
}

Record gem() { return misc(kGem, "TesmodDemoGem", "Demo Gem", 100, 0.5f); }
Record lantern() { return misc(kLantern, "TesmodDemoLantern", "Demo Lantern", 12, 2.0f); }
Record helmet(std::int32_t rating) {
  return armor(kHelmet, "TesmodDemoHelmet", "Demo Helmet", 0x1, 30, 3.0f, rating);  // slot 30: head
}
Record sword(std::uint32_t value, std::uint16_t damage) {
  return weapon(kSword, "TesmodDemoSword", "Demo Sword", value, 9.0f, damage);
}
Record bow(std::uint16_t damage) { return weapon(kBow, "TesmodDemoBow", "Demo Bow", 40, 7.0f, damage); }
Record gem_ref(std::uint32_t flags = 0) { return placed(kGemRef, kGem, 128, 64, flags); }

Plugin master() {
  Plugin p = plugin(kMasterName, "The master of tesmod's sample load order", {});
  p.set_header_flags(record_flags::kMaster);
  // Allocated in the order of the enum above, so that the plugins' overrides name them.
  std::vector<std::uint32_t> ids;
  for (std::uint32_t i = kSword; i <= kHelmetRef; ++i) ids.push_back(p.allocate_form_id());
  if (ids.front() != kSword || ids.back() != kHelmetRef) throw std::logic_error("unexpected master FormIDs");
  p.add(sword(50, 8));
  p.add(bow(7));
  p.add(helmet(15));
  p.add(gem());
  p.add(lantern());
  p.add(npc(kGuard, "TesmodDemoGuard", "Demo Guard", 6));
  p.add(loot({{1, kSword}, {1, kGem}}));
  p.add(guards({{1, kGuard}}));
  Group& refs = add_cell(p, hall());
  refs.children.emplace_back(gem_ref());
  refs.children.emplace_back(placed(kLanternRef, kLantern, 0, 0));
  refs.children.emplace_back(placed(kHelmetRef, kHelmet, -64, 32));
  return p;
}

// Changes the sword (a change Hardcore's later one overrides: it loses) and the bow (nobody else
// does: it wins); adds an axe to the loot list.
Plugin weapons() {
  Plugin p = plugin("TesmodDemoWeapons.esp", "Stronger weapons, and an axe in the loot", {kMasterName});
  const std::uint32_t axe = p.allocate_form_id();
  p.add(sword(60, 12));
  p.add(bow(9));
  p.add(weapon(axe, "TesmodDemoAxe", "Demo Axe", 45, 11.0f, 10));
  p.add(loot({{1, kSword}, {1, kGem}, {2, axe}}));
  return p;
}

// A sturdier helmet, a shield in the loot list and a quartermaster among the guards.
Plugin armory() {
  Plugin p = plugin("TesmodDemoArmory.esp", "A sturdier helmet, a shield and a quartermaster", {kMasterName});
  const std::uint32_t shield = p.allocate_form_id();
  const std::uint32_t quartermaster = p.allocate_form_id();
  p.add(helmet(20));
  p.add(armor(shield, "TesmodDemoShield", "Demo Shield", 0x200, 35, 8.0f, 20));  // slot 39: shield
  p.add(npc(quartermaster, "TesmodDemoQuartermaster", "Demo Quartermaster", 10));
  p.add(loot({{1, kSword}, {1, kGem}, {3, shield}}));
  p.add(guards({{1, kGuard}, {5, quartermaster}}));
  return p;
}

// Loads after Weapons and changes the sword too, another way: its change wins, Weapons' loses.
// Adds a veteran to the guards (so two plugins add to that list).
Plugin hardcore() {
  Plugin p = plugin("TesmodDemoHardcore.esp", "Weaker swords, and veterans among the guards", {kMasterName});
  const std::uint32_t veteran = p.allocate_form_id();
  p.add(sword(40, 6));
  p.add(npc(veteran, "TesmodDemoVeteran", "Demo Veteran", 15));
  p.add(guards({{1, kGuard}, {8, veteran}}));
  return p;
}

// What `clean` is for: the gem copied unchanged (an ITM) and the gem's placed reference deleted
// (a UDR), beside a real change (the lantern's name).
Plugin dirty() {
  Plugin p = plugin("TesmodDemoDirty.esp", "A renamed lantern, with an ITM and a deleted reference", {kMasterName});
  p.add(gem());
  p.add(misc(kLantern, "TesmodDemoLantern", "Old Lantern", 12, 2.0f));
  add_cell(p, hall()).children.emplace_back(gem_ref(record_flags::kDeleted));
  return p;
}

// Needs a master the folder does not have: load-order and check report it.
Plugin addon() {
  Plugin p = plugin("TesmodDemoAddon.esp", "Needs TesmodDemoDLC.esm, which is not installed",
                    {kMasterName, kMissingMasterName});
  const std::uint32_t relic = p.allocate_form_id();
  p.add(misc(0x01000800, "TesmodDemoDlcRelic", "Polished Relic", 250, 1.0f));  // the missing master's
  p.add(misc(relic, "TesmodDemoAddonCoin", "Addon Coin", 5, 0.1f));
  return p;
}

}  // namespace

std::vector<Plugin> load_order_sample() {
  std::vector<Plugin> plugins;
  plugins.push_back(master());
  plugins.push_back(weapons());
  plugins.push_back(armory());
  plugins.push_back(hardcore());
  plugins.push_back(dirty());
  plugins.push_back(addon());
  return plugins;
}

std::string load_order_sample_plugins_txt() {
  std::string text =
      "# This file is used by Skyrim to keep track of your downloaded content.\r\n"
      "# Please do not modify this file.\r\n";
  for (const Plugin& p : load_order_sample()) text += "*" + p.name() + "\r\n";
  return text;
}

void write_load_order_sample(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  for (Plugin& p : load_order_sample()) p.save(dir / p.name());
  const std::string text = load_order_sample_plugins_txt();
  write_file_atomic(dir / "plugins.txt", std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

}  // namespace tesmod::samples
