// LOOT's masterlist and userlist as a source of Bash Tags: reading (anchors, aliases, `<<` merge
// keys, regex names, `-Tag`, errors with line and column), matching entries to a plugin, condition
// strings against a fake load order, LOOT's version order, and the version found in a description.
// The expectations follow LOOT's documentation of its metadata syntax and condition strings.
#include "tesmod/patch/loot_metadata.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "tesmod/error.hpp"
#include "tesmod/io/ascii.hpp"

using namespace tesmod;
using namespace tesmod::patch;

namespace {

// A load order made up for the conditions: files by lowercased path ('/' separated), what is
// active, what is a master, checksums, versions and descriptions.
struct FakeLoadOrder {
  std::set<std::string> files;  // lowercased; a ghosted plugin listed as "name.esp.ghost"
  std::set<std::string> active;
  std::set<std::string> masters;
  std::map<std::string, std::uint32_t> crcs;
  std::map<std::string, std::string> versions;
  std::map<std::string, std::string> descriptions;
  bool list_active_plugins = true;  // fill LootFacts::active_plugins

  static std::string key(std::string_view path) {
    std::string k = ascii::to_lower(path);
    for (char& c : k)
      if (c == '\\') c = '/';
    return k;
  }
  bool has(std::string_view path) const {
    const std::string k = key(path);
    return files.count(k) != 0 || files.count(k + ".ghost") != 0;
  }

  LootFacts facts() const {
    LootFacts f;
    f.file_exists = [this](std::string_view path) { return has(path); };
    f.files_matching = [this](std::string_view regex_path) {
      const std::size_t slash = regex_path.rfind('/');
      const std::string dir = slash == std::string_view::npos ? "" : key(regex_path.substr(0, slash + 1));
      const std::regex re(std::string(slash == std::string_view::npos ? regex_path : regex_path.substr(slash + 1)),
                          std::regex::ECMAScript | std::regex::icase);
      std::vector<std::string> out;
      for (std::string file : files) {
        if (file.size() > 6 && file.ends_with(".ghost")) file.resize(file.size() - 6);
        if (file.compare(0, dir.size(), dir) != 0) continue;
        const std::string name = file.substr(dir.size());
        if (name.find('/') == std::string::npos && std::regex_match(name, re)) out.push_back(file);
      }
      return out;
    };
    f.active = [this](std::string_view plugin) { return active.count(key(plugin)) != 0; };
    if (list_active_plugins)
      f.active_plugins = [this] { return std::vector<std::string>(active.begin(), active.end()); };
    f.is_master = [this](std::string_view plugin) { return masters.count(key(plugin)) != 0; };
    f.crc32 = [this](std::string_view path) -> std::optional<std::uint32_t> {
      const auto it = crcs.find(key(path));
      if (it == crcs.end()) return std::nullopt;
      return it->second;
    };
    f.version = [this](std::string_view path) -> std::optional<std::string> {
      const auto it = versions.find(key(path));
      if (it == versions.end()) return std::nullopt;
      return it->second;
    };
    f.description = [this](std::string_view path) -> std::optional<std::string> {
      const auto it = descriptions.find(key(path));
      if (it == descriptions.end()) return std::nullopt;
      return it->second;
    };
    return f;
  }
};

FakeLoadOrder sample_order() {
  FakeLoadOrder o;
  o.files = {"oblivion.esm", "alpha.esp", "beta.esp", "gamma.esp.ghost", "extra.esp", "readme.txt",
             "obse_loader.exe", "textures/a.dds", "textures/b.dds", "meshes/one.nif"};
  o.active = {"oblivion.esm", "alpha.esp", "beta.esp"};
  o.masters = {"oblivion.esm"};
  o.crcs = {{"alpha.esp", 0x1A2B3C4Du}, {"readme.txt", 0xDEADBEEFu}};
  o.versions = {{"alpha.esp", "2.5"}, {"beta.esp", "1.0.0-beta"}};
  o.descriptions = {{"alpha.esp", "Alpha mod by Someone.\nVersion: 2.5 {{BASH:Relev}}"}, {"beta.esp", ""}};
  return o;
}

bool holds(std::string_view condition, const FakeLoadOrder& order) {
  const LootConditionResult r = evaluate_loot_condition(condition, order.facts());
  EXPECT_TRUE(r.skipped.empty()) << condition << ": skipped: " << r.skipped;
  return r.holds;
}

// The error's detail, or "" when parse_loot_metadata does not throw.
std::string parse_error(std::string_view yaml) {
  try {
    parse_loot_metadata(yaml, "masterlist.yaml", LootFile::Masterlist);
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), "masterlist.yaml");
    return e.detail();
  }
  return {};
}

const LootPluginEntry* entry(const LootMetadata& m, std::string_view name) {
  for (const LootPluginEntry& p : m.plugins)
    if (p.name == name) return &p;
  return nullptr;
}

// "Tag" or "-Tag" for each tag, in order.
std::vector<std::string> tag_names(const LootPluginEntry& p) {
  std::vector<std::string> out;
  for (const LootTag& t : p.tags) out.push_back((t.removed ? "-" : "") + t.name);
  return out;
}

}  // namespace

// --- reading ---------------------------------------------------------------------------------

TEST(LootMetadataRead, AnchorsAliasesAndMergeKeys) {
  const std::string yaml =
      "prelude:\n"                                   // 1
      "  common:\n"                                  // 2
      "    - &leveled\n"                             // 3
      "      tag: [Relev, Delev]\n"                  // 4
      "    - &namesIfExtra\n"                        // 5
      "      name: Names\n"                          // 6
      "      condition: 'file(\"Extra.esp\")'\n"     // 7
      "    - &gammaName\n"                           // 8
      "      name: Gamma.esp\n"                      // 9
      "      tag: [Sound]\n"                         // 10
      "plugins:\n"                                   // 11
      "  - name: 'Alpha.esp'\n"                      // 12
      "    <<: *leveled\n"                           // 13
      "  - name: 'Beta.esp'\n"                       // 14
      "    tag:\n"                                   // 15
      "      - *namesIfExtra\n"                      // 16
      "      - -Stats\n"                             // 17
      "  - <<: [*gammaName, *leveled]\n"             // 18
      "    tag: [Graphics]\n"                        // 19
      "  - <<: [*leveled, *gammaName]\n"             // 20
      "    name: Delta.esp\n"                        // 21
      "  - name: Epsilon.esp\n"                      // 22
      "    \"<<\": *leveled\n";                      // 23: quoted, so an ordinary key
  const LootMetadata m = parse_loot_metadata(yaml, "masterlist.yaml", LootFile::Masterlist);
  EXPECT_EQ(m.file, "masterlist.yaml");
  ASSERT_EQ(m.plugins.size(), 5u);

  const LootPluginEntry* alpha = entry(m, "Alpha.esp");
  ASSERT_NE(alpha, nullptr);
  EXPECT_EQ(tag_names(*alpha), (std::vector<std::string>{"Relev", "Delev"}));
  EXPECT_EQ(alpha->line, 12u);
  EXPECT_EQ(alpha->tags[0].line, 4u);  // where the anchored list holds it

  const LootPluginEntry* beta = entry(m, "Beta.esp");
  ASSERT_NE(beta, nullptr);
  EXPECT_EQ(tag_names(*beta), (std::vector<std::string>{"Names", "-Stats"}));
  EXPECT_EQ(beta->tags[0].condition, "file(\"Extra.esp\")");
  EXPECT_FALSE(beta->tags[1].condition.has_value());
  EXPECT_EQ(beta->tags[1].line, 17u);

  // The name comes from the first merged map; the tag written in the entry wins over merged ones.
  const LootPluginEntry* gamma = entry(m, "Gamma.esp");
  ASSERT_NE(gamma, nullptr);
  EXPECT_EQ(tag_names(*gamma), (std::vector<std::string>{"Graphics"}));
  // Of a list of merged maps, the first holding the key wins.
  const LootPluginEntry* delta = entry(m, "Delta.esp");
  ASSERT_NE(delta, nullptr);
  EXPECT_EQ(tag_names(*delta), (std::vector<std::string>{"Relev", "Delev"}));

  const LootPluginEntry* epsilon = entry(m, "Epsilon.esp");
  ASSERT_NE(epsilon, nullptr);
  EXPECT_TRUE(epsilon->tags.empty());
}

TEST(LootMetadataRead, RegexNamesAndRemovedTags) {
  const LootMetadata m = parse_loot_metadata(
      "plugins:\n"
      "  - name: 'Unofficial .+ Patch\\.esp'\n"
      "    tag: [Relev]\n"
      "  - name: 'Plain [Brackets].esp'\n"
      "    tag:\n"
      "      - -Delev\n"
      "      - name: -Relations\n"
      "        condition: 'file(\"A.esm\") or file(\"B.esm\")'\n"
      "      - name: Stats\n"
      "        condition: ''\n"
      "  - name: 'Either (A|B).esp'\n"
      "  - name: 'Any?.esp'\n"
      "  - name: 'Star*.esp'\n"
      "  - name: 'Colon:.esp'\n",
      "userlist.yaml", LootFile::Userlist);
  EXPECT_EQ(m.kind, LootFile::Userlist);
  ASSERT_EQ(m.plugins.size(), 6u);
  EXPECT_TRUE(m.plugins[0].regex);   // holds '\'
  EXPECT_FALSE(m.plugins[1].regex);  // '[' and ']' are not among :\*?|
  EXPECT_TRUE(m.plugins[2].regex);   // '|'
  EXPECT_TRUE(m.plugins[3].regex);   // '?'
  EXPECT_TRUE(m.plugins[4].regex);   // '*'
  EXPECT_TRUE(m.plugins[5].regex);   // ':'

  const std::vector<LootTag>& tags = m.plugins[1].tags;
  ASSERT_EQ(tags.size(), 3u);
  EXPECT_EQ(tags[0].name, "Delev");
  EXPECT_TRUE(tags[0].removed);
  EXPECT_EQ(tags[1].name, "Relations");
  EXPECT_TRUE(tags[1].removed);
  EXPECT_EQ(tags[1].condition, "file(\"A.esm\") or file(\"B.esm\")");
  EXPECT_EQ(tags[1].line, 7u);
  EXPECT_EQ(tags[2].name, "Stats");
  EXPECT_FALSE(tags[2].removed);
  EXPECT_FALSE(tags[2].condition.has_value());  // an empty condition is none
}

TEST(LootMetadataRead, EmptyFileAndNoPlugins) {
  EXPECT_TRUE(parse_loot_metadata("", "empty.yaml", LootFile::Userlist).plugins.empty());
  EXPECT_TRUE(parse_loot_metadata("globals:\n  - type: say\n    content: hi\n", "g.yaml", LootFile::Masterlist).plugins.empty());
  // An entry without tags is kept (it matches, and gives nothing).
  const LootMetadata m = parse_loot_metadata("plugins:\n  - name: A.esp\n    msg: []\n", "m.yaml", LootFile::Masterlist);
  ASSERT_EQ(m.plugins.size(), 1u);
  EXPECT_TRUE(m.plugins[0].tags.empty());
}

TEST(LootMetadataRead, FromAFile) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("tesmod_loot_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".yaml");
  {
    std::ofstream out(path, std::ios::binary);
    out << "plugins:\n  - name: A.esp\n    tag: [Relev, -Delev]\n";
  }
  const LootMetadata m = read_loot_metadata(path, LootFile::Masterlist);
  std::filesystem::remove(path);
  EXPECT_EQ(m.file, path.string());
  ASSERT_EQ(m.plugins.size(), 1u);
  EXPECT_EQ(tag_names(m.plugins[0]), (std::vector<std::string>{"Relev", "-Delev"}));
  try {
    read_loot_metadata(path, LootFile::Masterlist);  // gone now
    FAIL() << "a missing file was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), path.string());
    EXPECT_NE(e.detail().find("cannot be read"), std::string::npos) << e.detail();
  }
}

// --- errors ----------------------------------------------------------------------------------

TEST(LootMetadataErrors, InvalidYamlNamesLineAndColumn) {
  const std::string detail = parse_error(
      "plugins:\n"
      "  - name: 'Alpha.esp'\n"
      "    tag: [Relev\n"
      "  - name: Beta.esp\n");
  EXPECT_EQ(detail.rfind("line 4, column 9: not valid YAML: ", 0), 0u) << detail;
  const std::string alias = parse_error("plugins:\n  - name: A.esp\n    tag: [*nowhere]\n");
  EXPECT_EQ(alias.rfind("line 3, column 11: not valid YAML: ", 0), 0u) << alias;
}

TEST(LootMetadataErrors, InvalidShape) {
  EXPECT_EQ(parse_error("plugins:\n  name: A.esp\n"), "line 2, column 3: 'plugins' is not a list");
  EXPECT_EQ(parse_error("- a\n- b\n"), "line 1, column 1: the file is not a map of LOOT's keys (plugins, globals ...)");
  EXPECT_EQ(parse_error("plugins:\n  - just a string\n"), "line 2, column 5: a plugin entry is not a map");
  EXPECT_EQ(parse_error("plugins:\n  - tag: [Relev]\n"), "line 2, column 5: a plugin entry has no name");
  EXPECT_EQ(parse_error("plugins:\n  - name: A.esp\n    tag: Relev\n"), "line 3, column 10: A.esp: 'tag' is not a list");
  EXPECT_EQ(parse_error("plugins:\n  - name: A.esp\n    tag:\n      - Relev\n      - [Delev]\n"),
            "line 5, column 9: A.esp: a tag is neither a string nor a map with a name");
  EXPECT_EQ(parse_error("plugins:\n  - name: A.esp\n    tag:\n      - condition: 'file(\"B.esp\")'\n"),
            "line 4, column 9: A.esp: a tag map has no name");
  EXPECT_EQ(parse_error("plugins:\n  - name: A.esp\n    tag: [Relev, '-']\n"), "line 3, column 18: A.esp: a tag has an empty name");
  // A merge key must bring in a map: the error names the map that holds it.
  EXPECT_EQ(parse_error("x: &a 3\nplugins:\n  - <<: *a\n    name: A.esp\n"),
            "line 3, column 5: '<<' merges something that is not a map (it takes a map or a list of maps)");
}

TEST(LootMetadataErrors, InvalidRegexName) {
  const std::string detail = parse_error("plugins:\n  - name: A.esp\n  - name: 'Broken(|.esp'\n    tag: [Relev]\n");
  EXPECT_EQ(detail.rfind("line 3, column 11: plugin name 'Broken(|.esp' is not a valid regular expression: ", 0), 0u)
      << detail;
}

TEST(LootMetadataErrors, ConditionThatDoesNotParse) {
  const std::string yaml_head = "plugins:\n  - name: A.esp\n    tag:\n      - name: Relev\n        condition: ";
  const std::string dangling = parse_error(yaml_head + "'file(\"B.esp\") and'\n");
  EXPECT_EQ(dangling.rfind("line 5, column 20: A.esp: tag 'Relev': condition 'file(\"B.esp\") and' does not parse: ", 0), 0u)
      << dangling;
  EXPECT_NE(dangling.find("(at character 18)"), std::string::npos) << dangling;
  // A regex argument that is not valid.
  const std::string regex = parse_error(yaml_head + "'file(\"(bad|.esp\")'\n");
  EXPECT_NE(regex.find("line 5, column 20"), std::string::npos) << regex;
  EXPECT_NE(regex.find("is not a valid regular expression"), std::string::npos) << regex;
  // Wrong arguments for a function LOOT documents.
  EXPECT_NE(parse_error(yaml_head + "'checksum(\"B.esp\", XYZ)'\n").find("'XYZ' is not hexadecimal"), std::string::npos);
  EXPECT_NE(parse_error(yaml_head + "'version(\"B.esp\", \"1.0\")'\n").find("version() takes a path, a version and a comparator"),
            std::string::npos);
}

TEST(LootMetadataErrors, ConditionGrammar) {
  EXPECT_EQ(loot_condition_error("file(\"A.esp\")"), "");
  EXPECT_EQ(loot_condition_error("  "), "");
  EXPECT_EQ(loot_condition_error("not (file(\"A.esp\") or\n\tfile(\"B.esp\"))"), "");
  EXPECT_EQ(loot_condition_error("version(\"A.esp\", \"1.0\", >=) and checksum(\"A.esp\", 0badF00d)"), "");
  EXPECT_NE(loot_condition_error("not not file(\"A.esp\")"), "");  // not negates a function or a parenthesis
  EXPECT_NE(loot_condition_error("file(\"A.esp\") file(\"B.esp\")"), "");
  EXPECT_NE(loot_condition_error("(file(\"A.esp\")"), "");
  EXPECT_NE(loot_condition_error("file(\"A.esp)"), "");
  EXPECT_NE(loot_condition_error("file(\"\")"), "");
  EXPECT_NE(loot_condition_error("checksum(\"A.esp\", 123456789)"), "");  // more than 32 bits
  EXPECT_NE(loot_condition_error("many(\"Textures/\")"), "");            // no file-name regex
  // A function LOOT does not document parses (and is skipped when evaluated).
  EXPECT_EQ(loot_condition_error("some_future_function(\"A.esp\", 3)"), "");
}

// --- matching --------------------------------------------------------------------------------

TEST(LootMetadataMatch, ExactNamesThenRegexesAnyCase) {
  const LootMetadata m = parse_loot_metadata(
      "plugins:\n"
      "  - name: 'Unofficial .+ Patch\\.esp'\n"
      "    tag: [Delev]\n"
      "  - name: 'unofficial oblivion patch.ESP'\n"
      "    tag: [Relev]\n"
      "  - name: 'Unofficial Oblivion'\n"  // a prefix only: an exact name must be the whole name
      "    tag: [Names]\n"
      "  - name: 'Unofficial'\n"
      "    tag: [Stats]\n"
      "  - name: 'unofficial.*'\n"  // '*': a regex, matched without regard to case
      "    tag: [Sound]\n",
      "masterlist.yaml", LootFile::Masterlist);
  const std::vector<LootTagDecision> d = loot_tags_for("Unofficial Oblivion Patch.esp", {&m}, sample_order().facts());
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].tag, "Relev");  // the exact name first, though written second
  EXPECT_EQ(d[0].line, 5u);
  EXPECT_EQ(d[1].tag, "Delev");
  EXPECT_EQ(d[2].tag, "Sound");
  for (const LootTagDecision& x : d) {
    EXPECT_TRUE(x.applies);
    EXPECT_TRUE(x.condition.empty());
    EXPECT_EQ(x.from, LootFile::Masterlist);
  }
  // A regex matches the whole name: not a longer one.
  const std::vector<LootTagDecision> longer = loot_tags_for("Unofficial Oblivion Patch.esp.bak", {&m}, sample_order().facts());
  ASSERT_EQ(longer.size(), 1u);
  EXPECT_EQ(longer[0].tag, "Sound");
  EXPECT_TRUE(loot_tags_for("Other.esp", {&m}, sample_order().facts()).empty());
}

TEST(LootMetadataMatch, MasterlistBeforeUserlist) {
  const LootMetadata master = parse_loot_metadata("plugins:\n  - name: A.esp\n    tag: [Relev, -Names]\n", "masterlist.yaml",
                                                  LootFile::Masterlist);
  const LootMetadata user = parse_loot_metadata("plugins:\n  - name: a.esp\n    tag: [Names, -Relev]\n  - name: 'A\\.esp'\n    tag: [Stats]\n",
                                                "userlist.yaml", LootFile::Userlist);
  // Given userlist first: the masterlist's decisions still come first.
  const std::vector<LootTagDecision> d = loot_tags_for("A.esp", {&user, nullptr, &master}, sample_order().facts());
  ASSERT_EQ(d.size(), 5u);
  EXPECT_EQ(d[0].tag, "Relev");
  EXPECT_FALSE(d[0].removed);
  EXPECT_EQ(d[0].from, LootFile::Masterlist);
  EXPECT_EQ(d[1].tag, "Names");
  EXPECT_TRUE(d[1].removed);
  EXPECT_EQ(d[1].from, LootFile::Masterlist);
  EXPECT_EQ(d[2].tag, "Names");
  EXPECT_FALSE(d[2].removed);
  EXPECT_EQ(d[2].from, LootFile::Userlist);
  EXPECT_EQ(d[3].tag, "Relev");
  EXPECT_TRUE(d[3].removed);
  EXPECT_EQ(d[3].from, LootFile::Userlist);
  EXPECT_EQ(d[4].tag, "Stats");
  EXPECT_EQ(d[4].line, 5u);
}

TEST(LootMetadataMatch, ConditionsDecideAndSkippedTagsDoNotApply) {
  const LootMetadata m = parse_loot_metadata(
      "plugins:\n"
      "  - name: Alpha.esp\n"
      "    tag:\n"
      "      - name: Relev\n"
      "        condition: 'file(\"Beta.esp\")'\n"
      "      - name: -Delev\n"
      "        condition: 'file(\"Missing.esp\")'\n"
      "      - name: Names\n"
      "        condition: 'product_version(\"OBSE_Loader.exe\", \"1.2\", >=)'\n",
      "masterlist.yaml", LootFile::Masterlist);
  const std::vector<LootTagDecision> d = loot_tags_for("alpha.esp", {&m}, sample_order().facts());
  ASSERT_EQ(d.size(), 3u);
  EXPECT_TRUE(d[0].applies);
  EXPECT_EQ(d[0].condition, "file(\"Beta.esp\")");
  EXPECT_TRUE(d[0].skipped.empty());
  EXPECT_FALSE(d[1].applies);
  EXPECT_TRUE(d[1].removed);
  EXPECT_TRUE(d[1].skipped.empty());
  EXPECT_FALSE(d[2].applies);
  EXPECT_NE(d[2].skipped.find("product_version()"), std::string::npos) << d[2].skipped;
  EXPECT_EQ(d[2].line, 8u);
}

// --- condition functions ---------------------------------------------------------------------

TEST(LootMetadataCondition, FileAndReadable) {
  const FakeLoadOrder o = sample_order();
  EXPECT_TRUE(holds("file(\"Alpha.esp\")", o));
  EXPECT_TRUE(holds("file(\"ALPHA.ESP\")", o));
  EXPECT_TRUE(holds("file(\"Gamma.esp\")", o));  // ghosted
  EXPECT_FALSE(holds("file(\"Missing.esp\")", o));
  EXPECT_TRUE(holds("file(\"Textures/a.dds\")", o));
  // A regex in the file name.
  EXPECT_TRUE(holds("file(\"Textures/[ab]\\.dds\")", o));
  EXPECT_FALSE(holds("file(\"Textures/c\\.dds\")", o));
  EXPECT_TRUE(holds("file(\"G.+\\.esp\")", o));  // the ghosted plugin, by its name without .ghost
  EXPECT_FALSE(holds("file(\"lpha\\.esp\")", o));  // the whole name must match
  EXPECT_TRUE(holds("readable(\"Readme.txt\")", o));
  EXPECT_FALSE(holds("readable(\"Missing.txt\")", o));
}

TEST(LootMetadataCondition, ActiveAndManyActive) {
  FakeLoadOrder o = sample_order();
  EXPECT_TRUE(holds("active(\"Beta.esp\")", o));
  EXPECT_FALSE(holds("active(\"Extra.esp\")", o));  // present, not active
  EXPECT_FALSE(holds("active(\"Missing.esp\")", o));
  EXPECT_TRUE(holds("active(\"(Alpha|Delta)\\.esp\")", o));
  EXPECT_FALSE(holds("active(\"(Extra|Delta)\\.esp\")", o));
  EXPECT_TRUE(holds("many_active(\".+\\.esp\")", o));     // Alpha and Beta
  EXPECT_FALSE(holds("many_active(\"Al.+\\.esp\")", o));  // only one
  // Without the list of active plugins: the files that match, asked one by one.
  o.list_active_plugins = false;
  EXPECT_TRUE(holds("active(\"(Alpha|Delta)\\.esp\")", o));
  EXPECT_FALSE(holds("active(\"Ext.+\\.esp\")", o));
  EXPECT_TRUE(holds("many_active(\".+\\.esp\")", o));
  EXPECT_FALSE(holds("many_active(\"(Extra|Alpha)\\.esp\")", o));
}

TEST(LootMetadataCondition, Many) {
  const FakeLoadOrder o = sample_order();
  EXPECT_TRUE(holds("many(\"Textures/.+\\.dds\")", o));
  EXPECT_FALSE(holds("many(\"Meshes/.+\\.nif\")", o));  // one only
  EXPECT_FALSE(holds("many(\"Sounds/.+\")", o));        // none
  EXPECT_TRUE(holds("many(\"(alpha|beta)\\.esp\")", o));
}

TEST(LootMetadataCondition, IsMasterAndChecksum) {
  const FakeLoadOrder o = sample_order();
  EXPECT_TRUE(holds("is_master(\"Oblivion.esm\")", o));
  EXPECT_FALSE(holds("is_master(\"Alpha.esp\")", o));
  EXPECT_FALSE(holds("is_master(\"Missing.esm\")", o));
  EXPECT_TRUE(holds("checksum(\"Alpha.esp\", 1A2B3C4D)", o));
  EXPECT_TRUE(holds("checksum(\"Alpha.esp\", 1a2b3c4d)", o));
  EXPECT_FALSE(holds("checksum(\"Alpha.esp\", 1A2B3C4E)", o));
  EXPECT_TRUE(holds("checksum(\"Readme.txt\",DEADBEEF)", o));
  EXPECT_FALSE(holds("checksum(\"Missing.esp\", 0)", o));
}

TEST(LootMetadataCondition, VersionOfPlugins) {
  const FakeLoadOrder o = sample_order();  // Alpha 2.5, Beta 1.0.0-beta, Extra none
  EXPECT_TRUE(holds("version(\"Alpha.esp\", \"2.5\", ==)", o));
  EXPECT_TRUE(holds("version(\"Alpha.esp\", \"2.5.0\", ==)", o));
  EXPECT_FALSE(holds("version(\"Alpha.esp\", \"2.5\", !=)", o));
  EXPECT_TRUE(holds("version(\"Alpha.esp\", \"2.10\", <)", o));  // numbers, not text
  EXPECT_FALSE(holds("version(\"Alpha.esp\", \"2.10\", >)", o));
  EXPECT_TRUE(holds("version(\"Alpha.esp\", \"2.5\", >=)", o));
  EXPECT_TRUE(holds("version(\"Alpha.esp\", \"2.5\", <=)", o));
  EXPECT_TRUE(holds("version(\"Alpha.esp\", >, \"2.4\")", o));  // the newer order of arguments
  EXPECT_TRUE(holds("version(\"Beta.esp\", \"1.0.0\", <)", o));  // a pre-release is lower
  // No version (none in the description, or no such plugin): less than any given version.
  for (const char* plugin : {"Extra.esp", "Missing.esp"}) {
    const std::string p = plugin;
    EXPECT_TRUE(holds("version(\"" + p + "\", \"1.0\", <)", o)) << p;
    EXPECT_TRUE(holds("version(\"" + p + "\", \"1.0\", <=)", o)) << p;
    EXPECT_TRUE(holds("version(\"" + p + "\", \"1.0\", !=)", o)) << p;
    EXPECT_FALSE(holds("version(\"" + p + "\", \"1.0\", ==)", o)) << p;
    EXPECT_FALSE(holds("version(\"" + p + "\", \"1.0\", >)", o)) << p;
    EXPECT_FALSE(holds("version(\"" + p + "\", \"1.0\", >=)", o)) << p;
  }
}

TEST(LootMetadataCondition, VersionOfOtherFiles) {
  const FakeLoadOrder o = sample_order();
  // A missing executable has no version, which is answered...
  EXPECT_TRUE(holds("version(\"../Missing.exe\", \"1.0\", <)", o));
  EXPECT_FALSE(holds("version(\"../Missing.exe\", \"1.0\", ==)", o));
  // ... a present one's version is not read: skipped, naming the function.
  const LootConditionResult r = evaluate_loot_condition("version(\"OBSE_Loader.exe\", \"1.0\", <)", o.facts());
  EXPECT_FALSE(r.holds);
  EXPECT_NE(r.skipped.find("version() of \"OBSE_Loader.exe\""), std::string::npos) << r.skipped;
}

TEST(LootMetadataCondition, DescriptionContains) {
  FakeLoadOrder o = sample_order();
  EXPECT_TRUE(holds("description_contains(\"Alpha.esp\", \"by some\")", o));  // any case, anywhere
  EXPECT_TRUE(holds("description_contains(\"Alpha.esp\", \"version: 2\\.\\d\")", o));
  EXPECT_FALSE(holds("description_contains(\"Alpha.esp\", \"^Version\")", o));
  EXPECT_FALSE(holds("description_contains(\"Beta.esp\", \"mod\")", o));
  EXPECT_FALSE(holds("description_contains(\"Missing.esp\", \".*\")", o));
  // Without descriptions among the facts: skipped, naming the function.
  LootFacts facts = o.facts();
  facts.description = nullptr;
  const LootConditionResult r = evaluate_loot_condition("description_contains(\"Alpha.esp\", \"by\")", facts);
  EXPECT_FALSE(r.holds);
  EXPECT_NE(r.skipped.find("description_contains()"), std::string::npos) << r.skipped;
}

TEST(LootMetadataCondition, APathologicalPatternIsRefusedOrQuickNeverSlow) {
  // Found by loot_metadata_fuzzer: stacked quantifiers made a backtracking engine run for minutes.
  FakeLoadOrder o = sample_order();
  o.active.insert(std::string(60, 'a') + "!.esp");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(loot_condition_error("active(\"o++++???????++++++++++(con\")").empty());
  EXPECT_FALSE(holds("active(\"(a+)+b\")", o));  // exponential for a backtracking engine on 60 a's
  EXPECT_TRUE(holds("active(\"(a+)+!\\.esp\")", o));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(LootMetadataCondition, DeepNestingIsAnErrorNotAStackOverflow) {
  // Found by loot_metadata_fuzzer: 2,000 open parentheses overflowed the parser's stack.
  EXPECT_NE(loot_condition_error(std::string(2000, '(')).find("64 deep"), std::string::npos);
  const std::string deep = std::string(64, '(') + "file(\"A.esp\")" + std::string(64, ')');
  EXPECT_TRUE(loot_condition_error(deep).empty());
  EXPECT_FALSE(loot_condition_error("(" + deep + ")").empty());
  // YAML nested deeply is yaml-cpp's error, named with the file.
  EXPECT_THROW(parse_loot_metadata(std::string(5000, '['), "deep.yaml", LootFile::Masterlist), Error);
}

TEST(LootMetadataCondition, FilenameVersion) {
  FakeLoadOrder o = sample_order();
  o.files.insert("skse/plugins/engine fixes 1.5.dll");
  EXPECT_TRUE(holds("filename_version(\"SKSE/Plugins/Engine Fixes (.+)\\.dll\", \"1.4\", >)", o));
  EXPECT_FALSE(holds("filename_version(\"SKSE/Plugins/Engine Fixes (.+)\\.dll\", >=, \"1.6\")", o));
  EXPECT_FALSE(holds("filename_version(\"SKSE/Plugins/Other (.+)\\.dll\", \"1.0\", <)", o));  // none matches
}

TEST(LootMetadataCondition, SkippedFunctions) {
  const FakeLoadOrder o = sample_order();
  for (const char* condition : {"product_version(\"OBSE_Loader.exe\", \"1.2\", ==)", "is_executable(\"OBSE_Loader.exe\")",
                                "file_size(\"Readme.txt\", 100)", "future_thing(\"Alpha.esp\")"}) {
    const LootConditionResult r = evaluate_loot_condition(condition, o.facts());
    EXPECT_FALSE(r.holds) << condition;
    const std::string c = condition;
    const std::string function = c.substr(0, c.find('(')) + "()";
    EXPECT_NE(r.skipped.find(function), std::string::npos) << condition << ": " << r.skipped;
    // Negating it does not make it answerable.
    const LootConditionResult n = evaluate_loot_condition("not " + c, o.facts());
    EXPECT_FALSE(n.holds);
    EXPECT_EQ(n.skipped, r.skipped);
  }
  // What LOOT gives without reading the file: a missing executable has no version, is no executable.
  EXPECT_TRUE(holds("product_version(\"../Missing.exe\", \"1.2\", <)", o));
  EXPECT_FALSE(holds("is_executable(\"../Missing.exe\")", o));
  // An unparseable condition evaluates as skipped, saying why.
  const LootConditionResult bad = evaluate_loot_condition("file(\"A.esp\"", o.facts());
  EXPECT_FALSE(bad.holds);
  EXPECT_NE(bad.skipped.find("does not parse"), std::string::npos) << bad.skipped;
  // No condition holds.
  EXPECT_TRUE(evaluate_loot_condition("", o.facts()).holds);
}

TEST(LootMetadataCondition, SkippedOnlyWhenItMatters) {
  const FakeLoadOrder o = sample_order();
  const std::string unknown = "product_version(\"OBSE_Loader.exe\", \"1.2\", ==)";
  // true or X, X or true: true whatever X is.
  EXPECT_TRUE(holds("file(\"Alpha.esp\") or " + unknown, o));
  EXPECT_TRUE(holds(unknown + " or file(\"Alpha.esp\")", o));
  // false and X: false whatever X is.
  EXPECT_FALSE(holds(unknown + " and file(\"Missing.esp\")", o));
  // true and X, false or X: X decides, so skipped.
  for (const std::string& c : {"file(\"Alpha.esp\") and " + unknown, "file(\"Missing.esp\") or " + unknown}) {
    const LootConditionResult r = evaluate_loot_condition(c, o.facts());
    EXPECT_FALSE(r.holds) << c;
    EXPECT_NE(r.skipped.find("product_version()"), std::string::npos) << c;
  }
}

TEST(LootMetadataCondition, NotAndOrPrecedence) {
  const FakeLoadOrder o = sample_order();
  const std::string t = "file(\"Alpha.esp\")";    // true
  const std::string f = "file(\"Missing.esp\")";  // false
  // and binds tighter than or: t or (f and f), not (t or f) and f.
  EXPECT_TRUE(holds(t + " or " + f + " and " + f, o));
  EXPECT_FALSE(holds("(" + t + " or " + f + ") and " + f, o));
  EXPECT_TRUE(holds(f + " and " + f + " or " + t, o));
  // not binds tighter than and and or: (not t) or t, (not f) and t.
  EXPECT_TRUE(holds("not " + t + " or " + t, o));
  EXPECT_FALSE(holds("not (" + t + " or " + t + ")", o));
  EXPECT_TRUE(holds("not " + f + " and " + t, o));
  EXPECT_FALSE(holds("not " + t + " and " + t, o));
  // LOOT's example: function and function or not function = (f and f) or (not f).
  EXPECT_TRUE(holds(t + " and " + f + " or not " + f, o));
  EXPECT_FALSE(holds(t + " and (" + f + " or not " + t + ")", o));
  // Nested parentheses and line breaks between the parts.
  EXPECT_TRUE(holds("((" + f + ")\n or (not (" + f + " or " + f + ")))", o));
  // Several of one operator in a row.
  EXPECT_TRUE(holds(f + " or " + f + " or " + t, o));
  EXPECT_FALSE(holds(t + " and " + t + " and " + f, o));
}

// --- versions --------------------------------------------------------------------------------

TEST(LootMetadataVersion, ComparisonRules) {
  auto cmp = [](std::string_view a, std::string_view b) { return compare_loot_versions(a, b); };
  EXPECT_GT(cmp("1.2.10", "1.2.9"), 0);           // numerically
  EXPECT_EQ(cmp("01.02.03", "1.2.3"), 0);         // leading zeros
  EXPECT_EQ(cmp("1.0", "1.0.0.0"), 0);            // padded with zeros
  EXPECT_LT(cmp("1.0", "1.0.0.1"), 0);
  EXPECT_EQ(cmp("1,2,3,4", "1.2.3.4"), 0);        // comma separated
  EXPECT_EQ(cmp("0, 2, 0, 12", "0.2.0.12"), 0);   // OBSE/SKSE style
  EXPECT_LT(cmp("1.0.0-alpha", "1.0.0"), 0);      // a pre-release is lower
  EXPECT_EQ(cmp("1.2.3 alpha", "1.2.3-alpha"), 0);
  EXPECT_EQ(cmp("1.2.3_alpha.1", "1.2.3:alpha-1"), 0);
  EXPECT_GT(cmp("1.0.0-Beta", "1.0.0-alpha"), 0);  // lowercased before comparing
  EXPECT_LT(cmp("1.0.0-alpha", "1.0.0-alpha.1"), 0);
  EXPECT_LT(cmp("1.0.0-2", "1.0.0-a"), 0);        // numeric pre-release parts are lower
  EXPECT_LT(cmp("1.0.0-2", "1.0.0-10"), 0);
  EXPECT_LT(cmp("1-beta", "1.0.1-beta"), 0);
  EXPECT_EQ(cmp("1.0+build.5", "1.0"), 0);        // build metadata ignored
  EXPECT_GT(cmp("1.A", "1.1"), 0);                // no leading digits: above a number
  EXPECT_GT(cmp("1.1A", "1.1"), 0);               // same leading number: above it
  EXPECT_GT(cmp("1.2", "1.1A"), 0);               // else the numbers decide
  EXPECT_GT(cmp("1.1A", "1.0"), 0);
  EXPECT_GT(cmp("0.78b.1", "0.78a.9"), 0);
  EXPECT_EQ(cmp("", "0"), 0);
}

// --- the version in a description -----------------------------------------------------------

TEST(LootMetadataDescription, VersionFound) {
  EXPECT_EQ(loot_version_from_description("Version: 1.2.3"), "1.2.3");
  EXPECT_EQ(loot_version_from_description("Some mod\r\n\r\nversion: 4.0.1\r\n"), "4.0.1");
  EXPECT_EQ(loot_version_from_description("Version 0.7."), "0.7");  // not the trailing period
  EXPECT_EQ(loot_version_from_description("Changed: 3/14/2015 9:26:53\nRecords: 12"), "3/14/2015 9:26:53");
  EXPECT_EQ(loot_version_from_description("Fixes 1,800 things. Version: 2.4"), "2.4");  // not a number with a comma
  EXPECT_EQ(loot_version_from_description("V6.02\r\n{{BASH:Relev}}"), "6.02");
  EXPECT_EQ(loot_version_from_description("Version:. 1.3"), "1.3");
  EXPECT_EQ(loot_version_from_description("Quest fixes, Version: 2.0.4c"), "2.0.4c");
  EXPECT_EQ(loot_version_from_description("Better Cities 5.4"), "5.4");
  EXPECT_EQ(loot_version_from_description("Armour pack v9 plugin"), "9");
  EXPECT_EQ(loot_version_from_description("Version: 3 {{BASH:C.Water}}"), "3");
  // A "version" one comes before a dotted number elsewhere, and before a v-number.
  EXPECT_EQ(loot_version_from_description("Needs game 1.6.640 or later.\nVersion 2.1.0"), "2.1.0");
  EXPECT_EQ(loot_version_from_description("Patch for Foo v2.5 and Bar v1.1,\nPatch Version: 1.0"), "1.0");
}

TEST(LootMetadataDescription, NoVersion) {
  EXPECT_EQ(loot_version_from_description(""), std::nullopt);
  EXPECT_EQ(loot_version_from_description("Adds 4 swords to the game"), std::nullopt);
  EXPECT_EQ(loot_version_from_description("{{BASH:Relev,Delev}}"), std::nullopt);
}
