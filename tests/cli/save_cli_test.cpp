// `tesmod save`: info, npc, edit and screenshot on a corpus save, with the figures the corpus
// manifest (written by the independent Python reader) and the game's file name give for it, and
// a data folder made here to name forms and check edits.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tesmod/plugin/plugin.hpp"

using namespace tesmod;
using test::run_cli;

namespace {

// MANIFEST.tsv: player 'Test' L1 at 'Stadt-Insel'; screenshot 256x144; 3 plugins; 0 created
// records; 5573 change records (NPC_ 1612, CREA 11); player NPC_ 0x00000007 flags 0x10000238
// 97 bytes; 5338 formIDs, 2 worldspaces. Its original name ends "Playing Time 00.28.58.ess".
std::string johnny() {
  return (test::corpus_dir() / "saves-oblivion/JohnnysCloud__OblivionSaveFiles/johnny_save1_test_L1.ess").string();
}

nlohmann::json json_of(const test::CommandResult& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

std::vector<std::string> spell_ids(const nlohmann::json& npc) {
  std::vector<std::string> out;
  for (const auto& s : npc["spells"]) out.push_back(s["form_id"]);
  return out;
}

}  // namespace

TEST(SaveCli, Usage) {
  for (const char* sub : {"info", "npc", "edit", "screenshot"}) {
    auto r = run_cli({"save", sub, "--help"});
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << sub;
  }
  EXPECT_EQ(run_cli({"save"}).exit_code, 2);
  EXPECT_EQ(run_cli({"save", "info"}).exit_code, 2);
  EXPECT_EQ(run_cli({"save", "screenshot", "x.ess"}).exit_code, 2);  // no -o
  EXPECT_EQ(run_cli({"save", "npc", "x.ess", "--player", "--formid", "7"}).exit_code, 2);
  test::TempDir dir;
  EXPECT_EQ(run_cli({"save", "info", (dir / "missing.ess").string()}).exit_code, 1);
  test::write_file(dir / "not.ess", {'T', 'E', 'S', '4', 0, 0, 0, 0});
  auto r = run_cli({"save", "info", (dir / "not.ess").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("expected 'TES4SAVEGAME'"), std::string::npos) << r.err;
}

TEST(SaveCli, UsageNeedsTheCorpus) {
  TESMOD_REQUIRE_CORPUS();
  test::TempDir dir;
  const std::string out = (dir / "out.ess").string();
  EXPECT_EQ(run_cli({"save", "npc", johnny()}).exit_code, 2);  // neither --player nor --formid
  EXPECT_EQ(run_cli({"save", "edit", johnny(), "--player", "-o", out}).exit_code, 2);  // nothing to change
  EXPECT_EQ(run_cli({"save", "edit", johnny(), "--player", "--set", "skill.Blade=5"}).exit_code, 2);  // no -o
  EXPECT_EQ(run_cli({"save", "edit", johnny(), "--player", "--set", "speed=5", "-o", out}).exit_code, 2);
  EXPECT_EQ(run_cli({"save", "edit", johnny(), "--player", "--set", "skill.Blade=x", "-o", out}).exit_code, 2);
  EXPECT_EQ(run_cli({"save", "edit", johnny(), "--player", "--add-spell", "Nowhere.esp:01", "-o", out}).exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(SaveCli, Info) {
  TESMOD_REQUIRE_CORPUS();
  auto text = run_cli({"save", "info", johnny()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("player        Test, level 1\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("location      Stadt-Insel\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("play time     00:28:58\n"), std::string::npos) << text.out;
  const auto j = json_of(run_cli({"save", "info", johnny(), "--json"}));
  EXPECT_EQ(j["player"]["name"], "Test");
  EXPECT_EQ(j["player"]["level"], 1);
  EXPECT_EQ(j["player"]["location"], "Stadt-Insel");
  EXPECT_EQ(j["play_time"], "00:28:58");
  EXPECT_EQ(j["screenshot"]["width"], 256);
  EXPECT_EQ(j["screenshot"]["height"], 144);
  EXPECT_EQ(j["plugins"].size(), 3u);
  EXPECT_EQ(j["plugins"][0], "Oblivion.esm");
  EXPECT_EQ(j["created_records"], 0);
  EXPECT_EQ(j["created"].size(), 0u);
  EXPECT_EQ(j["actor_records_with_unknown_flags"], 0);
  EXPECT_EQ(j["change_records"], 5573);
  EXPECT_EQ(j["change_records_by_type"]["NPC_"], 1612);
  EXPECT_EQ(j["change_records_by_type"]["CREA"], 11);
  EXPECT_EQ(j["form_ids"], 5338);
  EXPECT_EQ(j["world_spaces"], 2);
  for (const char* key : {"version", "game_days", "saved_at", "next_object_id", "player_cell", "globals"})
    EXPECT_TRUE(j.contains(key)) << key;
}

TEST(SaveCli, Npc) {
  TESMOD_REQUIRE_CORPUS();
  auto text = run_cli({"save", "npc", johnny(), "--player"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(text.out.starts_with("NPC_ 00000007 Oblivion.esm  flags 0x10000238, version 125, 97 bytes")) << text.out;
  EXPECT_NE(text.out.find("    Blade"), std::string::npos);
  const auto j = json_of(run_cli({"save", "npc", johnny(), "--player", "--json"}));
  EXPECT_EQ(j["form_id"], "00000007");
  EXPECT_EQ(j["type"], "NPC_");
  EXPECT_EQ(j["flags"], "10000238");
  EXPECT_EQ(j["data_bytes"], 97);
  // 0x10000238: attributes, base data, spells, skills, modifiers; no factions, health or name.
  EXPECT_EQ(j["attributes"].size(), 8u);
  EXPECT_EQ(j["skills"].size(), 21u);
  EXPECT_TRUE(j.contains("base_data") && j.contains("spells") && j.contains("base_modifiers"));
  EXPECT_FALSE(j.contains("factions") || j.contains("base_health") || j.contains("full_name"));
  EXPECT_EQ(j["base_data"]["level"], 1);
  EXPECT_EQ(j["spells"][0]["plugin"], "Oblivion.esm");
  EXPECT_EQ(j["spells"][0]["status"], "unchecked");
  // By FormID, and a FormID with no change record.
  EXPECT_EQ(run_cli({"save", "npc", johnny(), "--formid", "00000007", "--json"}).out, run_cli({"save", "npc", johnny(), "--player", "--json"}).out);
  auto none = run_cli({"save", "npc", johnny(), "--formid", "00ABCDEF"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("no NPC_ or CREA change record for FormID 00ABCDEF"), std::string::npos) << none.err;
}

TEST(SaveCli, NpcWithDataFolder) {
  TESMOD_REQUIRE_CORPUS();
  const auto plain = json_of(run_cli({"save", "npc", johnny(), "--player", "--json"}));
  const std::string first_spell = plain["spells"][0]["form_id"];
  test::TempDir data;
  Plugin master = Plugin::create(Game::Oblivion, "Oblivion.esm");
  master.add(Record("NPC_", 0x00000007, {Field::zstring("EDID", "Player")}));
  master.add(Record("SPEL", std::stoul(first_spell, nullptr, 16),
                    {Field::zstring("EDID", "TesmodSpell"), Field::zstring("FULL", "Tesmod Spell")}));
  master.save(data / "Oblivion.esm");
  const auto j = json_of(run_cli({"save", "npc", johnny(), "--player", "--json", "--data", data.path().string()}));
  EXPECT_EQ(j["editor_id"], "Player");
  EXPECT_EQ(j["spells"][0]["editor_id"], "TesmodSpell");
  EXPECT_EQ(j["spells"][0]["name"], "Tesmod Spell");
  EXPECT_EQ(j["spells"][0]["type"], "SPEL");
  EXPECT_EQ(j["spells"][0]["status"], "found");
  EXPECT_EQ(j["spells"][1]["status"], "missing");  // the made-up master defines only one
  // Knights.esp and the third plugin are not in the folder.
  ASSERT_EQ(j["plugins_not_found"].size(), 2u);
  EXPECT_EQ(j["plugins_not_found"][0], "Knights.esp");
  // An EditorID names the target.
  const auto by_name = json_of(run_cli({"save", "npc", johnny(), "--formid", "player", "--json", "--data", data.path().string()}));
  EXPECT_EQ(by_name["form_id"], "00000007");
}

TEST(SaveCli, Edit) {
  TESMOD_REQUIRE_CORPUS();
  test::TempDir dir;
  const std::string out = (dir / "edited.ess").string();
  const auto input = test::read_file(johnny());
  const auto before = json_of(run_cli({"save", "npc", johnny(), "--player", "--json"}));
  const std::vector<std::string> spells = spell_ids(before);
  auto r = run_cli({"save", "edit", johnny(), "--player", "--set", "skill.Blade=75", "--set", "attribute.Strength=60",
                    "--set", "health=150", "--set", "level=3", "--name", "Tesmod Hero", "--add-spell", "00FFFF00",
                    "--remove-spell", spells[0], "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("NPC_ 00000007: 7 edits"), std::string::npos) << r.out;
  EXPECT_EQ(test::read_file(johnny()), input);  // the input is not touched
  const auto after = json_of(run_cli({"save", "npc", out, "--player", "--json"}));
  EXPECT_EQ(after["skills"]["Blade"], 75);
  EXPECT_EQ(after["attributes"]["Strength"], 60);
  EXPECT_EQ(after["base_health"], 150);
  EXPECT_EQ(after["base_data"]["level"], 3);
  EXPECT_EQ(after["full_name"], "Tesmod Hero");
  EXPECT_EQ(after["flags"], "100002BC");  // Base Health (0x4) and Full Name (0x80) added
  std::vector<std::string> expected(spells.begin() + 1, spells.end());
  expected.push_back("00FFFF00");
  EXPECT_EQ(spell_ids(after), expected);
  const auto info = json_of(run_cli({"save", "info", out, "--json"}));
  EXPECT_EQ(info["form_ids"], 5339);
  EXPECT_EQ(info["change_records"], 5573);

  // Refused edits write nothing.
  const std::string refused = (dir / "refused.ess").string();
  auto range = run_cli({"save", "edit", johnny(), "--player", "--set", "skill.Blade=300", "-o", refused});
  EXPECT_EQ(range.exit_code, 1);
  EXPECT_NE(range.err.find("record NPC_ [00000007]: skill Blade = 300 is out of range: 0 to 255"), std::string::npos) << range.err;
  auto absent = run_cli({"save", "edit", johnny(), "--player", "--remove-spell", "00ABCDEF", "-o", refused});
  EXPECT_EQ(absent.exit_code, 1);
  EXPECT_NE(absent.err.find("is not in its spell list"), std::string::npos) << absent.err;
  auto faction = run_cli({"save", "edit", johnny(), "--player", "--join-faction", "0001DBCD", "-o", refused});
  EXPECT_EQ(faction.exit_code, 1);
  EXPECT_NE(faction.err.find("no Factions block"), std::string::npos) << faction.err;
  EXPECT_FALSE(std::filesystem::exists(refused));

  // --in-place on a copy.
  const auto copy = dir / "copy.ess";
  test::write_file(copy, input);
  ASSERT_EQ(run_cli({"save", "edit", copy.string(), "--player", "--set", "skill.Sneak=99", "--in-place"}).exit_code, 0);
  EXPECT_EQ(json_of(run_cli({"save", "npc", copy.string(), "--player", "--json"}))["skills"]["Sneak"], 99);
}

TEST(SaveCli, EditChecksFormsAgainstTheDataFolder) {
  TESMOD_REQUIRE_CORPUS();
  test::TempDir data;
  Plugin master = Plugin::create(Game::Oblivion, "Oblivion.esm");
  master.add(Record("SPEL", 0x00FFFF01, {Field::zstring("EDID", "TesmodFlare")}));
  master.add(Record("FACT", 0x00FFFF02, {Field::zstring("EDID", "TesmodGuild")}));
  master.save(data / "Oblivion.esm");
  test::TempDir dir;
  const std::string out = (dir / "out.ess").string();
  const std::vector<std::string> base = {"save", "edit", johnny(), "--player", "--data", data.path().string(), "-o", out};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  };
  auto wrong_type = with({"--add-spell", "TesmodGuild"});
  EXPECT_EQ(wrong_type.exit_code, 1);
  EXPECT_NE(wrong_type.err.find("is a FACT record, not SPEL"), std::string::npos) << wrong_type.err;
  auto missing = with({"--add-spell", "Oblivion.esm:FFFF03"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("does not exist: Oblivion.esm defines no such form"), std::string::npos) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  auto ok = with({"--add-spell", "tesmodflare"});
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  const auto after = json_of(run_cli({"save", "npc", out, "--player", "--json", "--data", data.path().string()}));
  EXPECT_EQ(after["spells"].back()["editor_id"], "TesmodFlare");
}

TEST(SaveCli, Screenshot) {
  TESMOD_REQUIRE_CORPUS();
  test::TempDir dir;
  const auto png = dir / "shot.png";
  auto r = run_cli({"save", "screenshot", johnny(), "-o", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto b = test::read_file(png);
  ASSERT_GT(b.size(), 33u);
  const std::uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  EXPECT_EQ(std::memcmp(b.data(), signature, 8), 0);
  EXPECT_EQ(std::string(b.begin() + 12, b.begin() + 16), "IHDR");
  auto be32 = [&](std::size_t at) {
    return std::uint32_t(b[at]) << 24 | std::uint32_t(b[at + 1]) << 16 | std::uint32_t(b[at + 2]) << 8 | b[at + 3];
  };
  EXPECT_EQ(be32(16), 256u);  // the manifest's 256x144
  EXPECT_EQ(be32(20), 144u);
  // The IEND chunk closes the file.
  EXPECT_EQ(std::string(b.end() - 8, b.end() - 4), "IEND");
}
