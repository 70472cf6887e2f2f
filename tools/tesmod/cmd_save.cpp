// PLACEHOLDER until issue 5 lands: `tesmod save` exists but is not implemented yet.
#include <iostream>

#include "commands.hpp"

namespace tesmod::cli {

Command add_save(CLI::App& app, Common& common) {
  (void)common;
  CLI::App* sub = app.add_subcommand("save", "Oblivion save games");
  sub->allow_extras();
  return {sub, [] {
            std::cerr << "tesmod: save: not implemented yet\n";
            return kExitError;
          }};
}

}  // namespace tesmod::cli
