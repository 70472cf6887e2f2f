// The script subrecords of a record, typed: SCHR, SCDA, SCTX, SLSD/SCVR pairs and the reference
// list (SCRO/SCRV). SCPT records hold one script; INFO, QUST and PACK records hold result scripts,
// each starting with its own SCHR.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/plugin/field.hpp"

namespace tesmod::script {

enum class ScriptType : std::uint32_t { Object = 0, Quest = 1, MagicEffect = 0x100 };

struct ScriptHeader {  // SCHR, 20 bytes
  std::uint32_t unused = 0;
  std::uint32_t ref_count = 0;       // entries in the reference list
  std::uint32_t compiled_size = 0;   // bytes of SCDA
  std::uint32_t variable_count = 0;  // highest local index ever handed out
  std::uint32_t type = 0;            // ScriptType

  std::array<std::uint8_t, 20> encode() const;
};

// One SLSD (24 bytes) and the SCVR name after it. Bytes 4-15 and 17-23 of SLSD are not written
// by the editor's compiler on purpose (they hold whatever memory held), so they are kept as read.
struct LocalVariable {
  std::uint32_t index = 0;
  std::array<std::uint8_t, 24> slsd{};
  std::string name;
  bool has_name = true;

  bool is_integer() const { return (slsd[16] & 1) != 0; }
  static LocalVariable make(std::uint32_t index, bool integer, std::string name);
};

// An entry of the reference list: SCRO holds a FormID, SCRV the index of a local ref variable.
struct ScriptRef {
  enum class Kind : std::uint8_t { Object, Variable };
  Kind kind = Kind::Object;
  std::uint32_t value = 0;
  friend bool operator==(const ScriptRef&, const ScriptRef&) = default;
};

struct ScriptData {
  ScriptHeader header;
  bool has_header = true;
  std::vector<std::uint8_t> bytecode;
  bool has_bytecode = true;
  std::string source;  // as stored, in the file's code page
  bool has_source = true;
  std::vector<LocalVariable> variables;
  std::vector<ScriptRef> refs;

  const LocalVariable* variable(std::uint32_t index) const;
  const LocalVariable* variable(std::string_view name) const;  // case-insensitive
};

// Where a script's subrecords sit in a record's field list: [first, last).
struct ScriptSpan {
  std::size_t first = 0;
  std::size_t last = 0;
};

bool is_script_field(Signature type);
// The runs of script subrecords in a record, each starting at a SCHR (or, in damaged records,
// at the first script subrecord).
std::vector<ScriptSpan> find_scripts(std::span<const Field> fields);

// Decodes one run of script fields. Fields must be of the script kinds; sizes are checked.
ScriptData decode_script(std::span<const Field> fields, const ErrorContext& where);
// The fields again, in the order the editor writes them: SCHR SCDA SCTX (SLSD SCVR)* (SCRO|SCRV)*.
std::vector<Field> encode_script(const ScriptData& script);

}  // namespace tesmod::script
