// The script check behind `tesmod verify --deep`: every script of a plugin is compiled again,
// from its stored source (SCTX) and from its decompiled text, and the result compared with the
// compiled script the plugin holds:
// - recompile: SCTX compiled as the editor recompiles in place (the stored script as the
//   previous compile: its reference list and variable indices kept), compared byte for byte;
// - compile_fresh: SCTX compiled as a new script (no previous), compared by meaning (see
//   compare_by_meaning()); byte-identical ones are counted too;
// - decompile: the decompiled text compiled as a new script, compared by meaning, and
//   decompile_in_place: compiled as a recompile, compared byte for byte.
// Names of masters that are not at hand come from MasterFacts learned from the stored script
// (master_facts.hpp), unless hints are off. Scripts that call commands whose opcodes no public
// source gives (CommandInfo::unsourced) are counted apart and left out of every figure.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/script/obse_profile.hpp"
#include "tesmod/script/script_data.hpp"

namespace tesmod::script {

struct ScriptCheckOptions {
  // Let the compiler take facts that live only in unavailable masters from the original.
  bool hints = true;
  // Compile a plugin's scripts like an early OBSE when one of them shows it was compiled by one
  // (shows_early_obse()); otherwise, and when false, like the current OBSE.
  bool detect_obse_profile = true;
};

enum class ScriptCheckKind : std::uint8_t { Recompile, CompileFresh, Decompile, DecompileInPlace };
std::string_view to_string(ScriptCheckKind kind);  // "recompile", "compile_fresh", "decompile", "decompile_in_place"

// The first difference between an original compiled script and a recompiled one.
struct ScriptDifference {
  std::string field;          // SCHR, SCDA, SLSD, SCVR, SCRO or SCRV
  std::uint64_t byte = 0;     // offset within that field
  std::string message;
  std::optional<std::uint64_t> bytecode_offset;  // for SCDA: where in the original's SCDA
};

// Compares everything but SCTX. SCDA is compared first, then the variables, the reference list
// and SCHR last: its counts follow from the others, so a difference there is rarely the cause.
std::optional<ScriptDifference> compare_scripts(const ScriptData& original, const ScriptData& compiled);

// Compares by meaning: the compiled code with every reference operand read as the FormID (or
// local variable) its entry names and every local operand as the variable's name, of the same
// length; the variables by name and type; the reference lists as multisets of what the entries
// name; the script type. What differs, or nothing. `obse_plugins` as CompileOptions::obse_plugins.
std::optional<ScriptDifference> compare_by_meaning(const ScriptData& original, const ScriptData& compiled,
                                                   std::span<const std::string> obse_plugins = {});

// The 1-based line of `source` holding the statement that covers byte `offset` of `bytecode`,
// found by pairing statements with the source lines that compile to one (not blank, comment or
// declaration lines); 0 when the two do not pair up.
std::uint32_t source_line_at(std::span<const std::uint8_t> bytecode, std::uint64_t offset, std::string_view source);

struct ScriptCheckFailure {
  Signature record_type;
  std::uint32_t form_id = 0;
  std::string editor_id;
  std::size_t script_index = 0;  // among the record's scripts, 0-based
  ScriptCheckKind check = ScriptCheckKind::Recompile;
  std::string field;             // empty when the script did not compile or decompile at all
  std::uint64_t byte = 0;
  std::uint32_t line = 0;        // of the compiled source (SCTX, or the decompiled text); 0 if unknown
  std::uint32_t column = 0;      // compile errors only
  std::string message;
};

struct ScriptCheckCounts {
  std::size_t total = 0;
  std::size_t identical = 0;       // byte for byte (recompile, decompile_in_place) or by meaning
  std::size_t byte_identical = 0;  // compile_fresh and decompile: of the identical, byte for byte
};

struct ScriptCheckReport {
  ScriptCheckCounts recompile;           // SCTX, stored script as the previous compile
  ScriptCheckCounts compile_fresh;       // SCTX, as a new script
  ScriptCheckCounts decompile;           // decompiled text, as a new script
  ScriptCheckCounts decompile_in_place;  // decompiled text, stored script as the previous compile
  std::size_t unsourced = 0;             // scripts left out: they call unsourced commands
  std::size_t hinted = 0;                // scripts whose compiles took a fact from MasterFacts
  std::size_t hints = 0;                 // facts taken, over all compiles
  std::size_t early_obse = 0;            // scripts compiled like an early OBSE (detected per plugin)
  std::vector<std::string> obse_plugins;  // OBSE plugin builds detected and compiled against
  std::vector<ScriptCheckFailure> failures;

  bool all_identical() const {
    return recompile.identical == recompile.total && compile_fresh.identical == compile_fresh.total &&
           decompile.identical == decompile.total && decompile_in_place.identical == decompile_in_place.total;
  }
  void add(const ScriptCheckReport& other);  // sums the counts and failures
};

// Raises tesmod::Error only when the plugin's records cannot be read; every script problem is
// a failure in the report.
ScriptCheckReport check_scripts(const PluginFile& file, const ScriptCheckOptions& options = {});

}  // namespace tesmod::script
