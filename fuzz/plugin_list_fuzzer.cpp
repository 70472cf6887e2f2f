// libFuzzer entry: plugins.txt, loadorder.txt and Skyrim.ccc as the load-order reader takes them
// (loadorder/plugin_list.hpp).
//
// Oracle. Parsing never throws, whatever the bytes. Every name it gives is valid UTF-8, a plugin
// file name (.esp, .esm, .esl) without control characters, blanks at its ends or characters
// Windows forbids, listed once (names compared without regard to case), on increasing lines;
// every issue points inside the input. Both styles find the same names. The entries written back
// as a list (UTF-8, `*` before the active ones) read back to the same entries with no issue.
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "oracle.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/loadorder/plugin_list.hpp"

using namespace tesmod;
using namespace tesmod::loadorder;

namespace {

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (!len || i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

void check_list(const PluginList& list, std::size_t size) {
  std::unordered_set<std::string> seen;
  std::size_t last_line = 0;
  for (const ListEntry& e : list.entries) {
    TESMOD_FUZZ_CHECK(!e.name.empty() && has_plugin_extension(e.name) && valid_utf8(e.name));
    TESMOD_FUZZ_CHECK(e.name.front() != ' ' && e.name.back() != ' ' && e.name.front() != '\t' && e.name.back() != '\t');
    TESMOD_FUZZ_CHECK(e.name.find_first_of("<>:\"/\\|?*") == std::string::npos);
    for (char c : e.name) TESMOD_FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20 || c == '\t');
    TESMOD_FUZZ_CHECK(seen.insert(ascii::to_lower(e.name)).second);
    TESMOD_FUZZ_CHECK(e.line > last_line);
    last_line = e.line;
  }
  for (const ListIssue& i : list.issues) TESMOD_FUZZ_CHECK(i.line >= 1 && i.offset <= size && !i.message.empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  const PluginList names = parse_plugin_list(bytes, ListStyle::Names);
  const PluginList asterisk = parse_plugin_list(bytes, ListStyle::Asterisk);
  check_list(names, size);
  check_list(asterisk, size);
  TESMOD_FUZZ_CHECK(names.entries.size() == asterisk.entries.size());
  for (std::size_t i = 0; i < names.entries.size(); ++i) {
    TESMOD_FUZZ_CHECK(names.entries[i].name == asterisk.entries[i].name);
    TESMOD_FUZZ_CHECK(names.entries[i].active);
  }
  // Written back, read back the same.
  std::string text;
  for (const ListEntry& e : asterisk.entries) text += (e.active ? "*" : "") + e.name + "\r\n";
  const std::vector<std::uint8_t> again(text.begin(), text.end());
  const PluginList reread = parse_plugin_list(again, ListStyle::Asterisk);
  TESMOD_FUZZ_CHECK(reread.issues.empty());
  TESMOD_FUZZ_CHECK(reread.entries.size() == asterisk.entries.size());
  for (std::size_t i = 0; i < reread.entries.size(); ++i) {
    TESMOD_FUZZ_CHECK(reread.entries[i].name == asterisk.entries[i].name);
    TESMOD_FUZZ_CHECK(reread.entries[i].active == asterisk.entries[i].active);
  }
  return 0;
}
