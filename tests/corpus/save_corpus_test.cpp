// The Oblivion saves of the corpus: parsed to the last byte and written back identical, their
// figures matched against MANIFEST.tsv (written by the independent Python reader) and the play
// time in the game's own file names, every NPC_/CREA change record decoded and re-encoded, the
// player edited with only the intended bytes changing, and damaged copies failing cleanly.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>

#include "test_support.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/save/actor_change.hpp"
#include "tesmod/save/actor_editor.hpp"
#include "tesmod/save/change_type.hpp"
#include "tesmod/save/save_check.hpp"
#include "tesmod/save/save_file.hpp"

using namespace tesmod;
using namespace tesmod::save;

namespace {

constexpr std::uint32_t kPlayer = 0x00000007;

// One row of MANIFEST.tsv for an Oblivion save, from its notes column, e.g. "player 'Test' L1 at
// 'Stadt-Insel'; screenshot 256x144; 3 plugins; 0 created records; 5573 change records (NPC_
// 1612, CREA 11); player NPC_ 0x00000007 flags 0x10000238 97 bytes; 5338 formIDs, 2 worldspaces".
struct ManifestSave {
  std::filesystem::path path;
  std::string source_path;
  std::uint64_t bytes = 0;
  std::string player, location;
  std::uint64_t level = 0, width = 0, height = 0, plugins = 0, created = 0, changes = 0, npcs = 0, creatures = 0;
  std::uint64_t player_flags = 0, player_bytes = 0, form_ids = 0, world_spaces = 0;
};

std::uint64_t number_at(std::string_view s, std::size_t at, int base = 10) {
  std::uint64_t v = 0;
  bool any = false;
  for (; at < s.size(); ++at) {
    const char c = s[at];
    int d = c >= '0' && c <= '9' ? c - '0' : base == 16 && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) break;
    v = v * std::uint64_t(base) + std::uint64_t(d);
    any = true;
  }
  if (!any) throw std::runtime_error("manifest: no number at " + std::string(s.substr(at)));
  return v;
}
std::uint64_t number_after(std::string_view s, std::string_view key, int base = 10) {
  const auto at = s.find(key);
  if (at == std::string_view::npos) throw std::runtime_error("manifest: no '" + std::string(key) + "'");
  return number_at(s, at + key.size(), base);
}
std::uint64_t number_before(std::string_view s, std::string_view key) {
  auto at = s.find(key);
  if (at == std::string_view::npos) throw std::runtime_error("manifest: no '" + std::string(key) + "'");
  while (at > 0 && s[at - 1] >= '0' && s[at - 1] <= '9') --at;
  return number_at(s, at);
}
std::string between(std::string_view s, std::string_view open, std::string_view close) {
  const auto a = s.find(open);
  const auto b = s.find(close, a + open.size());
  if (a == std::string_view::npos || b == std::string_view::npos) throw std::runtime_error("manifest: no quoted text");
  return std::string(s.substr(a + open.size(), b - a - open.size()));
}

std::vector<ManifestSave> manifest_saves() {
  std::vector<ManifestSave> out;
  std::ifstream in(test::corpus_dir() / "MANIFEST.tsv");
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    for (std::size_t at = 0;;) {
      const auto tab = line.find('\t', at);
      cols.push_back(line.substr(at, tab - at));
      if (tab == std::string::npos) break;
      at = tab + 1;
    }
    if (cols.size() < 8 || cols[6] != "oblivion-save") continue;
    const std::string_view n = cols[7];
    ManifestSave m;
    m.path = test::corpus_dir() / cols[0];
    m.source_path = cols[2];
    m.bytes = std::stoull(cols[5]);
    m.player = between(n, "player '", "' L");
    m.level = number_after(n, "' L");
    m.location = between(n, " at '", "'; screenshot");
    m.width = number_after(n, "screenshot ");
    m.height = number_after(n, std::to_string(m.width) + "x");
    m.plugins = number_before(n, " plugins;");
    m.created = number_before(n, " created records");
    m.changes = number_before(n, " change records");
    m.npcs = number_after(n, "(NPC_ ");
    m.creatures = number_after(n, ", CREA ");
    m.player_flags = number_after(n, "0x00000007 flags 0x", 16);
    m.player_bytes = number_before(n, " bytes; ");
    m.form_ids = number_before(n, " formIDs");
    m.world_spaces = number_before(n, " worldspaces");
    out.push_back(std::move(m));
  }
  return out;
}

// The play time the game put into the file name ("Playing Time 07.58.54"), in seconds.
std::optional<std::uint64_t> play_time_in_name(const std::string& source_path) {
  const auto at = source_path.find("Playing Time ");
  if (at == std::string::npos) return std::nullopt;
  const std::size_t p = at + 13;
  return number_at(source_path, p) * 3600 + number_at(source_path, p + 3) * 60 + number_at(source_path, p + 6);
}

std::uint32_t u32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
  return std::uint32_t(b[at]) | std::uint32_t(b[at + 1]) << 8 | std::uint32_t(b[at + 2]) << 16 | std::uint32_t(b[at + 3]) << 24;
}

// Offset of formIdsOffset, read from the raw bytes: the file header (38 bytes, saveHeaderSize at
// 34), the save header, the plugin list.
std::size_t form_ids_offset_field(const std::vector<std::uint8_t>& b) {
  std::size_t at = 38 + u32_at(b, 34);
  const std::uint8_t plugins = b[at++];
  for (unsigned i = 0; i < plugins; ++i) at += 1 + b[at];
  return at;
}

}  // namespace

TEST(SaveCorpus, ManifestListsThirteenSaves) {
  TESMOD_REQUIRE_CORPUS();
  EXPECT_EQ(manifest_saves().size(), 13u);
}

TEST(SaveCorpus, EverySaveMatchesTheManifest) {
  TESMOD_REQUIRE_CORPUS();
  const TextCodec codec;
  for (const ManifestSave& m : manifest_saves()) {
    SCOPED_TRACE(m.path.string());
    const SaveFile s = SaveFile::open(m.path);
    EXPECT_EQ(s.input().size(), m.bytes);
    EXPECT_EQ(codec.to_utf8(s.header.player_name()), m.player);
    EXPECT_EQ(s.header.player_level, m.level);
    EXPECT_EQ(codec.to_utf8(s.header.player_location()), m.location);
    EXPECT_EQ(s.header.screenshot.width, m.width);
    EXPECT_EQ(s.header.screenshot.height, m.height);
    EXPECT_EQ(s.plugins.size(), m.plugins);
    EXPECT_EQ(s.global.created.size(), m.created);
    EXPECT_EQ(s.change_records.size(), m.changes);
    std::uint64_t npcs = 0, creatures = 0;
    for (const ChangeRecord& c : s.change_records) {
      npcs += c.type == kNpcChangeType;
      creatures += c.type == kCreatureChangeType;
    }
    EXPECT_EQ(npcs, m.npcs);
    EXPECT_EQ(creatures, m.creatures);
    const ChangeRecord* player = s.find(kPlayer, kNpcChangeType);
    ASSERT_TRUE(player);
    EXPECT_EQ(player->flags, m.player_flags);
    EXPECT_EQ(player->data().size(), m.player_bytes);
    EXPECT_EQ(s.form_ids.size(), m.form_ids);
    EXPECT_EQ(s.world_spaces.size(), m.world_spaces);
    if (auto seconds = play_time_in_name(m.source_path)) {
      EXPECT_EQ(s.header.game_ticks / 1000, *seconds);
    }
  }
}

TEST(SaveCorpus, EverySaveWritesBackIdentical) {
  TESMOD_REQUIRE_CORPUS();
  for (const ManifestSave& m : manifest_saves()) {
    SCOPED_TRACE(m.path.string());
    const SaveFile s = SaveFile::open(m.path);
    const std::vector<std::uint8_t> out = s.to_bytes();
    EXPECT_TRUE(std::equal(out.begin(), out.end(), s.input().begin(), s.input().end()));
    EXPECT_EQ(s.form_ids_offset(), u32_at(out, form_ids_offset_field(out)));
  }
}

TEST(SaveCorpus, EveryActorChangeReencodes) {
  TESMOD_REQUIRE_CORPUS();
  std::uint64_t total = 0, identical = 0, expected = 0;
  for (const ManifestSave& m : manifest_saves()) {
    SCOPED_TRACE(m.path.string());
    const SaveCheck c = check_save(SaveFile::open(m.path));
    EXPECT_TRUE(c.identical);
    EXPECT_EQ(c.change_records.total, m.npcs + m.creatures);
    for (const auto& f : c.change_records.failures) ADD_FAILURE() << describe(f.record) << ": " << f.message;
    total += c.change_records.total;
    identical += c.change_records.identical;
    expected += m.npcs + m.creatures;
  }
  EXPECT_EQ(total, expected);
  EXPECT_EQ(identical, total);
  std::cout << "[ save change records ] " << identical << "/" << total << " NPC_ and CREA change records identical\n";
}

TEST(SaveCorpus, PlayerIsInEverySave) {
  TESMOD_REQUIRE_CORPUS();
  for (const ManifestSave& m : manifest_saves()) {
    SCOPED_TRACE(m.path.string());
    const SaveFile s = SaveFile::open(m.path);
    const ChangeRecord* player = s.find(kPlayer);
    ASSERT_TRUE(player);
    EXPECT_EQ(player->type_signature(), Signature("NPC_"));
    const ActorChange c = decode_actor_change(*player, s.name());
    ASSERT_TRUE(c.attributes && c.skills && c.base_data && c.spells && c.modifiers);
    EXPECT_EQ(c.unknown_flags, 0u);
    // The player's level is in the save header too.
    EXPECT_EQ(c.base_data->level, s.header.player_level);
    // Every spell iref points into the FormID array or at a form created in the save.
    for (std::uint32_t iref : *c.spells) {
      ASSERT_TRUE(s.form_ids.form_id(iref)) << iref;
      if (is_created_form_id(iref)) {
        bool found = false;
        for (const CreatedRecord& r : s.global.created) found = found || r.header.form_id == iref;
        EXPECT_TRUE(found) << std::hex << iref;
      }
    }
  }
}

// Edits of the player in every save, written and read back; the bytes that differ are confined
// to the player record (its flags, size and data), formIdsOffset, the FormID array's count and
// its new entries, and everything between moves by the growth of the record.
TEST(SaveCorpus, PlayerEditChangesOnlyWhatItMust) {
  TESMOD_REQUIRE_CORPUS();
  for (const ManifestSave& m : manifest_saves()) {
    SCOPED_TRACE(m.path.string());
    SaveFile s = SaveFile::open(m.path);
    const std::vector<std::uint8_t> a(s.input().begin(), s.input().end());
    const ChangeRecord& before_record = *s.find(kPlayer, kNpcChangeType);
    const std::size_t at = before_record.offset;
    const std::size_t old_size = before_record.data().size();
    const ActorChange old = decode_actor_change(before_record.data(), before_record.flags, {});
    // A FormID in Oblivion.esm's range that the array does not hold yet.
    std::uint32_t new_spell = 0x00FFFF00;
    while (s.form_ids.find_iref(new_spell)) ++new_spell;
    const std::uint32_t first_spell = *s.form_ids.form_id(old.spells->front());
    const std::uint8_t blade = static_cast<std::uint8_t>(((*old.skills)[2] + 7) % 100);

    ActorEditor e(s, kPlayer);
    e.set_skill("Blade", blade);
    e.set_attribute("Luck", 77);
    e.set_base_health(1234);
    e.set_full_name("Tesmod");
    e.add_spell(new_spell);
    e.remove_spell(first_spell);
    e.commit();
    const std::vector<std::uint8_t> b = s.to_bytes();

    const SaveFile again = SaveFile::parse(FileBytes::hold(b, "edited.ess"));
    const ChangeRecord& r = *again.find(kPlayer, kNpcChangeType);
    const ActorChange c = decode_actor_change(r.data(), r.flags, {});
    EXPECT_EQ((*c.skills)[2], blade);
    EXPECT_EQ((*c.attributes)[7], 77);
    EXPECT_EQ(c.base_health, 1234u);
    EXPECT_EQ(c.full_name, "Tesmod");
    EXPECT_EQ(again.form_ids.form_id(c.spells->back()), new_spell);
    EXPECT_EQ(c.spells->size(), old.spells->size());
    EXPECT_EQ(r.flags, before_record.flags | actor_flags::kBaseHealth | actor_flags::kFullName);
    EXPECT_EQ(c.factions, old.factions);
    EXPECT_EQ(c.modifiers, old.modifiers);
    EXPECT_EQ(c.base_data, old.base_data);

    const std::size_t new_size = r.data().size();
    const std::size_t grown = new_size - old_size;
    EXPECT_EQ(grown, (old.base_health ? 0u : 4u) + 1 + 6 - (old.full_name ? 1 + old.full_name->size() : 0));
    const std::size_t field = form_ids_offset_field(a);
    const std::size_t fids = u32_at(a, field);
    ASSERT_EQ(u32_at(b, field), fids + grown);
    // Before the record: identical but for formIdsOffset.
    for (std::size_t i = 0; i < at; ++i) {
      if (i >= field && i < field + 4) continue;
      ASSERT_EQ(a[i], b[i]) << "offset " << i;
    }
    // The record header: FormID, type and version kept; the size is the new one.
    EXPECT_TRUE(std::equal(a.begin() + at, a.begin() + at + 5, b.begin() + at));
    EXPECT_EQ(a[at + 9], b[at + 9]);
    EXPECT_EQ(b[at + 10] | b[at + 11] << 8, new_size);
    // After the record up to the FormID array: moved, unchanged.
    ASSERT_TRUE(std::equal(a.begin() + at + 12 + old_size, a.begin() + fids, b.begin() + at + 12 + new_size));
    // The FormID array: one entry more, the old ones in place; then the world spaces.
    const std::uint32_t count = u32_at(a, fids);
    ASSERT_EQ(u32_at(b, fids + grown), count + 1);
    ASSERT_TRUE(std::equal(a.begin() + fids + 4, a.begin() + fids + 4 + 4 * count, b.begin() + fids + grown + 4));
    EXPECT_EQ(u32_at(b, fids + grown + 4 + 4 * count), new_spell);
    ASSERT_TRUE(std::equal(a.begin() + fids + 4 + 4 * count, a.end(), b.begin() + fids + grown + 8 + 4 * count, b.end()));
  }
}

// Every corpus save cut short at spread-out lengths and with single bytes changed at
// spread-out and structural offsets: each copy parses (and then writes back exactly as damaged,
// and its actor records decode or report an error), or fails with a tesmod::Error naming the
// file and an offset within it. Run under ASan too.
TEST(SaveCorpus, DamagedSavesFailCleanly) {
  TESMOD_REQUIRE_CORPUS();
  constexpr std::size_t kCuts = 120, kFlips = 120;
  std::size_t cases = 0, errors = 0, parsed = 0;
  for (const ManifestSave& m : manifest_saves()) {
    SCOPED_TRACE(m.path.string());
    const SaveFile original = SaveFile::open(m.path);
    const std::vector<std::uint8_t> good(original.input().begin(), original.input().end());
    // Structural offsets: section starts, created records, change record headers, the end.
    std::vector<std::size_t> spots = {0, 12, 13, 30, 34, 38, 42, form_ids_offset_field(good),
                                      form_ids_offset_field(good) + 4, original.form_ids_offset(), good.size() - 1};
    for (const CreatedRecord& c : original.global.created) spots.push_back(c.offset + 4);
    for (std::size_t i = 0; i < original.change_records.size(); i += original.change_records.size() / 40 + 1) {
      spots.push_back(original.change_records[i].offset + 4);   // type
      spots.push_back(original.change_records[i].offset + 10);  // size
    }
    for (std::size_t k = 0; k < kCuts + kFlips; ++k) {
      std::vector<std::uint8_t> bytes = good;
      const bool cut = k < kCuts;
      std::size_t at = (k * 2654435761u + 97) % good.size();
      if (!cut && k % 2) at = spots[(k / 2) % spots.size()];
      if (cut) bytes.resize(at);
      else bytes[at] ^= static_cast<std::uint8_t>(0x5A + k);
      ++cases;
      try {
        const SaveFile s = SaveFile::parse(FileBytes::hold(bytes, "damaged.ess"));
        ASSERT_FALSE(cut) << "cut at " << at << " parsed";
        ++parsed;
        const SaveCheck c = check_save(s);
        ASSERT_TRUE(c.identical) << "flip at " << at;
        for (const auto& f : c.change_records.failures) EXPECT_NE(f.offset, Error::kNoOffset) << f.message;
      } catch (const Error& e) {
        ++errors;
        EXPECT_EQ(e.file(), "damaged.ess");
        ASSERT_NE(e.offset(), Error::kNoOffset) << e.what();
        EXPECT_LE(e.offset(), bytes.size()) << e.what();
      }
    }
  }
  std::cout << "[ damaged saves ] " << cases << " cases: " << errors << " clean errors, " << parsed
            << " parsed and written back exactly\n";
  EXPECT_EQ(cases, 13 * (kCuts + kFlips));
}
