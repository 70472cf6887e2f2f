// Every PACK record of the Skyrim corpus: decoded and encoded again it gives its body back byte
// for byte; the counts agree with the independent Python reader (../shared/tools/inspect_plugin.py)
// and with the raw field lists; damaged records fail with a tesmod::Error or decode losslessly.
#include <gtest/gtest.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tesmod/fields/package_check.hpp"
#include "tesmod/fields/package_codec.hpp"
#include "tesmod/fields/package_oblivion.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "tesmod/text/package_text.hpp"

using namespace tesmod;
using namespace tesmod::fields;

namespace {

std::vector<std::filesystem::path> skyrim_plugins() {
  std::vector<std::filesystem::path> out;
  const std::string le = (test::corpus_dir() / "skyrim").string(), se = (test::corpus_dir() / "skyrimse").string();
  for (const auto& p : test::corpus_plugins())
    if (p.string().starts_with(le + "/") || p.string().starts_with(se + "/")) out.push_back(p);
  return out;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// One JSON line per plugin from the independent reader, by file name; empty when it is missing.
std::map<std::string, nlohmann::json> independent_counts(const std::vector<std::filesystem::path>& plugins) {
  std::map<std::string, nlohmann::json> out;
  const auto script = test::corpus_dir() / ".." / "tools" / "inspect_plugin.py";
  if (!std::filesystem::exists(script)) return out;
  std::string cmd = "python3 " + shell_quote(script.string()) + " --json";
  for (const auto& p : plugins) cmd += " " + shell_quote(p.string());
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return out;
  std::string text;
  char buf[65536];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) text.append(buf, n);
  if (::pclose(pipe) != 0) return {};
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    auto j = nlohmann::json::parse(line);
    out[j["file"].get<std::string>()] = j;
  }
  return out;
}

std::uint64_t count_of(const nlohmann::json& j, const char* section, const char* type) {
  return j.contains(section) && j[section].contains(type) ? j[section][type].get<std::uint64_t>() : 0;
}

std::size_t count_type(std::span<const Field> fields, Signature type) {
  return std::size_t(std::count_if(fields.begin(), fields.end(), [type](const Field& f) { return f.type == type; }));
}

}  // namespace

// The whole body of every PACK, re-encoded, is identical (through check_packages, which the
// lead's `verify --deep` reports, and compared here field list against field list).
TEST(PackageCorpus, EveryPackReencodesIdentically) {
  TESMOD_REQUIRE_CORPUS();
  std::uint64_t total = 0, identical = 0, templates = 0, with_tree = 0;
  for (const auto& path : skyrim_plugins()) {
    SCOPED_TRACE(path.string());
    const PluginFile file = PluginFile::open(path);
    ASSERT_NE(file.game(), Game::Oblivion);
    const FieldCheck check = check_packages(file);
    for (const FieldFailure& f : check.failures) ADD_FAILURE() << describe(f.record) << " @" << f.offset << ": " << f.message;
    total += check.total;
    identical += check.identical;

    Inflater inflater;
    std::uint64_t here = 0;
    for (const IndexEntry& e : file.entries()) {
      if (e.is_group() || e.type != Signature("PACK")) continue;
      ++here;
      const RecordFields r = read_record_fields(file, e, inflater);
      const Package p = decode_package(r.fields, r.where, r.locations);
      EXPECT_EQ(encode_package(p), r.fields) << describe(*r.where.record);
      templates += p.header.data.is_template();
      with_tree += !p.procedure_tree.empty();
      EXPECT_TRUE(p.unknown_fields.empty()) << describe(*r.where.record);  // the corpus has none
    }
    EXPECT_EQ(here, check.total);
  }
  // 123 + 14 + 1 + 1 + 1 PACK records (MANIFEST.tsv; checked against inspect_plugin.py below).
  EXPECT_EQ(total, 140u);
  EXPECT_EQ(identical, total);
  // Every template has a procedure tree and nothing else has one (PKDT type byte 0x13).
  EXPECT_EQ(templates, with_tree);
  EXPECT_EQ(templates, 5u);
  std::cout << "[ pack ] " << identical << "/" << total << " PACK records re-encode identically (" << templates
            << " templates)\n";
}

// Oblivion PACK records (their own, simpler layout): every one re-encodes identically, and the
// numbers of PACK records and of their CTDA fields agree with the independent reader.
TEST(PackageCorpus, OblivionPacksReencodeIdentically) {
  TESMOD_REQUIRE_CORPUS();
  std::vector<std::filesystem::path> plugins;
  const std::string dir = (test::corpus_dir() / "oblivion").string() + "/";
  for (const auto& p : test::corpus_plugins())
    if (p.string().starts_with(dir)) plugins.push_back(p);
  const auto reference = independent_counts(plugins);
  std::uint64_t total = 0, identical = 0, conditions = 0;
  for (const auto& path : plugins) {
    SCOPED_TRACE(path.string());
    const PluginFile file = PluginFile::open(path);
    ASSERT_EQ(file.game(), Game::Oblivion);
    const FieldCheck check = check_packages(file);
    for (const FieldFailure& f : check.failures) ADD_FAILURE() << describe(f.record) << " @" << f.offset << ": " << f.message;
    total += check.total;
    identical += check.identical;
    Inflater inflater;
    std::uint64_t ctda = 0;
    for (const IndexEntry& e : file.entries()) {
      if (e.is_group() || e.type != Signature("PACK")) continue;
      const RecordFields r = read_record_fields(file, e, inflater);
      const OblivionPackage p = decode_oblivion_package(r.fields, r.where, r.locations);
      EXPECT_EQ(encode_oblivion_package(p), r.fields);
      EXPECT_TRUE(p.unknown_fields.empty());
      ctda += p.conditions.size();
      EXPECT_FALSE(text::oblivion_package_text(p).empty());
    }
    conditions += ctda;
    if (!reference.empty()) {
      const nlohmann::json& ref = reference.at(path.string());
      EXPECT_EQ(check.total, count_of(ref, "records", "PACK"));
      EXPECT_EQ(ctda, count_of(ref, "ctda", "PACK"));
    }
  }
  EXPECT_EQ(total, 16u);  // 4 + 5 + 3 + 1 + 1 + 2 in six plugins (checked against the reader above)
  EXPECT_EQ(identical, total);
  std::cout << "[ pack ] Oblivion: " << identical << "/" << total << " PACK records re-encode identically, "
            << conditions << " CTDA\n";
}

// The number of PACK records, of CTDA fields in them and of VMAD fields in them agree with the
// independent reader; the number of ANAM, UNAM and PNAM fields agree with the sections decoded.
TEST(PackageCorpus, CountsMatchTheIndependentReaderAndTheRawFields) {
  TESMOD_REQUIRE_CORPUS();
  const auto plugins = skyrim_plugins();
  const auto reference = independent_counts(plugins);
  if (reference.empty()) {
    if (test::in_ci()) FAIL() << "inspect_plugin.py not found or failed";
    GTEST_SKIP() << "inspect_plugin.py not found or failed";
  }
  std::uint64_t packs = 0, conditions = 0, vmads = 0;
  for (const auto& path : plugins) {
    SCOPED_TRACE(path.string());
    const nlohmann::json& ref = reference.at(path.string());
    const PluginFile file = PluginFile::open(path);
    Inflater inflater;
    std::uint64_t n = 0, ctda = 0, vmad = 0;
    for (const IndexEntry& e : file.entries()) {
      if (e.is_group() || e.type != Signature("PACK")) continue;
      ++n;
      const RecordFields r = read_record_fields(file, e, inflater);
      const Package p = decode_package(r.fields, r.where, r.locations);
      std::size_t cond = p.header.conditions.size(), anam = p.public_data.inputs.size(), pnam = 0;
      for (const Branch& b : p.procedure_tree) {
        cond += b.conditions.size();
        ++anam;
        pnam += b.procedure.has_value();
      }
      pnam += p.input_names.size();
      ctda += cond;
      vmad += p.vmad.has_value();
      EXPECT_EQ(cond, count_type(r.fields, "CTDA"));
      EXPECT_EQ(anam, count_type(r.fields, "ANAM"));
      EXPECT_EQ(pnam, count_type(r.fields, "PNAM"));
      EXPECT_EQ(p.public_data.input_ids.size() + p.input_names.size(), count_type(r.fields, "UNAM"));
      // In every corpus record PKCU counts the public data inputs, one UNAM each.
      EXPECT_EQ(p.header.counter.data_input_count, p.public_data.inputs.size());
      EXPECT_EQ(p.public_data.input_ids.size(), p.public_data.inputs.size());
    }
    EXPECT_EQ(n, count_of(ref, "records", "PACK"));
    EXPECT_EQ(ctda, count_of(ref, "ctda", "PACK"));
    EXPECT_EQ(vmad, count_of(ref, "vmad", "PACK"));
    packs += n;
    conditions += ctda;
    vmads += vmad;
  }
  EXPECT_EQ(packs, 140u);
  std::cout << "[ pack ] " << packs << " PACK, " << conditions << " CTDA, " << vmads
            << " VMAD: as the independent reader counts\n";
}

// Text and JSON render for every corpus package (with the default hex names) without throwing.
TEST(PackageCorpus, EveryPackRenders) {
  TESMOD_REQUIRE_CORPUS();
  std::size_t rendered = 0;
  for (const auto& path : skyrim_plugins()) {
    const PluginFile file = PluginFile::open(path);
    Inflater inflater;
    for (const IndexEntry& e : file.entries()) {
      if (e.is_group() || e.type != Signature("PACK")) continue;
      const Package p = read_package(file, e, inflater);
      const std::string text = text::package_text(p);
      EXPECT_NE(text.find("header\n"), std::string::npos);
      EXPECT_FALSE(text::package_json(p).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).empty());
      ++rendered;
    }
  }
  EXPECT_EQ(rendered, 140u);
}

// Damaged PACK bodies (Skyrim and Oblivion): each field dropped, doubled, swapped with the next, cut by a byte, and
// bytes of the body flipped or the body truncated. Each case either decodes (and then encodes
// back to exactly the damaged fields) or raises a tesmod::Error whose offset lies in the record.
TEST(PackageCorpus, DamagedPacksFailCleanly) {
  TESMOD_REQUIRE_CORPUS();
  std::size_t cases = 0, errors = 0;
  for (const auto& path : test::corpus_plugins()) {
    const PluginFile file = PluginFile::open(path);
    const bool oblivion = file.game() == Game::Oblivion;
    Inflater inflater;
    for (const IndexEntry& e : file.entries()) {
      if (e.is_group() || e.type != Signature("PACK")) continue;
      const RecordFields r = read_record_fields(file, e, inflater);
      const std::uint64_t record_end = e.offset + file.header_size() + e.size;
      const auto attempt = [&](const std::vector<Field>& fields, const FieldLocations& at) {
        ++cases;
        try {
          if (oblivion) EXPECT_EQ(encode_oblivion_package(decode_oblivion_package(fields, r.where, at)), fields);
          else EXPECT_EQ(encode_package(decode_package(fields, r.where, at)), fields) << describe(*r.where.record);
        } catch (const Error& err) {
          ++errors;
          EXPECT_GE(err.offset(), e.offset) << err.what();
          EXPECT_LE(err.offset(), record_end) << err.what();
          ASSERT_TRUE(err.record());
          EXPECT_EQ(err.record()->form_id, e.id);
        }
      };
      // Field-level damage: no locations, so errors name the field index at the record's offset.
      const FieldLocations none;
      for (std::size_t k = 0; k < r.fields.size(); ++k) {
        std::vector<Field> f = r.fields;
        f.erase(f.begin() + std::ptrdiff_t(k));
        attempt(f, none);
        f = r.fields;
        f.insert(f.begin() + std::ptrdiff_t(k), r.fields[k]);
        attempt(f, none);
        if (k + 1 < r.fields.size()) {
          f = r.fields;
          std::swap(f[k], f[k + 1]);
          attempt(f, none);
        }
        if (!r.fields[k].data.empty()) {
          f = r.fields;
          f[k].data.pop_back();
          attempt(f, none);
        }
      }
      // Byte-level damage of the body, read again as fields with their file offsets.
      if (e.is_compressed()) continue;
      const std::span<const std::uint8_t> stored = file.body(e, inflater);
      const std::uint64_t body_offset = e.offset + file.header_size();
      for (std::size_t k = 0; k < 24; ++k) {
        std::vector<std::uint8_t> damaged(stored.begin(), stored.end());
        const std::size_t at = (k * 7919 + 5) % damaged.size();
        if (k % 3 == 0) damaged.resize(at);
        else damaged[at] ^= std::uint8_t(k % 3 == 1 ? 0x01 : 0x40);
        std::vector<Field> fields;
        FieldLocations where;
        try {
          for (const SubrecordView& v : read_subrecords(damaged, r.where, body_offset)) {
            fields.push_back(Field::from_view(v));
            where.offsets.push_back(body_offset + v.offset);
          }
        } catch (const Error& err) {
          ++cases;
          ++errors;
          EXPECT_GE(err.offset(), e.offset) << err.what();
          continue;
        }
        where.offsets.push_back(body_offset + damaged.size());
        attempt(fields, where);
      }
    }
  }
  std::cout << "[ damaged packs ] " << cases << " cases, " << errors << " clean errors\n";
  EXPECT_GT(cases, 20000u);
  EXPECT_GT(errors, cases / 4);
}
