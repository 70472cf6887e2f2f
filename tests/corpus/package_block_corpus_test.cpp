// Every PACK record of the corpus through the editable package block: the fields after the
// leading EDID/VMAD decoded, rendered with the plugin's own FormIDs names, parsed and encoded
// again give the same fields; the text keeps the rules the record reader relies on.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "test_support.hpp"
#include "tesmod/fields/package_codec.hpp"
#include "tesmod/fields/package_oblivion.hpp"
#include "tesmod/plugin/form_names.hpp"
#include "tesmod/text/package_block.hpp"

using namespace tesmod;
using namespace tesmod::fields;

namespace {

// No line ends with '{' or is a lone '}' (the record reader finds the block's end by them).
void expect_block_rules(const std::string& text, const std::string& where) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_FALSE(!line.empty() && line.back() == '{') << where << ": " << line;
    EXPECT_NE(line.substr(std::min(line.find_first_not_of(' '), line.size())), "}") << where;
  }
  EXPECT_TRUE(text.empty() || text.back() == '\n') << where;
}

// The same lines with the indentation taken away: the parser must not need it.
std::string flattened(const std::string& text) {
  std::istringstream lines(text);
  std::string out;
  for (std::string line; std::getline(lines, line);) out += line.substr(std::min(line.find_first_not_of(' '), line.size())) + "\n";
  return out;
}

}  // namespace

TEST(PackageBlockCorpus, EveryPackRoundTripsThroughTheBlockText) {
  TESMOD_REQUIRE_CORPUS();
  const TextCodec codec;
  std::uint64_t skyrim = 0, oblivion = 0, identical = 0, lines = 0;
  for (const auto& path : test::corpus_plugins()) {
    SCOPED_TRACE(path.string());
    const PluginFile file = PluginFile::open(path);
    std::optional<PluginFormNamer> namer;
    const text::BlockTextOptions options{nullptr, &codec, file.game()};
    Inflater inflater;
    for (const IndexEntry& e : file.entries()) {
      if (e.is_group() || e.type != Signature("PACK")) continue;
      if (!namer) namer = PluginFormNamer::build(file);
      text::BlockTextOptions o = options;
      o.namer = &*namer;
      const RecordFields r = read_record_fields(file, e, inflater);
      const std::size_t start = text::package_block_start(r.fields);
      const std::vector<Field> rest(r.fields.begin() + std::ptrdiff_t(start), r.fields.end());
      const std::string where = describe(*r.where.record);
      std::string text;
      std::vector<Field> back;
      try {
        if (file.game() == Game::Oblivion) {
          ++oblivion;
          text = text::oblivion_package_block_text(decode_oblivion_package(rest, r.where), o);
          back = encode_oblivion_package(text::parse_oblivion_package_block(text, o));
          EXPECT_EQ(encode_oblivion_package(text::parse_oblivion_package_block(flattened(text), o)), back) << where;
        } else {
          ++skyrim;
          text = text::package_block_text(decode_package(rest, r.where), o);
          back = encode_package(text::parse_package_block(text, o));
          EXPECT_EQ(encode_package(text::parse_package_block(flattened(text), o)), back) << where;
        }
      } catch (const text::SyntaxError& err) {
        ADD_FAILURE() << where << ": " << err.what() << "\n" << text;
        continue;
      }
      expect_block_rules(text, where);
      lines += std::size_t(std::count(text.begin(), text.end(), '\n'));
      if (back == rest) ++identical;
      else ADD_FAILURE() << where << " does not round-trip:\n" << text;
    }
  }
  // 123 + 14 + 1 + 1 + 1 Skyrim and 4 + 5 + 3 + 1 + 1 + 2 Oblivion PACK records (MANIFEST.tsv).
  EXPECT_EQ(skyrim, 140u);
  EXPECT_EQ(oblivion, 16u);
  EXPECT_EQ(identical, skyrim + oblivion);
  std::cout << "[ pack block ] " << identical << "/" << skyrim + oblivion << " PACK records round-trip through the text ("
            << skyrim << " Skyrim, " << oblivion << " Oblivion, " << lines << " lines)\n";
}
