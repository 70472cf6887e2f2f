// Every VMAD of the Skyrim corpus: decoded and re-encoded byte for byte, counted against a raw
// subrecord scan and against the figures the independent Python reader wrote into MANIFEST.tsv,
// rendered, and damaged (cut short, bytes changed) without anything but clean errors.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "test_support.hpp"
#include "tesmod/fields/vmad.hpp"
#include "tesmod/fields/vmad_edit.hpp"
#include "tesmod/fields/vmad_plugin.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "tesmod/text/vmad_text.hpp"

using namespace tesmod;
using namespace tesmod::fields;

namespace {

std::vector<std::filesystem::path> skyrim_plugins() {
  std::vector<std::filesystem::path> out;
  const auto dir = test::corpus_dir();
  for (const auto& p : test::corpus_plugins()) {
    const std::string rel = std::filesystem::relative(p, dir).generic_string();
    if (rel.starts_with("skyrim/") || rel.starts_with("skyrimse/")) out.push_back(p);
  }
  return out;
}

// What inspect_plugin.py wrote about a plugin's VMADs in the notes column of MANIFEST.tsv:
// "165 VMAD (ACHR:2,...)", "fragments in INFO:69,PACK:16", "62 alias script blocks".
struct ManifestVmad {
  std::uint64_t vmad = 0;
  std::map<std::string, std::uint64_t> fragment_sections;
  std::uint64_t alias_blocks = 0;
};

std::map<std::string, ManifestVmad> read_manifest() {
  std::map<std::string, ManifestVmad> out;
  std::ifstream in(test::corpus_dir() / "MANIFEST.tsv");
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '\t');) cols.push_back(c);
    if (cols.size() < 8) continue;
    ManifestVmad m;
    std::string notes = cols[7];
    for (std::size_t start = 0; start <= notes.size();) {
      std::size_t end = notes.find("; ", start);
      if (end == std::string::npos) end = notes.size();
      const std::string part = notes.substr(start, end - start);
      start = end + 2;
      if (part.find(" VMAD (") != std::string::npos) {
        m.vmad = std::stoull(part);
      } else if (part.starts_with("fragments in ")) {
        std::stringstream items(part.substr(13));
        for (std::string item; std::getline(items, item, ',');)
          m.fragment_sections[item.substr(0, 4)] = std::stoull(item.substr(5));
      } else if (part.ends_with(" alias script blocks")) {
        m.alias_blocks = std::stoull(part);
      }
    }
    out[cols[0]] = m;
  }
  return out;
}

// VMAD subrecords counted straight from the container layer, without the VMAD walker.
std::uint64_t raw_vmad_count(const PluginFile& file) {
  std::uint64_t n = 0;
  Inflater inflater;
  for (const IndexEntry& e : file.entries().subspan(1)) {
    if (e.is_group()) continue;
    for (const SubrecordView& v : read_subrecords(file.body(e, inflater), file.context(e)))
      if (v.type == Signature("VMAD")) ++n;
  }
  return n;
}

}  // namespace

TEST(VmadCorpus, EveryVmadReencodesByteForByte) {
  TESMOD_REQUIRE_CORPUS();
  const auto manifest = read_manifest();
  const text::HexFormNamer namer;
  const TextCodec codec;
  text::VmadTextOptions o;
  o.namer = &namer;
  o.codec = &codec;
  std::uint64_t total = 0, identical = 0, raw = 0, aliases = 0, scripts = 0, properties = 0, fragments = 0, inflated = 0;
  std::map<std::string, std::uint64_t> sections;
  for (const auto& path : skyrim_plugins()) {
    SCOPED_TRACE(path.string());
    const PluginFile file = PluginFile::open(path);
    const FieldCheck check = check_vmad(file);
    for (const FieldFailure& f : check.failures)
      ADD_FAILURE() << describe(f.record) << " offset " << f.offset << ": " << f.message;
    EXPECT_EQ(check.identical, check.total);
    const std::uint64_t raw_here = raw_vmad_count(file);
    EXPECT_EQ(check.total, raw_here);

    // Decode again to count what the Python reader counted, and render every one.
    ManifestVmad mine;
    for_each_vmad(file, [&](const VmadField& f) {
      const Vmad v = decode_vmad(f.data, f.entry->type, f.where, f.data_offset);
      ++mine.vmad;
      if (f.data_offset == Error::kNoOffset) ++inflated;
      const auto count_scripts = [&](const std::vector<Script>& list) {
        scripts += list.size();
        for (const Script& s : list) properties += s.properties.size();
      };
      count_scripts(v.scripts);
      if (v.fragments) {
        ++mine.fragment_sections[record_type_of(*v.fragments).str()];
        std::visit(
            [&](const auto& s) {
              fragments += s.fragments.size();
              using Section = std::decay_t<decltype(s)>;
              if constexpr (std::is_same_v<Section, SceneFragments>) fragments += s.phases.size();
              if constexpr (std::is_same_v<Section, QuestFragments>) {
                mine.alias_blocks += s.aliases.size();
                for (const AliasScripts& a : s.aliases) count_scripts(a.scripts);
              }
            },
            *v.fragments);
      }
      EXPECT_FALSE(text::vmad_text(v, o).empty());
      EXPECT_EQ(text::vmad_json(v, o)["scripts"].size(), v.scripts.size());
    });
    const std::string rel = std::filesystem::relative(path, test::corpus_dir()).generic_string();
    const auto m = manifest.find(rel);
    ASSERT_NE(m, manifest.end()) << rel << " is not in MANIFEST.tsv";
    EXPECT_EQ(mine.vmad, m->second.vmad);
    EXPECT_EQ(mine.fragment_sections, m->second.fragment_sections);
    EXPECT_EQ(mine.alias_blocks, m->second.alias_blocks);
    total += check.total;
    identical += check.identical;
    raw += raw_here;
    aliases += mine.alias_blocks;
    for (const auto& [type, n] : mine.fragment_sections) sections[type] += n;
  }
  // The corpus when written: 716 VMADs (inspect_plugin.py's per-file counts add up to the same),
  // 205 fragment sections (INFO 103, PACK 17, PERK 1, QUST 80, SCEN 4), 168 alias script blocks;
  // inspect_plugin.py's per-file stats add up to 1003 scripts, 6894 properties and 428 fragments
  // (alias scripts and scene phases included).
  EXPECT_EQ(total, 716u);
  EXPECT_EQ(scripts, 1003u);
  EXPECT_EQ(properties, 6894u);
  EXPECT_EQ(fragments, 428u);
  EXPECT_EQ(inflated, 8u);  // VMADs in compressed records (a Python zlib scan counts the same)
  EXPECT_EQ(raw, total);
  EXPECT_EQ(identical, total);
  EXPECT_EQ(aliases, 168u);
  EXPECT_EQ(sections, (std::map<std::string, std::uint64_t>{{"INFO", 103}, {"PACK", 17}, {"PERK", 1}, {"QUST", 80}, {"SCEN", 4}}));
  std::cout << "[ vmad ] " << identical << "/" << total << " VMAD identical (" << raw << " VMAD subrecords in a raw scan); "
            << scripts << " scripts, " << properties << " properties, " << fragments << " fragments, "
            << aliases << " alias script blocks; " << inflated << " VMADs in compressed records\n";
}

namespace {

// Every VMAD of a plugin, by record (FormID and its VMAD's index within the record).
std::map<std::pair<std::uint32_t, int>, Vmad> all_vmads(const PluginFile& file) {
  std::map<std::pair<std::uint32_t, int>, Vmad> out;
  std::uint32_t last = 0;
  int index = 0;
  for_each_vmad(file, [&](const VmadField& f) {
    index = f.entry->id == last ? index + 1 : 0;
    last = f.entry->id;
    out[{f.entry->id, index}] = decode_vmad(f.data, f.entry->type, f.where, f.data_offset);
  });
  return out;
}

}  // namespace

// A quest of a real plugin edited through the library: after saving, that VMAD holds exactly
// the change and every other VMAD of the plugin decodes as before.
TEST(VmadCorpus, EditOneQuestInARealPlugin) {
  TESMOD_REQUIRE_CORPUS();
  const PluginFile file = PluginFile::open(test::corpus_dir() / "skyrim" / "chesko256__Campfire" / "Campfire.esp");
  const auto before = all_vmads(file);
  ASSERT_EQ(before.size(), 264u);  // MANIFEST.tsv
  std::uint32_t quest = 0;
  for (const auto& [key, v] : before) {
    const auto* q = v.fragments ? std::get_if<QuestFragments>(&*v.fragments) : nullptr;
    if (q && !q->aliases.empty() && !v.scripts.empty()) {
      quest = key.first;
      break;
    }
  }
  ASSERT_NE(quest, 0u) << "no quest with scripts and alias scripts";

  Plugin plugin = Plugin::from_file(file);
  Record* record = plugin.find(quest);
  ASSERT_NE(record, nullptr);
  std::optional<Vmad> v = read_vmad(*record);
  ASSERT_TRUE(v);
  set_property(v->scripts[0], "TesmodAdded", std::vector<float>{0.5f, -2.0f});
  auto& q = std::get<QuestFragments>(*v->fragments);
  set_property(add_script(q.aliases[0].scripts, "TesmodAliasScript"), "Count", 3);
  for (const QuestFragment& f : q.fragments) ASSERT_NE(f.stage, 65000) << "stage 65000 already has a fragment";
  set_quest_fragment(q, 65000, 0, Fragment{1, q.file_name, "Fragment_Tesmod"});
  write_vmad(*record, *v);

  const PluginFile saved = PluginFile::parse(FileBytes::hold(plugin.serialize(), "Campfire-edited.esp"));
  const FieldCheck check = check_vmad(saved);
  EXPECT_EQ(check.total, 264u);
  EXPECT_EQ(check.identical, 264u);
  const auto after = all_vmads(saved);
  ASSERT_EQ(after.size(), before.size());
  for (const auto& [key, old] : before) {
    if (key.first != quest) {
      EXPECT_EQ(after.at(key), old) << std::hex << key.first;
      continue;
    }
    Vmad expected = old;
    expected.scripts[0].properties.push_back(Property{"TesmodAdded", Property::kEdited, std::vector<float>{0.5f, -2.0f}});
    auto& eq = std::get<QuestFragments>(*expected.fragments);
    eq.aliases[0].scripts.push_back(
        Script{"TesmodAliasScript", Script::kLocal, {Property{"Count", Property::kEdited, std::int32_t{3}}}});
    eq.fragments.push_back(QuestFragment{65000, 0, 0, Fragment{1, eq.file_name, "Fragment_Tesmod"}});
    EXPECT_EQ(after.at(key), expected);
    EXPECT_NE(after.at(key), old);
  }
}

// Every corpus VMAD cut short and with bytes changed at spread-out points: each case decodes
// (and then re-encodes to exactly the damaged bytes) or raises a tesmod::Error whose offset is
// inside the field (or, for inflated records, the record's). Run under ASan too.
TEST(VmadCorpus, DamagedVmadsFailCleanly) {
  TESMOD_REQUIRE_CORPUS();
  std::uint64_t cases = 0, errors = 0;
  for (const auto& path : skyrim_plugins()) {
    const PluginFile file = PluginFile::open(path);
    for_each_vmad(file, [&](const VmadField& f) {
      const std::size_t n = f.data.size();
      for (std::size_t k = 0; k < 32; ++k) {
        std::vector<std::uint8_t> damaged(f.data.begin(), f.data.end());
        const std::size_t at = (k * 7919 + 5) % n;
        if (k % 2) damaged.resize(at);
        else damaged[at] ^= static_cast<std::uint8_t>(1u << (k / 2 % 8));
        ++cases;
        try {
          const Vmad v = decode_vmad(damaged, f.entry->type, f.where, f.data_offset);
          EXPECT_EQ(encode_vmad(v), damaged) << describe(*f.where.record) << " case " << k;
        } catch (const Error& e) {
          ++errors;
          if (f.data_offset == Error::kNoOffset) {
            EXPECT_EQ(e.offset(), f.where.offset);
          } else {
            EXPECT_GE(e.offset(), f.data_offset) << e.what();
            EXPECT_LE(e.offset(), f.data_offset + damaged.size()) << e.what();
          }
          ASSERT_TRUE(e.record());
          EXPECT_EQ(e.record()->form_id, f.where.record->form_id);
        }
      }
    });
  }
  std::cout << "[ damaged vmad ] " << cases << " cases, " << errors << " clean errors\n";
  EXPECT_GT(cases, 20000u);
}
