// The script check behind `tesmod verify --deep`: every script of a plugin is compiled again,
// from its stored source (SCTX) and from its decompiled text, and the result compared field by
// field with the compiled script the plugin holds.
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

enum class ScriptCheckKind : std::uint8_t { Compile, Decompile };
std::string_view to_string(ScriptCheckKind kind);  // "compile", "decompile"

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

// The 1-based line of `source` holding the statement that covers byte `offset` of `bytecode`,
// found by pairing statements with the source lines that compile to one (not blank, comment or
// declaration lines); 0 when the two do not pair up.
std::uint32_t source_line_at(std::span<const std::uint8_t> bytecode, std::uint64_t offset, std::string_view source);

struct ScriptCheckFailure {
  Signature record_type;
  std::uint32_t form_id = 0;
  std::string editor_id;
  std::size_t script_index = 0;  // among the record's scripts, 0-based
  ScriptCheckKind check = ScriptCheckKind::Compile;
  std::string field;             // empty when the script did not compile or decompile at all
  std::uint64_t byte = 0;
  std::uint32_t line = 0;        // of the compiled source (SCTX, or the decompiled text); 0 if unknown
  std::uint32_t column = 0;      // compile errors only
  std::string message;
};

struct ScriptCheckCounts {
  std::size_t total = 0;
  std::size_t identical = 0;
};

struct ScriptCheckReport {
  ScriptCheckCounts compile;    // SCTX compiled
  ScriptCheckCounts decompile;  // decompiled, then compiled
  std::size_t hinted = 0;       // scripts whose compiles took a fact from the original
  std::size_t early_obse = 0;   // scripts compiled like an early OBSE (detected per plugin)
  std::vector<std::string> obse_plugins;  // OBSE plugin builds detected and compiled against
  std::vector<ScriptCheckFailure> failures;

  bool all_identical() const { return compile.identical == compile.total && decompile.identical == decompile.total; }
};

// Raises tesmod::Error only when the plugin's records cannot be read; every script problem is
// a failure in the report.
ScriptCheckReport check_scripts(const PluginFile& file, const ScriptCheckOptions& options = {});

}  // namespace tesmod::script
