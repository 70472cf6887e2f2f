// What a master that is not at hand would tell the compiler about the names a script uses: the
// form an EditorID names, whether it is a global, and the index and type of a variable of a
// master's script. Facts are kept by name, so a source edited to name another master form finds
// no fact for it (an error) instead of silently taking an old entry.
//
// They are learned from a compiled script and the source it was compiled from: the source is
// compiled with a placeholder for every name it cannot resolve, and the reference-list entries
// that compile reads are paired, in byte order, with the ones the stored code reads. This is the
// only place the stored code is read; the compiler itself never sees it.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "tesmod/script/script_data.hpp"

namespace tesmod::script {

struct CompileOptions;

struct MasterFacts {
  struct Form {
    std::uint32_t form_id = 0;
    bool global = false;
  };
  struct Variable {
    std::uint32_t index = 0;
    std::uint8_t type = 0;  // OBSE variable type: 0 float, 1 integer, 2 string, 3 array, 4 ref
  };
  std::map<std::string, Form> forms;          // by lower-case EditorID
  std::map<std::string, Variable> variables;  // by lower-case `owner.variable`
  // Why nothing was learned (the source does not compile, or its compile and the stored code
  // do not pair up), else empty.
  std::string problem;
};

// A form a master defines, or one the engine itself defines (object ids below 0x800 of the first
// file, which every plugin may name whatever its masters): what a fact may stand for. The
// plugin's own forms are always at hand, so no fact is ever needed for them.
inline bool is_master_or_engine_form(std::uint32_t form_id, std::size_t master_count) {
  return form_id < 0x800 || (form_id >> 24) < master_count;
}

// Learns from compiled.source and the rest of compiled. options are those a compile of that
// source would take (names, result-script locals, OBSE profile); previous and facts are ignored.
// master_count is the number of masters of the plugin the script is in: a name paired with a
// form that is neither a master's nor the engine's means the source is not the one the code was
// compiled from, and nothing is learned.
MasterFacts learn_master_facts(const ScriptData& compiled, const CompileOptions& options, std::size_t master_count);

}  // namespace tesmod::script
