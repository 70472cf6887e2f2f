// PLACEHOLDER until issue 4 lands: `tesmod conditions` exists but is not implemented yet.
#include <iostream>

#include "commands.hpp"

namespace tesmod::cli {

Command add_conditions(CLI::App& app, Common& common) {
  (void)common;
  CLI::App* sub = app.add_subcommand("conditions", "Conditions (CTDA) of a plugin as text");
  sub->allow_extras();
  return {sub, [] {
            std::cerr << "tesmod: conditions: not implemented yet\n";
            return kExitError;
          }};
}

}  // namespace tesmod::cli
