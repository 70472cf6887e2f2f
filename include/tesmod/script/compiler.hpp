// Script source to compiled script, the way the Construction Set (with OBSE loaded) does it:
// the same reference-list order, local indices, expression encoding and jump counts.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/script/master_facts.hpp"
#include "tesmod/script/names.hpp"
#include "tesmod/script/obse_profile.hpp"
#include "tesmod/script/script_data.hpp"

namespace tesmod::script {

// A source error: 1-based line and column, and what was expected there.
class CompileError : public std::runtime_error {
 public:
  CompileError(std::uint32_t line, std::uint32_t column, std::string message, bool unknown_name = false);
  std::uint32_t line() const { return line_; }
  std::uint32_t column() const { return column_; }
  const std::string& message() const { return message_; }
  // A name no form, variable or command has (callers add where the names were looked for).
  bool unknown_name() const { return unknown_name_; }

 private:
  std::uint32_t line_, column_;
  std::string message_;
  bool unknown_name_ = false;
};

struct CompileOptions {
  const NameSource* names = nullptr;
  // The script being recompiled, if any: its variables keep their indices (and the SLSD bytes
  // the editor never sets), new ones continue after its SCHR variable count, and its script type
  // is kept.
  const ScriptData* previous = nullptr;
  // Result scripts (INFO/QUST/PACK) have no ScriptName line or blocks; their locals are those of
  // the given script (the quest's), when known.
  bool result_script = false;
  const ScriptData* result_locals = nullptr;
  // Facts that live only in a master that is not at hand (master_facts.hpp), by name.
  const MasterFacts* facts = nullptr;
  // Internal to learn_master_facts(): names nothing resolves get placeholders noted here.
  MasterFacts* placeholders = nullptr;
  ScriptType type = ScriptType::Object;  // for new scripts
  // Which OBSE's compiler to match (see obse_profile.hpp).
  ObseProfile obse_profile = ObseProfile::Current;
  // OBSE expressions: a bare word that no form, variable or command has is the string of its
  // text, as the editor compiles it (with a warning). Off, it is an error unless the previous
  // compile holds that string, so that a misspelled name is not compiled to a string.
  bool unquoted_strings = false;
  // OBSE plugin builds installed (CommandInfo::plugin): where builds register one name at
  // different opcodes, theirs is used. plugin_builds_used() finds them in compiled scripts.
  std::vector<std::string> obse_plugins;
};

struct CompileResult {
  ScriptData script;      // SCHR, SCDA, SCTX (the source as given), SLSD/SCVR, SCRO/SCRV
  unsigned hints_used = 0;  // facts taken from options.facts: each FormID, global flag and variable used
  // What the source's names stood for: every EditorID resolved to a form (by lower-case name),
  // and every variable of a form's script read as `owner.var`. Names with no form (placeholders,
  // @FormID escapes, player) and variables read through a local ref variable are not listed.
  MasterFacts names_used;
};

CompileResult compile(std::string_view source, const CompileOptions& options);

}  // namespace tesmod::script
