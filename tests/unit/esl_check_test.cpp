// tesmod esl check: each verdict, each warning, the HEDR 1.71 dependants, the low range blocked by
// a missing master or a dependant naming the plugin first, plugins light already (valid and not),
// where the other tools answer otherwise, and a load order of another game.
#include "tesmod/light/esl_check.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "plugin_maker.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/text/esl_check_text.hpp"
#include "test_support.hpp"

namespace tesmod::light {
namespace {

using loadorder::LoadOrder;
using loadorder::LoadOrderSource;
using test::TestPlugin;
using test::TestRecord;

constexpr std::uint32_t kEsm = record_flags::kMaster;
constexpr std::uint32_t kEsl = record_flags::kLight;

TestRecord misc(std::uint32_t id) {
  return {Signature("MISC"), id, {Field::zstring("EDID", fmt::format("Misc{:08X}", id))}};
}
TestRecord misc(std::uint32_t id, std::string edid) { return {Signature("MISC"), id, {Field::zstring("EDID", edid)}}; }

// Object ids first, first + 1 ... as records of the plugin whose own file index is `index`.
std::vector<TestRecord> miscs(std::uint32_t index, std::uint32_t first, std::uint32_t count) {
  std::vector<TestRecord> out;
  for (std::uint32_t k = 0; k < count; ++k) out.push_back({Signature("MISC"), index << 24 | (first + k)});
  return out;
}

using test::skyrim_se_plugin;

// A Skyrim SE data folder: Skyrim.esm, then the plugins added, active unless told.
struct Folder {
  test::TempDir dir;
  std::string list;
  std::int64_t time = 1000;
  Folder() { add("Skyrim.esm", skyrim_se_plugin({}, {misc(0x800, "GameCoin"), misc(0x801, "GameGem")}, 1.7f, kEsm)); }
  void add(const std::string& name, const TestPlugin& p, bool active = true) {
    test::write_plugin(dir / name, p, time++);
    list += (active ? "*" : "") + name + "\n";
  }
  LoadOrder open(std::optional<Game> game = Game::SkyrimSE) const {
    test::write_text(dir / "plugins.txt", list);
    LoadOrderSource s;
    s.data = dir.path();
    s.game = game;
    s.threads = 2;
    return LoadOrder::open(s);
  }
};

const EslReport& of(const std::vector<EslReport>&& reports, std::string_view name) = delete;  // would dangle
const EslReport& of(const std::vector<EslReport>& reports, std::string_view name) {
  for (const EslReport& r : reports)
    if (r.name == name) return r;
  throw std::runtime_error("no report for " + std::string(name));
}

std::vector<std::string> kinds(const EslReport& r) {
  std::vector<std::string> out;
  for (const EslWarning& w : r.warnings) out.push_back(w.kind);
  return out;
}

std::vector<std::string> tools(const EslReport& r) {
  std::vector<std::string> out;
  for (const EslOtherTool& o : r.others) out.push_back(o.tool);
  return out;
}

std::string all_text(const EslReport& r) {
  std::string out;
  for (const std::string& s : r.reasons) out += s + "\n";
  for (const EslWarning& w : r.warnings) out += w.kind + ": " + w.message + "\n";
  for (const EslOtherTool& o : r.others) out += o.tool + ": " + o.says + "\n";
  return out;
}

TEST(EslCheck, NewRecordsIn800ToFffAreLightOkAndOverridesDoNotCount) {
  Folder f;
  // Two new records in range and an override of the game master's record (file index 00), whose
  // object id would be out of range were it counted.
  f.add("Mod.esp", skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000800), misc(0x01000FFF), misc(0x00000801), misc(0x00012345)}));
  const LoadOrder order = f.open();
  const auto reports = esl_check(order);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0].name, "Skyrim.esm");
  const EslReport& r = of(reports, "Mod.esp");
  EXPECT_EQ(r.verdict, EslVerdict::light_ok) << all_text(r);
  EXPECT_EQ(r.new_records, 2u);
  EXPECT_EQ(r.below_800, 0u);
  EXPECT_EQ(r.above_fff, 0u);
  EXPECT_TRUE(r.out_of_range.empty());
  EXPECT_TRUE(r.game_master_first);
  EXPECT_FALSE(r.light);
  EXPECT_FALSE(is_error(r));
  EXPECT_TRUE(r.others.empty()) << all_text(r);  // every tool agrees
  EXPECT_TRUE(r.warnings.empty());
}

TEST(EslCheck, LowObjectIdsNeedHedr171AndEveryDependantBelowIt) {
  Folder f;
  f.add("Mod.esp", skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000100), misc(0x01000900)}));
  f.add("Dep.esp", skyrim_se_plugin({"Skyrim.esm", "Mod.esp"}, {misc(0x01000100)}));  // overrides Mod's record
  f.add("Dep171.esp", skyrim_se_plugin({"Skyrim.esm", "Mod.esp"}, {}, 1.71f));
  f.add("Other.esp", skyrim_se_plugin({"Skyrim.esm"}, {}));
  f.add("Inactive.esp", skyrim_se_plugin({"Skyrim.esm", "Mod.esp"}, {}), false);
  const LoadOrder order = f.open();
  const auto reports = esl_check(order);
  EXPECT_EQ(reports.size(), 5u);  // the active plugins
  const EslReport& r = of(reports, "Mod.esp");
  EXPECT_EQ(r.verdict, EslVerdict::light_ok_hedr171) << all_text(r);
  EXPECT_EQ(r.below_800, 1u);
  EXPECT_EQ(r.range.first, 0u);
  EXPECT_TRUE(r.low_range_usable);
  ASSERT_EQ(r.dependants.size(), 3u);  // active or not, in load order; Other.esp does not name it
  EXPECT_EQ(r.dependants[0].name, "Dep.esp");
  EXPECT_TRUE(r.dependants[0].needs_171);
  EXPECT_EQ(r.dependants[1].name, "Dep171.esp");
  EXPECT_FALSE(r.dependants[1].needs_171);
  EXPECT_EQ(r.dependants[2].name, "Inactive.esp");
  EXPECT_TRUE(r.dependants[2].needs_171);
  EXPECT_NE(all_text(r).find("2 dependants must become HEDR 1.71 too"), std::string::npos) << all_text(r);
  EXPECT_NE(all_text(r).find("Dep.esp, Inactive.esp"), std::string::npos) << all_text(r);
  EXPECT_NE(all_text(r).find("its HEDR must become 1.71"), std::string::npos) << all_text(r);
  // xEdit's script and Wrye Bash would flag it as it is; esplugin (800-FFF at HEDR 1.70) agrees
  // that it cannot be as it is.
  EXPECT_EQ(tools(r), (std::vector<std::string>{"Wrye Bash", "xEdit"})) << all_text(r);
}

TEST(EslCheck, AHedr171PluginWhoseDependantsAre171CanBeFlaggedAsItIs) {
  Folder f;
  f.add("Mod.esp", skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000100)}, 1.71f));
  f.add("Dep.esp", skyrim_se_plugin({"Skyrim.esm", "Mod.esp"}, {}, 1.71f));
  const auto reports = esl_check(f.open());
  const EslReport& r = of(reports, "Mod.esp");
  EXPECT_EQ(r.verdict, EslVerdict::light_ok_hedr171) << all_text(r);
  EXPECT_NE(all_text(r).find("its HEDR is 1.71 already"), std::string::npos);
  EXPECT_NE(all_text(r).find("every dependant's HEDR is 1.71 already"), std::string::npos);
  EXPECT_TRUE(r.others.empty()) << all_text(r);  // esplugin, Wrye Bash and xEdit: flag it
}

TEST(EslCheck, TheLowRangeIsBlockedWithoutMastersOrWhenADependantNamesThePluginFirst) {
  Folder f;
  f.add("Mod.esp", skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000100), misc(0x01000900)}, 1.71f));
  f.add("First.esp", skyrim_se_plugin({"Mod.esp", "Skyrim.esm"}, {}, 1.71f));  // Mod.esp is its master 00
  f.add("Alone.esp", skyrim_se_plugin({}, {misc(0x00000100), misc(0x00000900)}, 1.71f));
  const auto reports = esl_check(f.open());
  const EslReport& r = of(reports, "Mod.esp");
  EXPECT_FALSE(r.low_range_usable);
  ASSERT_EQ(r.dependants.size(), 1u);
  EXPECT_TRUE(r.dependants[0].first_master);
  EXPECT_EQ(r.verdict, EslVerdict::needs_compaction) << all_text(r);
  EXPECT_EQ(r.range.first, 0x800u);
  EXPECT_EQ(r.out_of_range, (std::vector<std::uint32_t>{0x01000100}));
  EXPECT_NE(all_text(r).find("First.esp names it as the first master"), std::string::npos) << all_text(r);
  // esplugin takes 000-FFF at HEDR 1.71 as valid, whatever names it first.
  EXPECT_EQ(tools(r), (std::vector<std::string>{"esplugin", "Wrye Bash", "xEdit"})) << all_text(r);

  const EslReport& a = of(reports, "Alone.esp");
  EXPECT_FALSE(a.low_range_usable);
  EXPECT_FALSE(a.game_master_first);
  EXPECT_EQ(a.verdict, EslVerdict::needs_compaction) << all_text(a);
  EXPECT_EQ(a.out_of_range, (std::vector<std::uint32_t>{0x00000100}));
  EXPECT_NE(all_text(a).find("it has no masters"), std::string::npos) << all_text(a);
}

TEST(EslCheck, RecordsPastFffNeedCompactionAndAreListedAsStored) {
  Folder f;
  f.add("Mod.esp", skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000800), misc(0x01001000), misc(0x01012345), misc(0x000000AB)}));
  const auto reports = esl_check(f.open());
  const EslReport& r = of(reports, "Mod.esp");
  EXPECT_EQ(r.verdict, EslVerdict::needs_compaction) << all_text(r);
  EXPECT_EQ(r.new_records, 3u);
  EXPECT_EQ(r.above_fff, 2u);
  EXPECT_EQ(r.range.first, 0x800u);
  EXPECT_EQ(r.out_of_range, (std::vector<std::uint32_t>{0x01001000, 0x01012345}));
  EXPECT_NE(all_text(r).find("renumbering them into 800-FFF (tesmod esl compact)"), std::string::npos);
  EXPECT_TRUE(r.others.empty()) << all_text(r);  // xEdit: compact; Wrye Bash and esplugin: not as it is
}

TEST(EslCheck, MoreThan2048RecordsNeedHedr171AndMoreThan4096AreTooMany) {
  Folder f;
  // 2500 records in 100-AC3: fits 000-FFF only with HEDR 1.71.
  f.add("Wide.esp", skyrim_se_plugin({"Skyrim.esm"}, miscs(1, 0x100, 2500)));
  // 3000 records from 800 (up to 13B7): compaction into 000-FFF with HEDR 1.71.
  f.add("Big.esp", skyrim_se_plugin({"Skyrim.esm"}, miscs(1, 0x800, 3000)));
  // The same without masters: the low range cannot serve it, and 2048 is the most.
  f.add("BigAlone.esp", skyrim_se_plugin({}, miscs(0, 0x800, 3000)));
  // 4097 records: nothing makes them fit.
  f.add("Huge.esp", skyrim_se_plugin({"Skyrim.esm"}, miscs(1, 0x800, 4097)));
  const auto reports = esl_check(f.open());

  const EslReport& wide = of(reports, "Wide.esp");
  EXPECT_EQ(wide.verdict, EslVerdict::light_ok_hedr171) << all_text(wide);
  EXPECT_EQ(wide.new_records, 2500u);
  EXPECT_NE(all_text(wide).find("more than 800-FFF holds (2048)"), std::string::npos);
  // xEdit's script lists no plugin of more than 2048 new records.
  EXPECT_EQ(tools(wide), (std::vector<std::string>{"Wrye Bash", "xEdit"})) << all_text(wide);

  const EslReport& big = of(reports, "Big.esp");
  EXPECT_EQ(big.verdict, EslVerdict::needs_compaction) << all_text(big);
  EXPECT_EQ(big.range.first, 0u);
  EXPECT_EQ(big.out_of_range.size(), 3000u - 2048u);
  EXPECT_EQ(big.out_of_range.front(), 0x01001000u);
  EXPECT_NE(all_text(big).find("--hedr 1.71"), std::string::npos);

  const EslReport& alone = of(reports, "BigAlone.esp");
  EXPECT_EQ(alone.verdict, EslVerdict::too_many_records) << all_text(alone);
  EXPECT_NE(all_text(alone).find("it has no masters"), std::string::npos);

  const EslReport& huge = of(reports, "Huge.esp");
  EXPECT_EQ(huge.verdict, EslVerdict::too_many_records) << all_text(huge);
  EXPECT_EQ(huge.new_records, 4097u);
  EXPECT_TRUE(huge.out_of_range.empty());
  EXPECT_NE(all_text(huge).find("at most 4096"), std::string::npos);
  EXPECT_TRUE(huge.others.empty()) << all_text(huge);  // Wrye Bash: past FFF; xEdit: not listed
}

// Adds a new worldspace with its persistent cell (an exterior cell) and a weather to a plugin file.
void add_world_and_weather(const std::filesystem::path& path, std::uint32_t world, std::uint32_t cell,
                           std::uint32_t weather) {
  Plugin p = Plugin::open(path);
  Group& top = p.top_group(Signature("WRLD"));
  Record w(Signature("WRLD"), world, {Field::zstring("EDID", "TestWorld")});
  w.set_form_version(44);
  top.children.emplace_back(std::move(w));
  GroupHeader h;
  h.label = world;
  h.type = 1;  // world children
  Group children(h);
  Record c(Signature("CELL"), cell, {Field::zstring("EDID", "TestExterior")});
  c.set_form_version(44);
  children.children.emplace_back(std::move(c));
  top.children.emplace_back(std::move(children));
  Record weather_record(Signature("WTHR"), weather, {Field::zstring("EDID", "TestWeather")});
  weather_record.set_form_version(44);
  p.add(std::move(weather_record));
  p.save(path);
}

TEST(EslCheck, NewCellsWorldspacesAndWeathersAreWarnedAbout) {
  Folder f;
  // A placed reference puts the plugin's new interior CELL 01000900 (TestCell) in the CELL group.
  TestPlugin mod = skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000800), {Signature("REFR"), 0x01000901}});
  f.add("Mod.esp", mod);
  add_world_and_weather(f.dir / "Mod.esp", 0x01000A00, 0x01000A01, 0x01000B00);
  // Dep.esp overrides the interior cell (its own reference in it); Dep2.esp names Mod.esp but
  // changes nothing of it.
  TestPlugin dep = skyrim_se_plugin({"Skyrim.esm", "Mod.esp"}, {{Signature("REFR"), 0x02000800}});
  dep.cell = 0x01000900;
  f.add("Dep.esp", dep);
  f.add("Dep2.esp", skyrim_se_plugin({"Skyrim.esm", "Mod.esp"}, {misc(0x02000800)}));
  const auto reports = esl_check(f.open());
  const EslReport& r = of(reports, "Mod.esp");
  EXPECT_EQ(r.verdict, EslVerdict::light_ok) << all_text(r);
  EXPECT_EQ(r.new_records, 6u);  // MISC, CELL, REFR, WRLD, exterior CELL, WTHR
  EXPECT_EQ(kinds(r),
            (std::vector<std::string>{"new_cell", "new_cell_overridden", "new_worldspace", "new_cell", "new_weather"}))
      << all_text(r);
  const EslWarning& interior = r.warnings[0];
  ASSERT_TRUE(interior.record);
  EXPECT_EQ(interior.record->form_id, 0x01000900u);
  EXPECT_EQ(interior.record->editor_id, "TestCell");
  EXPECT_NE(interior.message.find("new interior cell"), std::string::npos);
  EXPECT_NE(r.warnings[1].message.find("overridden by Dep.esp:"), std::string::npos) << r.warnings[1].message;
  EXPECT_EQ(r.warnings[2].record->editor_id, "TestWorld");
  EXPECT_NE(r.warnings[2].message.find("landscape"), std::string::npos);
  EXPECT_EQ(r.warnings[3].record->form_id, 0x01000A01u);
  EXPECT_NE(r.warnings[3].message.find("new exterior cell"), std::string::npos);
  EXPECT_EQ(r.warnings[4].record->type, Signature("WTHR"));
  EXPECT_EQ(r.warnings[4].record->editor_id, "TestWeather");
  // Dep.esp's cell is an override, not new: no warning of its own.
  EXPECT_TRUE(of(reports, "Dep.esp").warnings.empty()) << all_text(of(reports, "Dep.esp"));
}

// A plugin without masters is walked without an index (on all threads); once its index is read,
// from the index: both say the same.
TEST(EslCheck, APluginWithoutMastersIsWalkedWithoutAnIndexAndSaysTheSame) {
  Folder f;
  std::vector<TestRecord> records = miscs(0, 0xC00, 300);
  records.push_back(misc(0x00001000));
  records.push_back({Signature("REFR"), 0x00000901});  // in the new interior cell 00000900
  f.add("Alone.esp", skyrim_se_plugin({}, records));
  add_world_and_weather(f.dir / "Alone.esp", 0x00000A00, 0x00000A01, 0x00000B00);
  const LoadOrder order = f.open();
  const std::uint32_t alone = *order.find("Alone.esp");
  const auto first = esl_check(order, std::vector<std::uint32_t>{alone});
  EXPECT_FALSE(order.is_read(alone));  // walked, not indexed
  order.file(alone);
  const auto second = esl_check(order, std::vector<std::uint32_t>{alone});
  for (const auto* reports : {&first, &second}) {
    const EslReport& r = reports->front();
    EXPECT_EQ(r.verdict, EslVerdict::needs_compaction) << all_text(r);
    EXPECT_EQ(r.new_records, 306u);
    EXPECT_EQ(r.out_of_range, (std::vector<std::uint32_t>{0x00001000}));
    EXPECT_EQ(kinds(r), (std::vector<std::string>{"new_cell", "new_worldspace", "new_cell", "new_weather"}))
        << all_text(r);
    ASSERT_EQ(r.warnings.size(), 4u);
    EXPECT_NE(r.warnings[0].message.find("new interior cell"), std::string::npos);
    EXPECT_EQ(r.warnings[0].record->editor_id, "TestCell");
    EXPECT_NE(r.warnings[2].message.find("new exterior cell"), std::string::npos);
  }
  EXPECT_EQ(all_text(first.front()), all_text(second.front()));
}

TEST(EslCheck, TheDependantsThatOverrideANewCellAreReadWhenOnlyThePluginIsChecked) {
  Folder f;
  f.add("Mod.esp", skyrim_se_plugin({"Skyrim.esm"}, {{Signature("REFR"), 0x01000901}}));
  TestPlugin dep = skyrim_se_plugin({"Skyrim.esm", "Mod.esp"}, {{Signature("REFR"), 0x02000800}});
  dep.cell = 0x01000900;
  f.add("Dep.esp", dep, false);  // inactive: still a dependant
  const LoadOrder order = f.open();
  const std::uint32_t mod = *order.find("Mod.esp");
  const auto reports = esl_check(order, std::vector<std::uint32_t>{mod});
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(kinds(reports[0]), (std::vector<std::string>{"new_cell", "new_cell_overridden"})) << all_text(reports[0]);
}

TEST(EslCheck, APluginOfTooManyRecordsGetsNoEngineWarnings) {
  Folder f;
  std::vector<TestRecord> records = miscs(1, 0x800, 4100);
  records.push_back({Signature("WTHR"), 0x01002000});
  f.add("Huge.esp", skyrim_se_plugin({"Skyrim.esm"}, records));
  const std::vector<EslReport> reports = esl_check(f.open());
  const EslReport& r = of(reports, "Huge.esp");
  EXPECT_EQ(r.verdict, EslVerdict::too_many_records);
  EXPECT_TRUE(r.warnings.empty()) << all_text(r);
}

TEST(EslCheck, ALightPluginOutOfItsRangeIsInvalidWithLootsMessage) {
  Folder f;
  f.add("Past.esp", skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000800), misc(0x01001000)}, 1.7f, kEsl));
  f.add("Low.esp", skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000100)}, 1.7f, kEsl));
  f.add("Fine.esp", skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000800)}, 1.7f, kEsl));
  const auto reports = esl_check(f.open());

  const EslReport& past = of(reports, "Past.esp");
  EXPECT_TRUE(past.light);
  EXPECT_FALSE(past.valid_light);
  EXPECT_TRUE(is_error(past));
  EXPECT_EQ(past.verdict, EslVerdict::needs_compaction);
  ASSERT_EQ(kinds(past), (std::vector<std::string>{"already_light_invalid"}));
  EXPECT_NE(past.warnings[0].message.find("This plugin contains records that have FormIDs outside the valid range for "
                                          "an ESL plugin. Using this plugin will cause irreversible damage to your "
                                          "game saves."),
            std::string::npos);
  EXPECT_NE(past.warnings[0].message.find("1 new record outside 800-FFF"), std::string::npos)
      << past.warnings[0].message;
  EXPECT_TRUE(past.others.empty()) << all_text(past);  // LOOT, Wrye Bash and xEdit all object

  // Below 800 at HEDR 1.70: LOOT objects, Wrye Bash and xEdit check only past FFF.
  const EslReport& low = of(reports, "Low.esp");
  EXPECT_EQ(low.verdict, EslVerdict::light_ok_hedr171);
  EXPECT_FALSE(low.valid_light);
  EXPECT_TRUE(is_error(low));
  EXPECT_EQ(tools(low), (std::vector<std::string>{"Wrye Bash", "xEdit"})) << all_text(low);

  const EslReport& fine = of(reports, "Fine.esp");
  EXPECT_TRUE(fine.valid_light);
  EXPECT_FALSE(is_error(fine));
  EXPECT_TRUE(fine.warnings.empty());
}

TEST(EslCheck, ALightHedr171PluginIsValidButItsDependantsBelow171MisreadIt) {
  Folder f;
  f.add("Light.esp", skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000100)}, 1.71f, kEsl));
  f.add("Dep.esp", skyrim_se_plugin({"Skyrim.esm", "Light.esp"}, {}, 1.7f));
  f.add("Alone.esl", skyrim_se_plugin({}, {misc(0x00000100)}, 1.71f));  // .esl: light by its name; no masters
  const auto reports = esl_check(f.open());
  const EslReport& r = of(reports, "Light.esp");
  EXPECT_TRUE(r.valid_light);
  EXPECT_FALSE(is_error(r));
  ASSERT_EQ(kinds(r), (std::vector<std::string>{"dependants_misread"}));
  EXPECT_NE(r.warnings[0].message.find("Dep.esp (HEDR 1.70)"), std::string::npos);

  const EslReport& alone = of(reports, "Alone.esl");
  EXPECT_TRUE(alone.light);
  EXPECT_FALSE(alone.valid_light);
  EXPECT_TRUE(is_error(alone));
  ASSERT_EQ(kinds(alone), (std::vector<std::string>{"already_light_invalid"}));
  EXPECT_NE(alone.warnings[0].message.find("no masters"), std::string::npos);
  // LOOT finds it valid (000-FFF at HEDR 1.71); Wrye Bash and xEdit look past FFF only.
  EXPECT_EQ(tools(alone), (std::vector<std::string>{"esplugin", "Wrye Bash", "xEdit"})) << all_text(alone);
}

TEST(EslCheck, APluginThatDoesNotReadIsUnreadable) {
  Folder f;
  f.add("Mod.esp", skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000800)}));
  // The last record (24 bytes, no fields) says it holds 200 bytes: they run past its group.
  std::vector<std::uint8_t> broken = test::make_plugin(skyrim_se_plugin({"Skyrim.esm"}, {{Signature("MISC"), 0x01000800}}));
  broken[broken.size() - 24 + 4] = 200;
  test::write_file(f.dir / "Broken.esp", broken);
  f.list += "*Broken.esp\n";
  const auto reports = esl_check(f.open());
  const EslReport& r = of(reports, "Broken.esp");
  EXPECT_EQ(r.verdict, EslVerdict::unreadable);
  EXPECT_TRUE(is_error(r));
  EXPECT_FALSE(r.error.empty());
  EXPECT_EQ(of(reports, "Mod.esp").verdict, EslVerdict::light_ok);
}

TEST(EslCheck, OnlySkyrimSeLoadOrdersHaveLightPlugins) {
  test::TempDir dir;
  TestPlugin le = skyrim_se_plugin({}, {misc(0x800)}, 1.7f, kEsm);
  le.game = Game::SkyrimLE;
  test::write_plugin(dir / "Skyrim.esm", le);
  test::write_text(dir / "plugins.txt", "Skyrim.esm\n");
  LoadOrderSource s;
  s.data = dir.path();
  s.game = Game::SkyrimLE;
  const LoadOrder order = LoadOrder::open(s);
  const std::string message = test::error_message([&] { esl_check(order); });
  EXPECT_NE(message.find("only Skyrim SE load orders have light (ESL) plugins; this one is Skyrim LE"),
            std::string::npos)
      << message;
}

TEST(EslCheck, TextAndJsonSayTheSame) {
  Folder f;
  f.add("Mod.esp", skyrim_se_plugin({"Skyrim.esm"}, {misc(0x01000800), misc(0x01001000)}));
  const LoadOrder order = f.open();
  const auto reports = esl_check(order);
  const TextCodec codec;
  const std::string text = text::esl_check_text(reports, codec);
  EXPECT_NE(text.find("Mod.esp: needs_compaction (2 new records, 1 outside 800-FFF)"), std::string::npos) << text;
  EXPECT_NE(text.find("  out of range: 01001000\n"), std::string::npos) << text;
  EXPECT_NE(text.find("summary: 2 plugins: 1 light_ok, 0 light_ok_hedr171, 1 needs_compaction, 0 too_many_records; "
                      "0 light already, 0 invalid\n"),
            std::string::npos)
      << text;
  const std::string json = text::esl_check_json(order, reports, codec);
  EXPECT_NE(json.find("\"out_of_range\": [\n        \"01001000\"\n      ]"), std::string::npos) << json;
  EXPECT_EQ(json, text::esl_check_json(order, esl_check(order), codec));  // deterministic
}

}  // namespace
}  // namespace tesmod::light
