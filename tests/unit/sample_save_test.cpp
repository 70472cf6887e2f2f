// samples/TesmodSample.ess, the save the sample builder makes from values: it opens with what the
// builder set, its player record is laid out as the format page says, an edit changes only what
// it edits, and the `tesmod save` commands and `verify --deep` work on it. SaveFile::create, which
// the builder starts from, is checked here too.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "byte_builder.hpp"
#include "test_support.hpp"
#include "tesmod/save/actor_change.hpp"
#include "tesmod/save/actor_editor.hpp"
#include "tesmod/save/change_type.hpp"
#include "tesmod/save/save_check.hpp"
#include "tesmod/save/save_file.hpp"

using namespace tesmod;
using namespace tesmod::save;
using test::run_cli;

namespace {

std::filesystem::path sample_save() { return std::filesystem::path(TESMOD_SOURCE_DIR) / "samples" / "TesmodSample.ess"; }

constexpr std::uint32_t kPlayer = 0x00000007;
constexpr std::uint32_t kCreature = 0x000435A2;
constexpr std::uint32_t kCoin = 0x01000800;  // TesmodSampleCoin of TesmodSampleOblivion.esp
constexpr std::array<std::uint8_t, 21> kSkills = {12, 30, 35, 28, 10, 8, 9, 15, 32, 20, 38, 14, 22, 36, 11, 17, 9, 13, 8, 10, 16};
constexpr std::size_t kBlade = 2;

// The FormIDs a list of irefs stands for.
std::vector<std::uint32_t> form_ids(const SaveFile& s, const std::vector<std::uint32_t>& irefs) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t iref : irefs) out.push_back(s.form_ids.form_id(iref).value_or(0xFFFFFFFF));
  return out;
}

nlohmann::json json_of(const test::CommandResult& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST(SaveFile, CreateStartsEmptyAndWritesWhatIsSet) {
  SaveFile s = SaveFile::create("new.ess");
  EXPECT_EQ(s.name(), "new.ess");
  EXPECT_TRUE(s.input().empty());
  EXPECT_TRUE(s.plugins.empty() && s.change_records.empty() && s.form_ids.size() == 0);
  // Even an empty save writes something that parses.
  EXPECT_NO_THROW(SaveFile::parse(FileBytes::hold(s.to_bytes(), "empty.ess")));

  const std::vector<std::uint8_t> pixels = {255, 0, 0, 0, 0, 255};
  s.header.minor_version = 125;
  s.header.player_name_stored = std::string("Nobody") + '\0';
  s.header.screenshot = {2, 1, pixels};
  s.plugins = {"Oblivion.esm"};
  s.global.globals.push_back({s.form_ids.iref_for(0x38), 12.0f});
  ChangeRecord coin;
  coin.form_id = 0x00000800;
  coin.type = *change_type_code(Signature("MISC"));
  coin.flags = 0x1;
  coin.version = 125;
  coin.set_data({9, 0, 0, 0}, s.name());
  s.change_records.push_back(coin);
  s.world_spaces = {0x3C};

  const std::vector<std::uint8_t> bytes = s.to_bytes();
  const SaveFile back = SaveFile::parse(FileBytes::hold(bytes, "new.ess"));
  EXPECT_EQ(back.header.minor_version, 125);
  EXPECT_EQ(back.header.player_name(), "Nobody");
  EXPECT_EQ(std::vector<std::uint8_t>(back.header.screenshot.pixels.begin(), back.header.screenshot.pixels.end()), pixels);
  EXPECT_EQ(back.plugins, s.plugins);
  ASSERT_EQ(back.global.globals.size(), 1u);
  EXPECT_EQ(back.global.globals[0].iref, 0u);
  EXPECT_EQ(back.global.globals[0].value, 12.0f);
  ASSERT_EQ(back.change_records.size(), 1u);
  EXPECT_EQ(back.change_records[0].type_signature(), Signature("MISC"));
  EXPECT_EQ(back.change_records[0].flags, 0x1u);
  EXPECT_EQ(std::vector<std::uint8_t>(back.change_records[0].data().begin(), back.change_records[0].data().end()),
            (std::vector<std::uint8_t>{9, 0, 0, 0}));
  EXPECT_EQ(back.form_ids.ids(), (std::vector<std::uint32_t>{0x38}));
  EXPECT_EQ(back.world_spaces, s.world_spaces);
  EXPECT_EQ(back.form_ids_offset(), s.form_ids_offset());
  EXPECT_EQ(back.to_bytes(), bytes);
}

TEST(SampleSave, OpensWithTheBuildersValues) {
  const SaveFile s = SaveFile::open(sample_save());
  const SaveHeader& h = s.header;
  EXPECT_EQ(h.minor_version, 125);
  EXPECT_EQ(h.header_version, 125u);
  EXPECT_EQ(h.player_name(), "Tesmod Sample");
  EXPECT_EQ(h.player_level, 5);
  EXPECT_EQ(h.player_location(), "Sample Room");
  EXPECT_EQ(h.game_days, 3.5f);
  EXPECT_EQ(h.game_ticks, 10'080'000u);
  EXPECT_EQ(h.save_time.year, 2025);
  EXPECT_EQ(h.save_time.day, 15);
  EXPECT_EQ(h.screenshot.width, 32u);
  EXPECT_EQ(h.screenshot.height, 24u);
  EXPECT_EQ(h.screenshot.pixels.size(), 32u * 24 * 3);
  EXPECT_EQ(s.plugins, (std::vector<std::string>{"Oblivion.esm", "TesmodSampleOblivion.esp"}));
  EXPECT_EQ(s.global.player_cell, 0x01000805u);  // the Oblivion sample's room
  // The game-time globals: TimeScale, GameDaysPassed, GameHour, GameDay, GameMonth, GameYear.
  ASSERT_EQ(s.global.globals.size(), 6u);
  EXPECT_EQ(s.form_ids.form_id(s.global.globals[2].iref), 0x38u);
  EXPECT_EQ(s.global.globals[2].value, 12.0f);
  EXPECT_EQ(s.form_ids.form_id(s.global.globals[5].iref), 0x35u);
  EXPECT_EQ(s.global.globals[5].value, 433.0f);
  ASSERT_EQ(s.change_records.size(), 3u);
  EXPECT_EQ(s.change_records[0].form_id, kPlayer);
  EXPECT_EQ(s.change_records[0].type_signature(), Signature("NPC_"));
  EXPECT_EQ(s.change_records[1].form_id, kCreature);
  EXPECT_EQ(s.change_records[1].type_signature(), Signature("CREA"));
  EXPECT_EQ(s.change_records[2].form_id, kCoin);
  EXPECT_EQ(s.change_records[2].type_signature(), Signature("MISC"));
  EXPECT_EQ(s.form_ids.size(), 10u);
  EXPECT_EQ(s.world_spaces, (std::vector<std::uint32_t>{0x3C}));
  EXPECT_EQ(s.plugin_of(kCoin), "TesmodSampleOblivion.esp");

  const SaveCheck c = check_save(s);
  EXPECT_TRUE(c.identical);
  EXPECT_EQ(c.change_records.total, 2u);
  EXPECT_EQ(c.change_records.identical, 2u);
}

TEST(SampleSave, PlayerRecordHoldsTheBuildersValues) {
  const SaveFile s = SaveFile::open(sample_save());
  const ChangeRecord* player = s.find_actor(kPlayer);
  ASSERT_TRUE(player);
  EXPECT_EQ(player->flags, 0x1000027Cu);

  // Laid out by hand in the order of the format page, independent of the encoder.
  const std::uint32_t player_faction = *s.form_ids.find_iref(0x0001DBCD), mages = *s.form_ids.find_iref(0x00022296);
  const std::uint32_t spell_a = *s.form_ids.find_iref(0x00000136), spell_b = *s.form_ids.find_iref(0x000A97DF);
  test::ByteBuilder x;
  x.u8(50).u8(45).u8(40).u8(55).u8(50).u8(45).u8(40).u8(50);    // attributes
  x.u32(0).u16(50).u16(0).u16(0).i16(5).u16(1).u16(0);          // base data
  x.u16(2).u32(player_faction).u8(0).u32(mages).u8(1);          // factions
  x.u16(2).u32(spell_a).u32(spell_b);                           // spells
  x.u32(16);                                                    // base health
  x.u16(1).u8(64).f32(50.0f);                                   // modifiers: ResistMagic
  for (std::uint8_t v : kSkills) x.u8(v);                       // skills
  EXPECT_EQ(std::vector<std::uint8_t>(player->data().begin(), player->data().end()), x.b);

  const ActorChange c = decode_actor_change(*player, s.name());
  EXPECT_EQ(c.attributes, (std::array<std::uint8_t, 8>{50, 45, 40, 55, 50, 45, 40, 50}));
  EXPECT_EQ(c.base_data, (ActorBaseData{0, 50, 0, 0, 5, 1, 0}));
  ASSERT_TRUE(c.factions);
  ASSERT_EQ(c.factions->size(), 2u);
  EXPECT_EQ(s.form_ids.form_id((*c.factions)[1].faction), 0x00022296u);
  EXPECT_EQ((*c.factions)[1].rank, 1);
  EXPECT_EQ(form_ids(s, *c.spells), (std::vector<std::uint32_t>{0x00000136, 0x000A97DF}));
  EXPECT_EQ(c.base_health, 16u);
  ASSERT_EQ(c.modifiers->size(), 1u);
  EXPECT_EQ((*c.modifiers)[0].value(), 50.0f);
  EXPECT_EQ(c.skills, kSkills);
  EXPECT_FALSE(c.full_name || c.ai_data || c.form_flags || c.combat_style);
  EXPECT_EQ(c.unknown_flags, 0u);

  const ActorChange creature = decode_actor_change(*s.find_actor(kCreature), s.name());
  EXPECT_EQ(creature.flags(), 0x114u);  // base health, base data, AI data
  EXPECT_EQ(creature.base_health, 60u);
  EXPECT_EQ(creature.base_data->level, 6);
  EXPECT_EQ(creature.ai_data, (std::array<std::uint8_t, 4>{70, 50, 50, 0}));
}

TEST(SampleSave, AnEditChangesOnlyWhatItEdits) {
  const std::vector<std::uint8_t> input = test::read_file(sample_save());
  SaveFile s = SaveFile::open(sample_save());
  ActorEditor skill(s, kPlayer);
  skill.set_skill("Blade", 75);
  skill.commit();
  const std::vector<std::uint8_t> out = s.to_bytes();
  ASSERT_EQ(out.size(), input.size());
  // Skills are the player record's last block: only Blade's byte differs.
  const ChangeRecord& player = *s.find_actor(kPlayer);
  const std::size_t blade_at = player.offset + kChangeRecordHeaderSize + player.data().size() - 21 + kBlade;
  std::vector<std::size_t> differ;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i] != input[i]) differ.push_back(i);
  EXPECT_EQ(differ, (std::vector<std::size_t>{blade_at}));
  const SaveFile back = SaveFile::parse(FileBytes::hold(out, "edited.ess"));
  EXPECT_EQ((*decode_actor_change(*back.find_actor(kPlayer), back.name()).skills)[kBlade], 75);

  // An edit that grows the record and the FormID array moves what follows, and changes nothing else.
  SaveFile grown = SaveFile::open(sample_save());
  ActorEditor more(grown, kPlayer);
  more.set_full_name("Tesmod Hero");
  more.add_spell(0x00047AE9);
  more.commit();
  const SaveFile again = SaveFile::parse(FileBytes::hold(grown.to_bytes(), "grown.ess"));
  const SaveFile original = SaveFile::open(sample_save());
  const ActorChange c = decode_actor_change(*again.find_actor(kPlayer), again.name());
  EXPECT_EQ(c.full_name, "Tesmod Hero");
  EXPECT_EQ(form_ids(again, *c.spells), (std::vector<std::uint32_t>{0x00000136, 0x000A97DF, 0x00047AE9}));
  EXPECT_EQ(c.skills, kSkills);
  EXPECT_EQ(again.form_ids.size(), 11u);
  for (std::size_t i = 1; i < 3; ++i) {
    const auto a = again.change_records[i].data(), b = original.change_records[i].data();
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << i;
  }
  EXPECT_EQ(again.global.globals.size(), original.global.globals.size());
  EXPECT_EQ(again.header.player_name(), "Tesmod Sample");  // the save header's name is another field
  EXPECT_TRUE(check_save(again).identical);
}

TEST(SampleSave, SaveCommandsWorkOnIt) {
  const std::string save = sample_save().string();
  auto text = run_cli({"save", "info", save});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("player        Tesmod Sample, level 5\n"), std::string::npos) << text.out;
  const auto info = json_of(run_cli({"save", "info", save, "--json"}));
  EXPECT_EQ(info["player"]["location"], "Sample Room");
  EXPECT_EQ(info["plugins"], nlohmann::json({"Oblivion.esm", "TesmodSampleOblivion.esp"}));
  EXPECT_EQ(info["saved_at"], "2025-01-15 12:00:00");
  EXPECT_EQ(info["play_time"], "02:48:00");
  EXPECT_EQ(info["change_records"], 3);

  const auto npc = json_of(run_cli({"save", "npc", save, "--player", "--json"}));
  EXPECT_EQ(npc["flags"], "1000027C");
  EXPECT_EQ(npc["skills"]["Blade"], 35);
  EXPECT_EQ(npc["attributes"]["Strength"], 50);
  EXPECT_EQ(npc["base_data"]["level"], 5);
  EXPECT_EQ(npc["base_health"], 16);
  EXPECT_EQ(npc["factions"][0]["faction"]["form_id"], "0001DBCD");
  EXPECT_EQ(npc["spells"][1]["form_id"], "000A97DF");
  // The sample plugin is beside the save; Oblivion.esm is not.
  const auto with_data = json_of(run_cli({"save", "npc", save, "--player", "--json", "--data", sample_save().parent_path().string()}));
  EXPECT_EQ(with_data["plugins_not_found"], nlohmann::json({"Oblivion.esm"}));

  test::TempDir dir;
  const std::string out = (dir / "out.ess").string();
  auto edit = run_cli({"save", "edit", save, "--player", "--set", "skill.Blade=75", "--set", "attribute.Strength=60",
                       "--leave-faction", "00022296", "-o", out});
  ASSERT_EQ(edit.exit_code, 0) << edit.err;
  const auto after = json_of(run_cli({"save", "npc", out, "--player", "--json"}));
  EXPECT_EQ(after["skills"]["Blade"], 75);
  EXPECT_EQ(after["attributes"]["Strength"], 60);
  EXPECT_EQ(after["factions"].size(), 1u);

  const auto verify = json_of(run_cli({"verify", save, "--deep", "--json"}));
  EXPECT_EQ(verify["ok"], true);
  EXPECT_EQ(verify["files"][0]["checks"]["save_change_records"]["total"], 2);
  EXPECT_EQ(verify["files"][0]["checks"]["save_change_records"]["identical"], 2);

  const auto png = dir / "shot.png";
  ASSERT_EQ(run_cli({"save", "screenshot", save, "-o", png.string()}).exit_code, 0);
  const auto b = test::read_file(png);
  ASSERT_GT(b.size(), 24u);
  EXPECT_EQ(std::string(b.begin() + 12, b.begin() + 16), "IHDR");
  EXPECT_EQ(b[19], 32);  // width and height, big-endian
  EXPECT_EQ(b[23], 24);
}
