#include "sample_builder.hpp"

#include <fmt/format.h>

#include <bit>

#include "load_order_sample.hpp"
#include "tesmod/fields/condition.hpp"
#include "tesmod/fields/vmad.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/save/actor_change.hpp"
#include "tesmod/save/change_type.hpp"
#include "tesmod/script/compiler.hpp"
#include "tesmod/text/condition_text.hpp"

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

// The sample quest's script: it names only its own variables and the game's functions.
constexpr const char* kQuestScript =
    "scn TesmodSampleQuestScript\r\n"
    "\r\n"
    "short counter\r\n"
    "float timer\r\n"
    "\r\n"
    "Begin GameMode\r\n"
    "\tset timer to timer + GetSecondsPassed\r\n"
    "\tif timer > 5\r\n"
    "\t\tset counter to counter + 1\r\n"
    "\t\tset timer to 0\r\n"
    "\t\tMessage \"Tesmod sample: %.0f ticks\", counter\r\n"
    "\tendif\r\n"
    "End\r\n";

// Names nothing: the sample script needs none.
class NoNames final : public script::NameSource {
 public:
  std::optional<script::FormInfo> find(std::string_view) const override { return std::nullopt; }
  std::optional<script::FormInfo> form(std::uint32_t) const override { return std::nullopt; }
  std::optional<std::string> editor_id(std::uint32_t) const override { return std::nullopt; }
  const script::ScriptData* script(std::uint32_t) const override { return nullptr; }
};

// A quest with a script compiled by tesmod's own compiler (Oblivion).
void add_quest_with_script(Plugin& p, std::uint32_t quest_id, std::uint32_t script_id) {
  const NoNames names;
  script::CompileOptions o;
  o.names = &names;
  o.type = script::ScriptType::Quest;
  std::vector<Field> fields = script::encode_script(script::compile(kQuestScript, o).script);
  fields.insert(fields.begin(), Field::zstring("EDID", "TesmodSampleQuestScript"));
  p.add(Record("SCPT", script_id, std::move(fields)));
  p.add(Record("QUST", quest_id,
               {Field::zstring("EDID", "TesmodSampleQuest"), Field::u32("SCRI", script_id),
                Field::zstring("FULL", "Sample Quest"), Field::bytes("DATA", std::vector<std::uint8_t>{1, 0})}));
}

// Conditions on the sample topic's response, written as condition text and read with the
// library's own parser (FormIDs in hex: no namer is needed).
void add_conditions(Plugin& p, std::uint32_t info_id, std::span<const std::string> lines) {
  const text::HexFormNamer hex;
  std::vector<Field>& fields = p.find(info_id)->edit_fields();
  for (const std::string& line : lines)
    for (Field& f : fields::encode_condition(text::parse_condition(line, p.game(), hex))) fields.push_back(std::move(f));
}

// A Papyrus script with properties on the sample coin (Skyrim).
void add_vmad(Plugin& p, std::uint32_t coin, std::uint32_t note) {
  fields::Vmad v;
  fields::Script s;
  s.name = "TesmodSampleCoinScript";
  s.properties.push_back({"Value", fields::Property::kEdited, std::int32_t(25)});
  s.properties.push_back({"Note", fields::Property::kEdited, fields::VmadObject::form(note)});
  s.properties.push_back({"Greeting", fields::Property::kEdited, std::string("Well met")});
  v.scripts.push_back(std::move(s));
  std::vector<Field>& fields = p.find(coin)->edit_fields();
  fields.insert(fields.begin() + 1, Field::bytes("VMAD", fields::encode_vmad(v)));
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
  // Added last, so the FormIDs above (which the sample save names) stay as they were.
  if (oblivion) {
    const std::uint32_t quest = p.allocate_form_id();
    const std::uint32_t script = p.allocate_form_id();
    add_quest_with_script(p, quest, script);
    const std::string lines[] = {fmt::format("GetStage({:08X}) >= 10.0 OR", quest), "GetIsPlayableRace() == 1.0"};
    add_conditions(p, response, lines);
  } else {
    const std::string lines[] = {"GetLevel() >= 5.0 OR", fmt::format("Target.GetItemCount({:08X}) > 0.0", coin)};
    add_conditions(p, response, lines);
    add_vmad(p, coin, note);
  }
  return p;
}

constexpr const char* kSaveName = "TesmodSample.ess";
constexpr std::uint8_t kSaveVersion = 125;  // minorVersion, headerVersion and change-record version of Oblivion 1.2

// Forms of Oblivion.esm (plugin 0 of the save), as the corpus saves and scripts use them: the
// game-time globals, PlayerFaction, the Mages Guild, two spells every new character knows, a
// creature.
constexpr std::uint32_t kTimeScale = 0x3A, kGameDaysPassed = 0x39, kGameHour = 0x38, kGameDay = 0x37,
                        kGameMonth = 0x36, kGameYear = 0x35;
constexpr std::uint32_t kPlayerFaction = 0x0001DBCD, kMagesGuild = 0x00022296;
constexpr std::uint32_t kSpellA = 0x00000136, kSpellB = 0x000A97DF;
constexpr std::uint32_t kCreature = 0x000435A2;
// Forms of TesmodSampleOblivion.esp (plugin 1): its room and its coin.
constexpr std::uint32_t kSampleRoom = 0x01000805, kSampleCoin = 0x01000800;

// RGB rows top to bottom: a red-green gradient crossed by blue diagonal stripes, easy to recognise
// in `tesmod save screenshot`.
std::vector<std::uint8_t> screenshot_pixels(std::uint32_t width, std::uint32_t height) {
  std::vector<std::uint8_t> out;
  out.reserve(std::size_t(width) * height * 3);
  for (std::uint32_t y = 0; y < height; ++y)
    for (std::uint32_t x = 0; x < width; ++x) {
      out.push_back(std::uint8_t(x * 255 / (width - 1)));
      out.push_back(std::uint8_t(y * 255 / (height - 1)));
      out.push_back((x + y) % 8 < 2 ? 255 : 48);
    }
  return out;
}

save::ChangeRecord change_record(std::uint32_t form_id, std::uint8_t type, std::uint32_t flags,
                                 std::vector<std::uint8_t> data) {
  save::ChangeRecord c;
  c.form_id = form_id;
  c.type = type;
  c.flags = flags;
  c.version = kSaveVersion;
  c.set_data(std::move(data), kSaveName);
  return c;
}

// The player's NPC_ change record with the blocks a player's record holds in the game's saves
// (flags 0x1000027C): a level-5 Breton, whose race adds 50 magicka and resists magic by 50 %.
save::ChangeRecord player_record(save::FormIdArray& ids) {
  save::ActorChange c;
  c.attributes = {{50, 45, 40, 55, 50, 45, 40, 50}};  // Strength ... Luck
  // Magicka and base health are what the player has at Intelligence / Endurance 0; fatigue is
  // computed from the attributes, so it stays 0.
  c.base_data = save::ActorBaseData{.magicka = 50, .level = 5, .calc_min = 1};
  c.factions = {{ids.iref_for(kPlayerFaction), 0}, {ids.iref_for(kMagesGuild), 1}};
  c.spells = {ids.iref_for(kSpellA), ids.iref_for(kSpellB)};
  c.base_health = 16;  // +4 at each of four level-ups
  c.modifiers = {{64, std::bit_cast<std::uint32_t>(50.0f)}};  // ResistMagic
  // Armorer, Athletics, Blade, Block, Blunt, HandToHand, HeavyArmor, Alchemy, Alteration,
  // Conjuration, Destruction, Illusion, Mysticism, Restoration, Acrobatics, LightArmor, Marksman,
  // Mercantile, Security, Sneak, Speechcraft.
  c.skills = {{12, 30, 35, 28, 10, 8, 9, 15, 32, 20, 38, 14, 22, 36, 11, 17, 9, 13, 8, 10, 16}};
  return change_record(0x00000007, save::kNpcChangeType, c.flags(), save::encode_actor_change(c));
}

// A creature with the blocks creatures' change records hold most: base health, base data, AI data.
save::ChangeRecord creature_record() {
  save::ActorChange c;
  c.base_data = save::ActorBaseData{.fatigue = 150, .level = 6};
  c.ai_data = {{70, 50, 50, 0}};
  c.base_health = 60;
  return change_record(kCreature, save::kCreatureChangeType, c.flags(), save::encode_actor_change(c));
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

save::SaveFile oblivion_save_sample() {
  save::SaveFile s = save::SaveFile::create(kSaveName);
  save::SaveHeader& h = s.header;
  h.minor_version = kSaveVersion;
  h.exe_time = {2006, 3, 1, 20, 0, 0, 0, 0};  // Oblivion's release day, a Monday
  h.header_version = kSaveVersion;
  h.save_number = 1;
  h.player_name_stored = std::string("Tesmod Sample") + '\0';  // bzstrings keep their terminator
  h.player_level = 5;
  h.player_location_stored = std::string("Sample Room") + '\0';
  h.game_days = 3.5f;
  h.game_ticks = 10'080'000;  // 2 h 48 min: 3.5 game days at TimeScale 30
  h.save_time = {2025, 1, 3, 15, 12, 0, 0, 0};  // a Wednesday, noon
  // The views below point at locals: the save is written and parsed back before they go.
  const std::vector<std::uint8_t> pixels = screenshot_pixels(32, 24);
  h.screenshot = {32, 24, pixels};
  s.plugins = {"Oblivion.esm", "TesmodSampleOblivion.esp"};

  save::GlobalData& g = s.global;
  g.next_object_id = save::kCreatedFormIds + 0x800;
  g.world_id = 0x3C;  // Tamriel, the last world space the player was in
  g.player_cell = kSampleRoom;
  g.player_x = 64;
  g.player_y = 32;
  // Day 30 of Last Seed, 3E433, noon.
  for (auto [global, value] : {std::pair{kTimeScale, 30.0f}, {kGameDaysPassed, 3.0f}, {kGameHour, 12.0f},
                               {kGameDay, 30.0f}, {kGameMonth, 7.0f}, {kGameYear, 433.0f}})
    g.globals.push_back({s.form_ids.iref_for(global), value});
  // The engine's own blocks (class, processes, weather, quick keys, interface ...) stay empty:
  // tesmod keeps them as opaque bytes, and this save is for tesmod, not for the game to load.

  s.change_records.push_back(player_record(s.form_ids));
  s.change_records.push_back(creature_record());
  // Kept raw by tesmod: the coin's form flags (flag 0x1).
  s.change_records.push_back(change_record(kSampleCoin, *save::change_type_code(Signature("MISC")), 0x1, u32s({0})));
  s.world_spaces = {0x3C};
  return save::SaveFile::parse(FileBytes::hold(s.to_bytes(), kSaveName));
}

void write_all(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  skyrim_sample().save(dir / "TesmodSample.esp");
  oblivion_sample().save(dir / "TesmodSampleOblivion.esp");
  localized_sample().save(dir / "TesmodLocalized.esm");
  localized_sample_strings().save(dir / "TesmodLocalized.esm", "English");
  oblivion_save_sample().save(dir / "TesmodSample.ess");
  write_load_order_sample(dir / "loadorder");
}

}  // namespace tesmod::samples
