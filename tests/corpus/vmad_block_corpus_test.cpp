// Every VMAD of the Skyrim corpus through its editable text: decode, block text (FormIDs named
// by the plugin's own PluginFormNamer), parse, encode, and the same bytes back. The text is also
// read back with its indentation removed, as a user may re-indent it.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "test_support.hpp"
#include "tesmod/fields/vmad.hpp"
#include "tesmod/fields/vmad_plugin.hpp"
#include "tesmod/plugin/form_names.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/vmad_block.hpp"

using namespace tesmod;
using namespace tesmod::fields;

namespace {

std::string without_indentation(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && c == ' ') continue;
    line_start = c == '\n';
    out += c;
  }
  return out;
}

// What the record reader needs: no line ends with '{' or is a lone '}'.
bool safe_inside_braces(const std::string& text) {
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    if ((!line.empty() && line.back() == '{') || line.find_first_not_of(" }") == std::string::npos) return false;
    start = end + 1;
  }
  return true;
}

// The FormIDs of a VMAD's object values and alias owners.
std::vector<std::uint32_t> form_ids(const Vmad& v) {
  std::vector<std::uint32_t> out;
  const auto scripts = [&](const std::vector<Script>& list) {
    for (const Script& s : list) {
      for (const Property& p : s.properties) {
        if (const auto* o = std::get_if<VmadObject>(&p.value)) out.push_back(o->form_id);
        if (const auto* a = std::get_if<std::vector<VmadObject>>(&p.value))
          for (const VmadObject& o : *a) out.push_back(o.form_id);
      }
    }
  };
  scripts(v.scripts);
  if (const auto* q = v.fragments ? std::get_if<QuestFragments>(&*v.fragments) : nullptr) {
    for (const AliasScripts& a : q->aliases) {
      out.push_back(a.object.form_id);
      scripts(a.scripts);
    }
  }
  return out;
}

}  // namespace

TEST(VmadBlockCorpus, EveryVmadRoundTripsThroughItsText) {
  TESMOD_REQUIRE_CORPUS();
  const TextCodec codec;
  std::uint64_t total = 0, identical = 0, lines = 0, forms = 0, by_editor_id = 0;
  for (const auto& path : test::corpus_plugins()) {
    const std::string rel = std::filesystem::relative(path, test::corpus_dir()).generic_string();
    if (!rel.starts_with("skyrim/") && !rel.starts_with("skyrimse/")) continue;
    SCOPED_TRACE(rel);
    const PluginFile file = PluginFile::open(path);
    const PluginFormNamer namer = PluginFormNamer::build(file);
    const text::BlockTextOptions o{&namer, &codec, file.game()};
    for_each_vmad(file, [&](const VmadField& f) {
      ++total;
      const Vmad v = decode_vmad(f.data, f.entry->type, f.where, f.data_offset);
      const std::string text = text::vmad_block_text(v, o);
      // Bytes are compared, not models: NaN != NaN.
      const auto same_bytes = [&](const std::string& t) {
        const std::vector<std::uint8_t> bytes = encode_vmad(text::parse_vmad_block(t, f.entry->type, o));
        return std::equal(bytes.begin(), bytes.end(), f.data.begin(), f.data.end());
      };
      try {
        const bool same = same_bytes(text);
        EXPECT_TRUE(same) << describe(*f.where.record) << "\n" << text;
        EXPECT_TRUE(same_bytes(without_indentation(text))) << describe(*f.where.record);
        identical += same;
      } catch (const text::SyntaxError& e) {
        ADD_FAILURE() << describe(*f.where.record) << ": " << e.what() << "\n" << text;
      }
      EXPECT_TRUE(safe_inside_braces(text)) << text;
      lines += std::uint64_t(std::count(text.begin(), text.end(), '\n'));
      for (std::uint32_t id : form_ids(v)) {
        ++forms;
        by_editor_id += namer.editor_id(id).has_value();
      }
    });
  }
  // The corpus when written: 716 VMADs (see vmad_corpus_test.cpp).
  EXPECT_EQ(total, 716u);
  EXPECT_EQ(identical, total);
  std::cout << "[ vmad block ] " << identical << "/" << total << " VMADs identical through their text (" << lines
            << " lines; " << forms << " forms, " << by_editor_id << " of them named by EditorID)\n";
}
