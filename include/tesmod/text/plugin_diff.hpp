// What differs between two plugins of one game (`tesmod diff`), record by record.
//
// Records are matched by record type and FormID (as each plugin stores it; the n-th record of
// one plugin with a type and FormID matches the n-th of the other), the TES4 header record
// included. A matched record whose header and stored bytes are the same is unchanged: only
// records whose bytes differ are rendered as text (record_text.hpp, each plugin with its own
// namer) and compared line by line. A record that sits in another place (another cell, topic or
// world, a cell in another block) is moved. Group headers, the order of records and empty
// groups are not compared; nor is the TES4 record's count of records (HEDR), which follows
// from what the records show.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/line_diff.hpp"
#include "tesmod/text/plugin_text_namer.hpp"
#include "tesmod/text/text_namer.hpp"

namespace tesmod::text {

struct DiffOptions {
  unsigned threads = 0;       // 0: all cores
  PluginNamerOptions naming;  // how each plugin's namer is made (only when some record differs)
  const TextNamer* old_namer = nullptr;  // given: used instead of making one
  const TextNamer* new_namer = nullptr;
  std::size_t script_context = 3;  // unchanged lines around a script source change
};

// A changed Oblivion script source (SCTX): the index-th of the record's scripts.
struct ScriptSourceDiff {
  std::size_t index = 0;
  std::vector<std::string> lines;  // unified diff: `@@ -5,3 +5,3 @@` headers, then ` `/`-`/`+` lines
};

struct RecordChange {
  RecordRef record;  // the EditorID in UTF-8 (the new record's, else the old one's)
  // The changed lines of the record's text, each after its op character (`-` old, `+` new, ` `
  // an unchanged line that places them: the enclosing lines of a change inside a VMAD or package
  // block). Field lines lose the two spaces of field indentation. Script sources are left out
  // here (see scripts), and so is a compressed record's zlib-stored line. A run of changes whose
  // lines the record holds more than once (one condition under several quest aliases) comes
  // after a line with op `@` that says where it is: which of the lines alike its first line is,
  // and the nearest line before it that the record holds once (`@the 2nd of 3 lines alike,
  // after ALID "Guard"`), in the old text when the run removes lines, else in the new.
  std::vector<std::string> lines;
  std::vector<ScriptSourceDiff> scripts;
  // What lines and scripts do not show: that a changed script's compiled code (SCDA, whose hex
  // lines are then left out) changed with it; why a record whose text is the same differs (the
  // same fields compressed otherwise; script line breaks).
  std::vector<std::string> notes;
};

// Where a record is: from its innermost world, cell or topic group in (`CELL 01000810 MyCell
// temporary`), else its blocks (`block 0 sub-block 3`), else its top group (`group NPC_`).
struct RecordMove {
  RecordRef record;
  std::string from, to;
};

struct PluginDiff {
  std::vector<RecordRef> added;    // in the new plugin's order
  std::vector<RecordRef> removed;  // in the old plugin's order
  std::vector<RecordChange> changed;  // in the new plugin's order
  std::vector<RecordMove> moved;      // in the new plugin's order
  bool identical() const { return added.empty() && removed.empty() && changed.empty() && moved.empty(); }
};

// Compares old_file with new_file (plugins of one game; Skyrim LE and SE count as one). Raises
// tesmod::Error naming the new file when the games differ.
PluginDiff diff_plugins(const PluginFile& old_file, const PluginFile& new_file, const TextCodec& codec,
                        const DiffOptions& options = {});

}  // namespace tesmod::text
