// PLACEHOLDER until issue 4 lands: `tesmod vmad` exists but is not implemented yet.
#include <iostream>

#include "commands.hpp"

namespace tesmod::cli {

Command add_vmad(CLI::App& app, Common& common) {
  (void)common;
  CLI::App* sub = app.add_subcommand("vmad", "Papyrus script attachments (VMAD) of a Skyrim plugin");
  sub->allow_extras();
  return {sub, [] {
            std::cerr << "tesmod: vmad: not implemented yet\n";
            return kExitError;
          }};
}

}  // namespace tesmod::cli
