// `tesmod esl compact`: placeholder until the compact lands.
#include "cmd_esl.hpp"

namespace tesmod::cli {

Command add_esl_compact(CLI::App& esl, Common& common) {
  CLI::App* sub = esl.add_subcommand("compact", "Renumber a plugin's new records into the light range");
  add_common_options(*sub, common);
  return {sub, [] { throw UsageError("esl compact: not built yet"); return kExitUsage; }};
}

}  // namespace tesmod::cli
