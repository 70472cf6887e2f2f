// `tesmod esl check`: placeholder until the check lands.
#include "cmd_esl.hpp"

namespace tesmod::cli {

Command add_esl_check(CLI::App& esl, Common& common) {
  CLI::App* sub = esl.add_subcommand("check", "Which plugins can be flagged light, and why not");
  add_common_options(*sub, common);
  return {sub, [] { throw UsageError("esl check: not built yet"); return kExitUsage; }};
}

}  // namespace tesmod::cli
