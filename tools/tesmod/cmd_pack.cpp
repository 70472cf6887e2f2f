// PLACEHOLDER until issue 4 lands: `tesmod pack` exists but is not implemented yet.
#include <iostream>

#include "commands.hpp"

namespace tesmod::cli {

Command add_pack(CLI::App& app, Common& common) {
  (void)common;
  CLI::App* sub = app.add_subcommand("pack", "AI packages (PACK) of a Skyrim plugin");
  sub->allow_extras();
  return {sub, [] {
            std::cerr << "tesmod: pack: not implemented yet\n";
            return kExitError;
          }};
}

}  // namespace tesmod::cli
