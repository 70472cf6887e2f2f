// Every condition of the corpus, both games: decoded and encoded again, and rendered as text,
// parsed and encoded again, all byte-identical; counted against a raw count of CTDA/CTDT fields
// and against the corpus manifest (written by the independent Python reader); real conditions
// read as the spec says; damaged conditions fail cleanly.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <map>
#include <random>

#include "tesmod/fields/condition.hpp"
#include "tesmod/fields/condition_check.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/form_names.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/condition_text.hpp"
#include "test_support.hpp"

using namespace tesmod;
using namespace tesmod::fields;

namespace {

bool is_condition_field(Signature type, Game game) {
  return type == kCTDA || (type == kCTDT && game == Game::Oblivion);
}

// CTDA/CTDT fields of the file, counted from the raw subrecords.
std::uint64_t raw_condition_count(const PluginFile& file) {
  std::uint64_t n = 0;
  Inflater inflater;
  for (const IndexEntry& e : file.entries().subspan(1)) {
    if (e.is_group()) continue;
    for (const SubrecordView& v : read_subrecords(file.body(e, inflater), file.context(e)))
      n += is_condition_field(v.type, file.game());
  }
  return n;
}

// "N CTDA" from the notes column of MANIFEST.tsv, by corpus-relative path (0 when not noted).
std::map<std::string, std::uint64_t> manifest_counts() {
  std::map<std::string, std::uint64_t> out;
  std::ifstream in(test::corpus_dir() / "MANIFEST.tsv");
  std::string line;
  while (std::getline(in, line)) {
    const std::string file = line.substr(0, line.find('\t'));
    std::uint64_t n = 0;
    if (const auto at = line.find(" CTDA"); at != std::string::npos) {
      std::size_t start = at;
      while (start > 0 && std::isdigit(static_cast<unsigned char>(line[start - 1]))) --start;
      n = std::stoull(line.substr(start, at - start));
    }
    out[file] = n;
  }
  return out;
}

std::string corpus_path(const std::filesystem::path& p) {
  return std::filesystem::relative(p, test::corpus_dir()).generic_string();
}

}  // namespace

TEST(ConditionCorpus, EveryConditionRoundTripsThroughBytesAndText) {
  TESMOD_REQUIRE_CORPUS();
  const auto manifest = manifest_counts();
  std::uint64_t oblivion = 0, skyrim = 0, plugins_with = 0;
  for (const auto& path : test::corpus_plugins()) {
    SCOPED_TRACE(path.string());
    const PluginFile file = PluginFile::open(path);
    const std::uint64_t raw = raw_condition_count(file);
    ASSERT_TRUE(manifest.count(corpus_path(path))) << corpus_path(path);
    EXPECT_EQ(raw, manifest.at(corpus_path(path)));
    const PluginFormNamer names = PluginFormNamer::build(file);
    const ConditionChecks checks = check_conditions(file, names);
    EXPECT_EQ(checks.ctda.total, raw);
    EXPECT_EQ(checks.ctda.identical, raw);
    EXPECT_EQ(checks.ctda_text.total, raw);
    EXPECT_EQ(checks.ctda_text.identical, raw);
    for (const FieldFailure& f : checks.ctda.failures) ADD_FAILURE() << describe(f.record) << ": " << f.message;
    for (const FieldFailure& f : checks.ctda_text.failures) ADD_FAILURE() << describe(f.record) << ": " << f.message;
    // The plain hex namer reads its own names back too.
    const ConditionChecks hex = check_conditions(file, text::HexFormNamer());
    EXPECT_EQ(hex.ctda_text.identical, raw);
    (file.game() == Game::Oblivion ? oblivion : skyrim) += raw;
    plugins_with += raw > 0;
  }
  // inspect_plugin.py over the corpus: 337 Oblivion CTDA (all 24 bytes), 3,396 Skyrim (all 32).
  EXPECT_EQ(oblivion, 337u);
  EXPECT_EQ(skyrim, 3396u);
  std::cout << "[ conditions ] " << oblivion + skyrim << " conditions in " << plugins_with << " plugins (" << oblivion
            << " Oblivion, " << skyrim << " Skyrim): bytes and text round trips identical\n";
}

// Conditions looked up in the corpus and compared with the text the spec's format gives for their
// bytes (decoded by hand from the raw fields, EditorIDs from the same plugins).
TEST(ConditionCorpus, RealConditionsReadAsTheSpecSays) {
  TESMOD_REQUIRE_CORPUS();
  struct Case {
    const char* plugin;
    std::uint32_t form_id;
    std::size_t index;  // of the condition in the record
    const char* text;
  };
  const Case cases[] = {
      {"skyrim/AndersonPaschoalon__Skyrim-DSilHand/DawnOfTheSilverHand.esp", 0x0206A54D, 0,
       "GetEventData(GetIsID, K1, DSilHand_R04Keyword) == 1.0"},
      {"skyrim/Voxtric__Skyrim-Mod/Dwemer Secrets.esp", 0x0003C1C4, 0,
       "GetDetected(PackData(17)) == 1.0 [UsePackData]"},
      {"skyrim/Voxtric__Skyrim-Mod/Dwemer Secrets.esp", 0x0003C1C4, 1,
       "PackData(17).GetWithinPackageLocation(PackData(62)) == 1.0"},
      {"skyrim/chesko256__Campfire/Campfire.esp", 0x0202D867, 0,
       "GetVMQuestVariable(_Camp_MainQuest, \"::IsSkyrimVR_var\") == 0.0 [unused=D92B01 p2=39058658]"},
      {"oblivion/Laulajatar__my-oblivion-mods/CTAddPose_Custom.esp", 0x01000CEF, 1,
       "GetQuestVariable(a000CTAddPoseQuest, 14) != -1.0"},
      {"oblivion/katawful__Kat-Oblivion-Scripts/Oblivion Less Bound.esp", 0x000711B8, 3,
       "Target.GetActorValue(Infamy) > 100.0"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.plugin);
    const PluginFile file = PluginFile::open(test::corpus_dir() / k.plugin);
    const PluginFormNamer names = PluginFormNamer::build(file);
    const auto at = file.find_form_id(k.form_id);
    ASSERT_TRUE(at);
    const IndexEntry& e = file.entry(*at);
    Inflater inflater;
    const auto fields = read_subrecords(file.body(e, inflater), file.context(e));
    const auto found = read_conditions(file.game(), fields, file.context(e));
    ASSERT_LT(k.index, found.size());
    EXPECT_EQ(text::render_condition(found[k.index].condition, names), k.text);
    const Condition back = text::parse_condition(k.text, file.game(), names);
    EXPECT_EQ(back, found[k.index].condition);
  }
}

// Conditions cut short or lengthened are errors at the field's offset; any other bytes in a
// condition field decode and come back identical, through text too; a broken field size in the
// file makes check_conditions report, not throw or crash.
TEST(ConditionCorpus, DamagedConditionsFailCleanly) {
  TESMOD_REQUIRE_CORPUS();
  std::mt19937 rng(4);
  std::uint64_t cut = 0, flipped = 0, broken_files = 0;
  for (const auto& path : test::corpus_plugins()) {
    const PluginFile file = PluginFile::open(path);
    // File offsets of the condition fields in stored (not compressed) records, and of their data.
    std::vector<std::uint64_t> condition_fields, condition_bytes;
    Inflater inflater;
    for (const IndexEntry& e : file.entries().subspan(1)) {
      if (e.is_group()) continue;
      const std::uint64_t body = e.is_compressed() ? Error::kNoOffset : e.offset + file.header_size();
      const ErrorContext where = file.context(e);
      for (const SubrecordView& v : read_subrecords(file.body(e, inflater), where, body)) {
        if (!is_condition_field(v.type, file.game())) continue;
        const std::uint64_t field_at = body == Error::kNoOffset ? Error::kNoOffset : body + v.offset;
        for (std::size_t n : {std::size_t(0), v.data.size() / 2, v.data.size() - 1, v.data.size() + 1}) {
          std::vector<std::uint8_t> data(v.data.begin(), v.data.end());
          data.resize(n, 0xAB);
          try {
            decode_condition(file.game(), v.type, data, where, field_at);
            ADD_FAILURE() << describe(*where.record) << ": a " << n << "-byte " << v.type.str() << " decoded";
          } catch (const Error& err) {
            EXPECT_EQ(err.offset(), field_at == Error::kNoOffset ? e.offset : field_at);
            ++cut;
          }
        }
        if (field_at == Error::kNoOffset) continue;
        condition_fields.push_back(field_at);
        for (std::size_t k = 0; k < v.data.size(); ++k) condition_bytes.push_back(field_at + 6 + k);
      }
    }
    if (condition_bytes.empty()) continue;
    const std::vector<std::uint8_t> original = test::read_file(path);
    // Random bytes inside the condition fields.
    std::vector<std::uint8_t> changed = original;
    for (int n = 0; n < 200; ++n) changed[condition_bytes[rng() % condition_bytes.size()]] = std::uint8_t(rng());
    const PluginFile damaged = PluginFile::parse(FileBytes::hold(changed, path.filename().string()));
    const ConditionChecks checks = check_conditions(damaged, text::HexFormNamer());
    EXPECT_EQ(checks.ctda.identical, checks.ctda.total) << path;
    EXPECT_EQ(checks.ctda_text.identical, checks.ctda_text.total) << path;
    flipped += 200;
    // A condition field's u16 size changed: the record no longer tiles, or a condition has the
    // wrong size; either way a reported failure.
    for (int n = 0; n < 20; ++n) {
      std::vector<std::uint8_t> bad = original;
      const std::uint64_t header = condition_fields[rng() % condition_fields.size()];
      bad[header + 4] = std::uint8_t(rng() % 64);
      try {
        const PluginFile f = PluginFile::parse(FileBytes::hold(bad, path.filename().string()));
        const ConditionChecks c = check_conditions(f, text::HexFormNamer());
        if (c.ctda.failures.empty()) {
          EXPECT_EQ(c.ctda.identical, c.ctda.total);
        } else {
          for (const FieldFailure& fail : c.ctda.failures) EXPECT_FALSE(fail.message.empty());
          ++broken_files;
        }
      } catch (const Error& err) {
        EXPECT_FALSE(err.file().empty());  // the index itself may refuse it
      }
    }
  }
  EXPECT_GT(cut, 4u * 3000);
  EXPECT_GT(broken_files, 0u);
  std::cout << "[ damaged conditions ] " << cut << " cut or lengthened fields, " << flipped
            << " random condition bytes, " << broken_files << " files with a broken field size reported\n";
}

namespace {

// Rows of a reference TSV (shared/reference beside the corpus) as column name -> value.
std::vector<std::map<std::string, std::string>> reference_rows(const std::string& name) {
  std::vector<std::map<std::string, std::string>> rows;
  std::ifstream in(test::corpus_dir() / ".." / "reference" / name);
  std::vector<std::string> header;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    for (std::size_t start = 0;;) {
      const std::size_t tab = line.find('\t', start);
      cols.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
      if (tab == std::string::npos) break;
      start = tab + 1;
    }
    if (header.empty()) {
      header = cols;
      continue;
    }
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size(); ++i) row[header[i]] = i < cols.size() ? cols[i] : "";
    rows.push_back(std::move(row));
  }
  return rows;
}

// What TES5Edit's parameter kind means for tesmod (forms of every sort are FormId).
ParamKind kind_of(const std::string& pt) {
  static const std::map<std::string, ParamKind> kinds = {{"", ParamKind::None},
                                                         {"ptNone", ParamKind::None},
                                                         {"ptInteger", ParamKind::Integer},
                                                         {"ptFloat", ParamKind::Float},
                                                         {"ptActorValue", ParamKind::ActorValue},
                                                         {"ptAxis", ParamKind::Axis},
                                                         {"ptSex", ParamKind::Sex},
                                                         {"ptCrimeType", ParamKind::CrimeType},
                                                         {"ptFormType", ParamKind::FormType},
                                                         {"ptQuestStage", ParamKind::QuestStage},
                                                         {"ptVariableName", ParamKind::VariableName},
                                                         {"ptAlias", ParamKind::Alias},
                                                         {"ptPackdata", ParamKind::PackageData},
                                                         {"ptEvent", ParamKind::Event},
                                                         {"ptCastingSource", ParamKind::CastingSource},
                                                         {"ptWardState", ParamKind::WardState},
                                                         {"ptAlignment", ParamKind::Alignment},
                                                         {"ptCriticalStage", ParamKind::CriticalStage},
                                                         {"ptMiscStat", ParamKind::MiscStat},
                                                         {"ptAdvanceAction", ParamKind::AdvanceAction},
                                                         {"ptFurnitureAnim", ParamKind::FurnitureAnim},
                                                         {"ptFurnitureEntry", ParamKind::FurnitureEntry},
                                                         {"ptVATSValueFunction", ParamKind::VatsValueFunction},
                                                         {"ptVATSValueParam", ParamKind::VatsValueParam}};
  auto it = kinds.find(pt);
  return it == kinds.end() ? ParamKind::FormId : it->second;
}

}  // namespace

// The generated Skyrim table holds every row of its source; Oblivion's, built from the script
// command table, gives each condition function TES5Edit's parameter kinds.
TEST(ConditionTables, MatchTheReferenceTables) {
  TESMOD_REQUIRE_CORPUS();
  const auto skyrim = reference_rows("tes5_condition_functions.tsv");
  ASSERT_EQ(skyrim.size(), 402u);
  for (const auto& row : skyrim) {
    const ConditionFunction* f = find_condition_function(Game::SkyrimSE, std::uint16_t(std::stoul(row.at("index"))));
    ASSERT_NE(f, nullptr) << row.at("name");
    EXPECT_EQ(f->name, row.at("name"));
    EXPECT_EQ(f->short_name, row.at("short_name"));
    EXPECT_EQ(f->params[0].kind, kind_of(row.at("param1"))) << f->name;
    EXPECT_EQ(f->params[1].kind, kind_of(row.at("param2"))) << f->name;
  }
  std::size_t oblivion = 0;
  for (const auto& row : reference_rows("tes4_script_functions.tsv")) {
    if (row.at("condition") != "yes") continue;
    ++oblivion;
    const ConditionFunction* f =
        find_condition_function(Game::Oblivion, std::uint16_t(std::stoul(row.at("ctda_index"))));
    ASSERT_NE(f, nullptr) << row.at("name");
    EXPECT_EQ(f->name, row.at("name"));
    EXPECT_EQ(f->params[0].kind, kind_of(row.at("ctda_p1"))) << f->name;
    EXPECT_EQ(f->params[1].kind, kind_of(row.at("ctda_p2"))) << f->name;
  }
  EXPECT_EQ(oblivion, 169u);
  const auto actor_values = reference_rows("tes5_actor_values.tsv");
  ASSERT_EQ(actor_values.size(), 164u);
  for (const auto& row : actor_values)
    EXPECT_EQ(param_value_name(Game::SkyrimSE, ParamKind::ActorValue, std::uint32_t(std::stoul(row.at("index")))),
              row.at("identifier"));
}
