// Compiled script (SCDA) back to source text that compiles to the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/script/names.hpp"
#include "tesmod/script/script_data.hpp"

namespace tesmod::script {

struct DecompileOptions {
  const NameSource* names = nullptr;  // for EditorIDs of referenced forms and remote variables
  std::string script_name;            // written after `scn`; the record's EditorID
  ErrorContext where;                 // names the file and record in errors
  std::uint64_t bytecode_offset = Error::kNoOffset;  // file offset of SCDA's data, for errors
  // OBSE plugin builds the script was compiled against (CommandInfo::plugin): an alternate
  // build's commands replace the default owners of its opcodes (command_table.hpp).
  std::vector<std::string> obse_plugins;
};

// Forms without a known EditorID are written `@0001ABCD` (the FormID as the plugin stores it),
// variables of a script that is not available as `Ref.@s5` / `Ref.@f5` (type and index); the
// compiler reads both back.
std::string decompile(const ScriptData& script, const DecompileOptions& options);

}  // namespace tesmod::script
