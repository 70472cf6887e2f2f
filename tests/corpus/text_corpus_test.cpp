// Every corpus plugin as an editable text folder and back: byte-identical, every record in its
// typed text (no record needs the hex or stored-bytes fallback), and the deep check agrees.
#include <gtest/gtest.h>

#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/plugin_text.hpp"
#include "tesmod/text/plugin_text_namer.hpp"
#include "tesmod/text/text_check.hpp"
#include "test_support.hpp"

using namespace tesmod;

TEST(TextCorpus, EveryPluginExportsAndImportsByteIdentically) {
  TESMOD_REQUIRE_CORPUS();
  const auto plugins = test::corpus_plugins();
  ASSERT_GE(plugins.size(), 80u);
  std::uint64_t records = 0, files = 0, scripts = 0;
  for (const auto& path : plugins) {
    SCOPED_TRACE(path.string());
    test::TempDir dir;
    const text::ExportSummary e = text::export_plugin(path, dir / "text");
    EXPECT_EQ(e.hex_records, 0u);
    EXPECT_EQ(e.stored_records, 0u);
    const text::ImportSummary i = text::import_plugin(dir / "text", dir / "out.esp");
    EXPECT_EQ(i.records, e.records);
    EXPECT_EQ(i.groups, e.groups);
    EXPECT_TRUE(i.missing.empty());
    EXPECT_TRUE(i.unlisted.empty());
    EXPECT_EQ(i.scripts_compiled, 0u);
    EXPECT_EQ(test::read_file(dir / "out.esp"), test::read_file(path));
    records += e.records;
    files += e.files;
    scripts += e.script_files;
  }
  // What the independent reader counts (MANIFEST.tsv), the TES4 header records included.
  EXPECT_EQ(records, 14941u);
  std::cout << "[ text ] " << plugins.size() << " plugins, " << records << " records, " << files << " record files, "
            << scripts << " script files: all identical after export and import\n";
}

TEST(TextCorpus, DeepCheckReadsEveryRecordBack) {
  TESMOD_REQUIRE_CORPUS();
  const TextCodec codec;
  std::uint64_t total = 0, identical = 0;
  for (const auto& path : test::corpus_plugins()) {
    SCOPED_TRACE(path.string());
    const PluginFile file = PluginFile::open(path);
    const text::PluginNamer names = text::plugin_text_namer(file);
    const fields::FieldCheck c = text::check_text_round_trip(file, names.namer, codec);
    for (const auto& f : c.failures) ADD_FAILURE() << describe(f.record) << ": " << f.message;
    total += c.total;
    identical += c.identical;
  }
  EXPECT_EQ(total, 14941u);
  EXPECT_EQ(identical, total);
}

TEST(TextCorpus, OneStreamTextHoldsEveryRecord) {
  TESMOD_REQUIRE_CORPUS();
  for (const auto& path : test::corpus_plugins()) {
    SCOPED_TRACE(path.string());
    const PluginFile file = PluginFile::open(path);
    const text::PluginNamer names = text::plugin_text_namer(file);
    const std::string text = text::plugin_text(file, names.namer, TextCodec());
    std::size_t records = 0, pos = 0;
    while ((pos = text.find("record ", pos)) != std::string::npos) {
      if (pos == 0 || text[pos - 1] == '\n' || text[pos - 1] == ' ') ++records;
      pos += 7;
    }
    EXPECT_EQ(records, file.stats().records + 1);
  }
}
