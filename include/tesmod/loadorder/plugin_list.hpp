// The text files that name a load order's plugins: plugins.txt (Oblivion and Skyrim LE: the
// active plugins; Skyrim SE: every plugin in order, `*` before the active ones), loadorder.txt
// (Skyrim LE: every plugin in order) and Skyrim.ccc (Skyrim SE: Creation Club plugins that load
// early). Read as the games and LOOT's libloadorder read them: one name a line, LF or CRLF, blank
// lines and lines starting with `#` skipped; UTF-8 (with or without a byte order mark) or
// Windows-1252, told apart by whether the bytes are valid UTF-8. Names come out in UTF-8.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tesmod::loadorder {

enum class ListStyle : std::uint8_t {
  Names,     // a name a line (Oblivion and Skyrim LE plugins.txt, loadorder.txt, Skyrim.ccc)
  Asterisk,  // Skyrim SE plugins.txt: `*Name` active, `Name` listed but inactive
};

enum class ListEncoding : std::uint8_t { Ascii, Utf8, Utf8Bom, Windows1252 };
std::string_view encoding_name(ListEncoding encoding);

struct ListEntry {
  std::string name;     // UTF-8, surrounding blanks removed
  bool active = true;   // Names: always true; Asterisk: whether the line starts with '*'
  std::size_t line = 0;  // 1-based
  bool starred = false;  // the line starts with '*' (in either style)
};

// Something in the file that was skipped, with where it is.
struct ListIssue {
  std::size_t line = 0;
  std::uint64_t offset = 0;  // byte offset of the line (or of the bad byte) in the file
  std::string message;
};

struct PluginList {
  std::vector<ListEntry> entries;  // in file order, duplicates and non-plugin names left out
  std::vector<ListIssue> issues;   // lines left out and why
  ListEncoding encoding = ListEncoding::Ascii;
  bool has_asterisks = false;      // some line starts with '*' (the Skyrim SE form)
};

// Reads a list. Never throws for bad content: a line that cannot be read (a byte that is
// neither UTF-8 nor Windows-1252 text, a control character, a name that is no plugin file name,
// a name listed twice) is left out and reported in issues. A file in UTF-16 is one issue and no
// entries.
PluginList parse_plugin_list(std::span<const std::uint8_t> bytes, ListStyle style);

// Whether a name ends in .esp, .esm or .esl (any case).
bool has_plugin_extension(std::string_view name);
// The name without a trailing ".ghost" (any case), and whether there was one.
std::string_view strip_ghost(std::string_view name, bool* ghosted = nullptr);

}  // namespace tesmod::loadorder
