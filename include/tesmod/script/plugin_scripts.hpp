// Every script of a plugin, decoded: the one of each SCPT record and the result scripts of INFO,
// QUST and PACK records, with what the checks and the CLI need to know about the record around it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/script/names.hpp"
#include "tesmod/script/script_data.hpp"

namespace tesmod::script {

struct PluginScript {
  Signature record_type;
  std::uint32_t form_id = 0;
  std::string editor_id;              // of the record; empty when it has none
  std::size_t index = 0;              // 0-based position among the record's scripts
  std::size_t count_in_record = 1;    // scripts in the record
  ScriptSpan span;                    // where its fields sit among the record's fields
  ScriptData data;                    // empty when decoding failed
  std::optional<std::string> error;   // why the fields did not decode
  ErrorContext where;                 // the record, for errors
  std::uint64_t bytecode_offset = Error::kNoOffset;  // file offset of SCDA's data, when stored plainly
  // Whose locals a result script uses: a QUST's own SCRI, or the quests an INFO names (QSTI).
  std::uint32_t quest_script = 0;
  std::vector<std::uint32_t> quests;

  bool is_result_script() const { return record_type != Signature("SCPT"); }
  // `EditorID` or the FormID in hex, with `_N` (1-based) when the record holds several scripts.
  std::string file_stem() const;
};

bool holds_scripts(Signature record_type);  // SCPT, INFO, QUST, PACK

// Raises tesmod::Error only for records whose fields cannot be read at all.
std::vector<PluginScript> plugin_scripts(const PluginFile& file);

// The compiled script whose locals a result script may use (the quest's), when it is known.
const ScriptData* result_locals(const PluginScript& script, const NameSource& names);

}  // namespace tesmod::script
