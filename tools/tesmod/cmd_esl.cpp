// `tesmod esl check` and `tesmod esl compact`: which plugins of a Skyrim SE load order can be
// light, and FormID compaction into the light range (cmd_esl_check.cpp, cmd_esl_compact.cpp).
#include "cmd_esl.hpp"
#include "commands.hpp"

namespace tesmod::cli {

Command add_esl(CLI::App& app, Common& common) {
  CLI::App* sub = app.add_subcommand("esl", "Light (ESL) plugins: which can be flagged and why not (check), "
                                            "FormID compaction into the light range (compact)");
  sub->require_subcommand(1);
  const Command check = add_esl_check(*sub, common);
  const Command compact = add_esl_compact(*sub, common);
  return {sub, [check, compact] { return check.app->parsed() ? check.run() : compact.run(); }};
}

}  // namespace tesmod::cli
