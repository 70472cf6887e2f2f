// The stricter checks of `tesmod check` (record_check.hpp): planted faults of each kind in both
// games and their clean counterparts, the `record` lines of the layout language, and every
// record of every corpus plugin (made by the official tools: no finding).
#include "tesmod/fields/record_check.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "test_support.hpp"

namespace tesmod::fields {
namespace {

std::vector<RecordFinding> structure(Game game, Signature type, std::vector<Signature> fields) {
  std::vector<RecordFinding> out;
  check_record_structure(game, type, fields, out);
  return out;
}

std::string keys(const std::vector<RecordFinding>& found) {
  std::string s;
  for (const RecordFinding& f : found) s += std::string(f.check) + " " + f.field.str() + "; ";
  return s;
}

// A field read as check reads it: the layout choose() gives, then its values, or its size.
std::vector<RecordFinding> field(Game game, Signature record, Signature type, std::vector<std::uint8_t> data) {
  const LayoutTable& table = layout_table(game);
  std::vector<RecordFinding> out;
  if (const FieldLayout* layout = table.choose(record, type, data, false)) {
    check_field_values(*layout, data, false, 2, type, out);
  } else {
    FieldSite site;
    site.record_type = record;
    if (auto f = check_field_size(table, record, type, data, site, 2)) out.push_back(std::move(*f));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// unexpected_field, missing_field, field_order
// ---------------------------------------------------------------------------------------------

TEST(RecordCheck, OblivionLeveledListWithSkyrimFieldsIsUnexpected) {
  const auto found = structure(Game::Oblivion, "LVLI", {"EDID", "OBND", "LVLD", "LVLF", "LLCT", "LVLO", "LVLO"});
  ASSERT_EQ(found.size(), 2u) << keys(found);
  EXPECT_EQ(found[0].check, kUnexpectedField);
  EXPECT_EQ(found[0].field, Signature("OBND"));
  EXPECT_EQ(found[0].field_index, 1u);
  EXPECT_EQ(found[0].message, "OBND is not a field of LVLI in Oblivion");
  EXPECT_EQ(found[1].field, Signature("LLCT"));
  EXPECT_EQ(found[1].field_index, 4u);
  // The same fields are Skyrim's own.
  EXPECT_TRUE(structure(Game::SkyrimSE, "LVLI", {"EDID", "OBND", "LVLD", "LVLF", "LLCT", "LVLO", "LVLO"}).empty());
  EXPECT_TRUE(structure(Game::Oblivion, "LVLI", {"EDID", "LVLD", "LVLF", "LVLO", "LVLO"}).empty());
}

TEST(RecordCheck, SkyrimRecordWithAnOblivionFieldIsUnexpected) {
  const auto found = structure(Game::SkyrimLE, "MISC", {"EDID", "OBND", "FULL", "MODL", "MODB", "DATA"});
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kUnexpectedField);
  EXPECT_EQ(found[0].message, "MODB is not a field of MISC in Skyrim LE");
}

TEST(RecordCheck, LeveledListWithoutChanceNoneIsMissingIt) {
  auto found = structure(Game::Oblivion, "LVSP", {"EDID", "LVLO"});
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kMissingField);
  EXPECT_EQ(found[0].field, Signature("LVLD"));
  EXPECT_EQ(found[0].field_index, SIZE_MAX);
  EXPECT_EQ(found[0].message, "LVSP has no LVLD, which Oblivion requires");
  // Skyrim requires the flags too.
  found = structure(Game::SkyrimSE, "LVSP", {"EDID", "OBND", "LLCT", "LVLO"});
  ASSERT_EQ(found.size(), 2u) << keys(found);
  EXPECT_EQ(found[0].field, Signature("LVLD"));
  EXPECT_EQ(found[1].field, Signature("LVLF"));
  EXPECT_TRUE(structure(Game::Oblivion, "LVSP", {"EDID", "LVLD", "LVLF", "LVLO"}).empty());
  EXPECT_TRUE(structure(Game::SkyrimSE, "LVSP", {"EDID", "OBND", "LVLD", "LVLF", "LLCT", "LVLO"}).empty());
}

TEST(RecordCheck, GameSettingWithoutItsNameIsMissingIt) {
  const auto found = structure(Game::SkyrimSE, "GMST", {"DATA"});
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kMissingField);
  EXPECT_EQ(found[0].field, Signature("EDID"));
}

TEST(RecordCheck, EffectWithoutItsDataIsMissingItInThatEffect) {
  // The second effect has an EFID and no EFIT.
  const auto found = structure(Game::Oblivion, "SPEL", {"EDID", "FULL", "SPIT", "EFID", "EFIT", "EFID", "EFID", "EFIT"});
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kMissingField);
  EXPECT_EQ(found[0].field, Signature("EFIT"));
  EXPECT_EQ(found[0].field_index, 5u);  // the EFID that opened the effect
  EXPECT_TRUE(structure(Game::Oblivion, "SPEL", {"EDID", "FULL", "SPIT", "EFID", "EFIT", "SCIT", "FULL", "EFID", "EFIT"}).empty());
  EXPECT_TRUE(structure(Game::SkyrimSE, "SPEL", {"EDID", "OBND", "FULL", "SPIT", "EFID", "EFIT", "CTDA", "CIS2", "CTDA",
                                                 "EFID", "EFIT"}).empty());
}

TEST(RecordCheck, SwappedFieldsOfAnOrderedTypeAreOutOfOrder) {
  auto found = structure(Game::Oblivion, "LVLI", {"EDID", "LVLF", "LVLD", "LVLO"});
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kFieldOrder);
  EXPECT_EQ(found[0].field, Signature("LVLD"));
  EXPECT_EQ(found[0].field_index, 2u);
  EXPECT_EQ(found[0].message, "LVLD after LVLF: LVLI holds LVLD before LVLF");
  // A leveled entry's extra data before its entry.
  found = structure(Game::SkyrimSE, "LVLI", {"EDID", "OBND", "LVLD", "LVLF", "COED", "LVLO"});
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kFieldOrder);
  EXPECT_EQ(found[0].message, "COED after LVLF: in LVLI it belongs after an LVLO");
  // A condition's string parameter without its condition.
  found = structure(Game::SkyrimSE, "IDLE", {"EDID", "CIS1", "ANAM", "DATA"});
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kFieldOrder);
  // The written order, entries repeating with and without extra data.
  EXPECT_TRUE(structure(Game::SkyrimSE, "LVLI", {"EDID", "OBND", "LVLD", "LVLF", "LLCT", "LVLO", "COED", "LVLO", "LVLO",
                                                 "COED"}).empty());
}

TEST(RecordCheck, FieldThatStandsOnceGivenTwiceIsReported) {
  const auto found = structure(Game::SkyrimSE, "LVLN", {"EDID", "OBND", "LVLD", "LVLF", "LVLO", "COED", "COED"});
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kFieldOrder);
  EXPECT_EQ(found[0].field_index, 6u);
}

TEST(RecordCheck, UnorderedTypesAcceptAnyOrderOfTheirFields) {
  EXPECT_TRUE(structure(Game::Oblivion, "REFR", {"NAME", "XSCL", "EDID", "DATA"}).empty());
  EXPECT_TRUE(structure(Game::SkyrimSE, "NPC_", {"EDID", "FULL", "ACBS", "RNAM", "OBND"}).empty());
  const auto found = structure(Game::Oblivion, "REFR", {"EDID", "DATA"});  // a placed reference of nothing
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kMissingField);
  EXPECT_EQ(found[0].field, Signature("NAME"));
}

TEST(RecordCheck, QuestStagesObjectivesAndAliasesNest) {
  EXPECT_TRUE(structure(Game::SkyrimSE, "QUST",
                        {"EDID", "VMAD", "DNAM", "NEXT", "INDX", "QSDT", "CTDA", "CIS2", "CNAM", "QSDT", "INDX", "QSDT",
                         "QOBJ", "FNAM", "NNAM", "QSTA", "CTDA", "QSTA", "ANAM", "ALST", "ALID", "FNAM", "CTDA", "VTCK",
                         "ALED", "ALLS", "ALID", "ALED"})
                  .empty());
  EXPECT_TRUE(structure(Game::Oblivion, "QUST", {"EDID", "SCRI", "FULL", "DATA", "INDX", "QSDT", "CTDA", "CNAM", "SCHR",
                                                 "SCDA", "SCTX", "SCRO", "QSDT", "INDX", "QSDT", "QSTA", "CTDA"})
                  .empty());
  // A log entry's text outside any stage.
  const auto found = structure(Game::Oblivion, "QUST", {"EDID", "DATA", "CNAM"});
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kFieldOrder);
}

TEST(RecordCheck, RecordTypesWithoutAStructureAreNotChecked) {
  EXPECT_TRUE(structure(Game::SkyrimSE, "IMAD", {"ZZZZ", "EDID"}).empty());
  RecordStructureCheck check(Game::SkyrimSE, "IMAD");
  EXPECT_FALSE(check.active());
}

TEST(RecordCheck, OversizePrefixesArePassedOver) {
  EXPECT_TRUE(structure(Game::SkyrimSE, "FLST", {"EDID", "XXXX", "LNAM"}).empty());
}

// ---------------------------------------------------------------------------------------------
// bad_value, bad_size
// ---------------------------------------------------------------------------------------------

TEST(RecordCheck, UnnamedFlagBitOfACompleteSetIsABadValue) {
  auto found = field(Game::Oblivion, "LVLI", "LVLF", {0x41});
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kBadValue);
  EXPECT_EQ(found[0].field_index, 2u);
  EXPECT_EQ(found[0].message, "LVLF flags 0x41 holds bit 0x40, which LeveledFlags does not name");
  EXPECT_EQ(field(Game::SkyrimSE, "LVLI", "LVLF", {0x30}).size(), 1u);
  EXPECT_TRUE(field(Game::Oblivion, "LVLI", "LVLF", {0x03}).empty());
  EXPECT_TRUE(field(Game::SkyrimSE, "LVLI", "LVLF", {0x0F}).empty());
  // A set not marked complete is not checked (NPC_ flags: bits the game uses that no one named).
  EXPECT_TRUE(field(Game::Oblivion, "NPC_", "ACBS", std::vector<std::uint8_t>(16, 0xFF)).empty());
}

TEST(RecordCheck, UnnamedEnumValueOfACompleteSetIsABadValue) {
  auto found = field(Game::Oblivion, "GLOB", "FNAM", {'x'});
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kBadValue);
  EXPECT_EQ(found[0].message, "FNAM type is 120, which GlobalType does not name");
  EXPECT_EQ(field(Game::SkyrimSE, "GLOB", "FNAM", {'d'}).size(), 1u);
  EXPECT_TRUE(field(Game::Oblivion, "GLOB", "FNAM", {'f'}).empty());
  EXPECT_TRUE(field(Game::SkyrimSE, "GLOB", "FNAM", {'s'}).empty());
}

TEST(RecordCheck, NanFloatIsABadValue) {
  auto found = field(Game::Oblivion, "GLOB", "FLTV", {0x00, 0x00, 0xC0, 0x7F});
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kBadValue);
  EXPECT_EQ(found[0].message, "FLTV value is NaN (0x7FC00000), not a number");
  EXPECT_EQ(field(Game::SkyrimSE, "GLOB", "FLTV", {0x01, 0x00, 0x80, 0xFF}).size(), 1u);  // a signalling NaN
  // Infinity and the largest float (Skyrim's "no water" height) are numbers.
  EXPECT_TRUE(field(Game::SkyrimSE, "GLOB", "FLTV", {0x00, 0x00, 0x80, 0x7F}).empty());
  EXPECT_TRUE(field(Game::SkyrimSE, "GLOB", "FLTV", {0xFF, 0xFF, 0x7F, 0x7F}).empty());
  EXPECT_TRUE(field(Game::Oblivion, "GLOB", "FLTV", {0x00, 0x00, 0x80, 0x3F}).empty());
}

TEST(RecordCheck, FieldOfAWrongSizeIsABadSize) {
  auto found = field(Game::Oblivion, "MISC", "DATA", {1, 2, 3, 4, 5, 6, 7});
  ASSERT_EQ(found.size(), 1u) << keys(found);
  EXPECT_EQ(found[0].check, kBadSize);
  EXPECT_EQ(found[0].field_index, 2u);
  EXPECT_EQ(found[0].message, "DATA holds 7 bytes; its layout takes 8");
  EXPECT_EQ(field(Game::SkyrimSE, "MISC", "DATA", {1, 2, 3, 4, 5, 6, 7}).size(), 1u);
  EXPECT_TRUE(field(Game::Oblivion, "MISC", "DATA", {1, 2, 3, 4, 5, 6, 7, 8}).empty());
  EXPECT_TRUE(field(Game::SkyrimSE, "MISC", "DATA", {1, 2, 3, 4, 5, 6, 7, 8}).empty());
}

TEST(RecordCheck, SizesTheLayoutsDoNotDecideAreNotReported) {
  // No layout: hex on purpose, or unknown.
  EXPECT_TRUE(field(Game::Oblivion, "TES4", "OFST", {1, 2, 3}).empty());
  EXPECT_TRUE(field(Game::SkyrimSE, "MISC", "ZZZZ", {1, 2, 3}).empty());
  // An empty field: a marker.
  EXPECT_TRUE(field(Game::SkyrimSE, "SCEN", "ANAM", {}).empty());
  // A string that lacks its zero fails on content, not size.
  EXPECT_TRUE(field(Game::SkyrimSE, "MISC", "EDID", {'a', 'b'}).empty());
  // GMST DATA: one of its layouts is a string, whatever the size.
  EXPECT_TRUE(field(Game::SkyrimSE, "GMST", "DATA", {1, 2, 3}).empty());
}

// ---------------------------------------------------------------------------------------------
// The `record` lines
// ---------------------------------------------------------------------------------------------

TEST(RecordCheckTable, RecordLinesReadIntoStructures) {
  const LayoutTable table = LayoutTable::parse(R"(
flags Bits complete
  0x1 One
record LVLI,LVSP ordered EDID! LVLD (LVLO COED)* DATA|DAT2+
record CELL unordered EDID DATA
)",
                                               "t");
  const RecordStructure* s = table.record_structure("LVSP");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->ordered);
  ASSERT_EQ(s->elements.size(), 6u);
  EXPECT_TRUE(s->elements[0].required);
  EXPECT_EQ(s->elements[2].group, 1u);
  EXPECT_TRUE(s->groups[1].repeats);
  EXPECT_EQ(s->elements[4].slot, s->elements[5].slot);
  EXPECT_TRUE(s->elements[5].repeats && s->elements[5].required);
  EXPECT_FALSE(table.record_structure("CELL")->ordered);
  EXPECT_EQ(table.record_structure("REFR"), nullptr);
  EXPECT_TRUE(table.names("Bits")->complete);
  std::vector<RecordFinding> out;
  check_record_structure(table, "Test", "LVLI", std::vector<Signature>{"EDID", "LVLO", "COED", "DAT2", "DATA"}, out);
  EXPECT_TRUE(out.empty()) << keys(out);
  check_record_structure(table, "Test", "LVLI", std::vector<Signature>{"EDID", "LVLD"}, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].message, "LVLI has no DATA, which Test requires");
}

TEST(RecordCheckTable, BadRecordLinesNameTheLine) {
  const auto error_of = [](std::string_view text) -> std::string {
    try {
      LayoutTable::parse(text, "t.layouts");
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error_of("\nrecord LVLI sorted EDID\n").find("t.layouts:2"), std::string::npos);
  EXPECT_NE(error_of("record LVLI ordered (LVLO COED\n").find("t.layouts:1"), std::string::npos);
  EXPECT_NE(error_of("record LVLI ordered LVLO)\n").find("closes no group"), std::string::npos);
  EXPECT_NE(error_of("record LVLI ordered (LVLO* COED)\n").find("first field of a group"), std::string::npos);
  EXPECT_NE(error_of("record LVLI ordered LVLOX\n").find("unexpected"), std::string::npos);
  EXPECT_NE(error_of("record * ordered EDID\n").find("record type"), std::string::npos);
  EXPECT_NE(error_of("record LVLI ordered EDID\n\nrecord LVLI unordered EDID\n").find("t.layouts:3"), std::string::npos);
  EXPECT_NE(error_of("record LVLI ordered\n").find("expected"), std::string::npos);
  EXPECT_NE(error_of("\n\nenum E finished\n  0 A\n").find("t.layouts:3"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// The corpus
// ---------------------------------------------------------------------------------------------

// Every finding of the checks on one plugin, one line each, read as `tesmod check` reads it:
// records that are not deleted, each field's layout chosen once.
std::vector<std::string> findings_of(const std::filesystem::path& path) {
  const PluginFile plugin = PluginFile::open(path);
  const LayoutTable& table = layout_table(plugin.game());
  const bool localized = plugin.game() != Game::Oblivion && plugin.header().is_localized();
  Inflater inflater;
  std::vector<std::string> lines;
  std::vector<FieldRef> fields;
  std::vector<RecordFinding> out;
  for (std::uint32_t i = 1; i < plugin.entries().size(); ++i) {
    const IndexEntry& e = plugin.entry(i);
    if (e.is_group() || (e.flags & 0x20)) continue;  // groups; deleted records keep no fields to check
    const auto body = plugin.body(e, inflater);
    fields.clear();
    SubrecordCursor cursor(body, plugin.context(e));
    for (SubrecordView v; cursor.next(v);) fields.push_back({v.type, v.data});
    out.clear();
    RecordStructureCheck structure(table, game_title(plugin.game()), e.type);
    FieldSite site;
    site.record_type = e.type;
    site.localized = localized;
    site.form_version = plugin.record_header(e).form_version;
    const bool conditional = table.has_conditions(e.type);
    for (std::size_t k = 0; k < fields.size(); ++k) {
      structure.field(k, fields[k].type, out);
      site.earlier = std::span(fields).first(k);
      const FieldLayout* layout = conditional ? table.choose(fields[k].type, fields[k].data, site)
                                              : table.choose(e.type, fields[k].type, fields[k].data, localized);
      if (layout) check_field_values(*layout, fields[k].data, localized, k, fields[k].type, out);
      else if (auto f = check_field_size(table, e.type, fields[k].type, fields[k].data, site, k)) out.push_back(*f);
    }
    structure.finish(out);
    for (const RecordFinding& f : out)
      lines.push_back(path.filename().string() + ": " + e.type.str() + " " + std::to_string(e.id) + ": " +
                      std::string(f.check) + ": " + f.message);
  }
  return lines;
}

TEST(RecordCheckCorpus, OfficialToolsPluginsHaveNoFindings) {
  TESMOD_REQUIRE_CORPUS();
  std::size_t plugins = 0;
  std::vector<std::string> all;
  for (const auto& path : test::corpus_plugins()) {
    const auto lines = findings_of(path);
    all.insert(all.end(), lines.begin(), lines.end());
    ++plugins;
  }
  EXPECT_GT(plugins, 50u);
  std::string shown;
  for (std::size_t i = 0; i < all.size() && i < 40; ++i) shown += all[i] + "\n";
  EXPECT_TRUE(all.empty()) << all.size() << " findings, the first:\n" << shown;
}

}  // namespace
}  // namespace tesmod::fields
