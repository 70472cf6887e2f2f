// The two subcommands of `tesmod esl`, each registered on the `esl` subcommand.
#pragma once

#include "commands.hpp"

namespace tesmod::cli {

Command add_esl_check(CLI::App& esl, Common& common);    // cmd_esl_check.cpp
Command add_esl_compact(CLI::App& esl, Common& common);  // cmd_esl_compact.cpp

}  // namespace tesmod::cli
