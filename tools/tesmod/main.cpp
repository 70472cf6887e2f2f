// tesmod: read, check, edit and write Elder Scrolls plugins and saves from the command line.
#include <fmt/format.h>

#include <iostream>

#include "commands.hpp"
#include "tesmod/error.hpp"

int main(int argc, char** argv) {
  using namespace tesmod::cli;
  CLI::App app{"tesmod: read, check and write Oblivion and Skyrim plugins", "tesmod"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tesmod " TESMOD_VERSION);
  Common common;
  const Command commands[] = {add_info(app, common), add_dump(app, common), add_verify(app, common),
                              add_rewrite(app, common), add_script(app, common), add_conditions(app, common),
                              add_vmad(app, common),     add_pack(app, common),   add_save(app, common),
                              add_export(app, common),   add_import(app, common), add_diff(app, common),
                              add_load_order(app, common), add_conflicts(app, common), add_check(app, common),
                              add_clean(app, common), add_patch(app, common), add_esl(app, common)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  try {
    for (const Command& c : commands)
      if (c.app->parsed()) return c.run();
  } catch (const UsageError& e) {
    std::cerr << "tesmod: " << e.what() << "\n";
    return kExitUsage;
  } catch (const tesmod::Error& e) {
    std::cerr << "tesmod: error: " << e.what() << "\n";
    return kExitError;
  } catch (const std::exception& e) {
    std::cerr << "tesmod: error: " << e.what() << "\n";
    return kExitError;
  }
  return kExitUsage;
}
