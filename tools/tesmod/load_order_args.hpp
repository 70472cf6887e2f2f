// The options every load-order command shares (--data, --plugins, --game, plugin files named in
// order) and the load order they open.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "tesmod/loadorder/load_order.hpp"

namespace tesmod::cli {

struct LoadOrderArgs {
  std::string data;
  std::string plugins;
  std::string game;
  std::vector<std::string> files;
};

// Adds --data, --plugins, --game and the positional PLUGIN... to a subcommand.
void add_load_order_options(CLI::App& sub, LoadOrderArgs& args, const std::string& files_help);

// The load order the options name (UsageError for a bad --game or files mixed with --plugins).
loadorder::LoadOrder open_load_order(const LoadOrderArgs& args, unsigned threads);

// `file: message` lines for the problems, on stderr or in a text report.
std::string problems_text(const std::vector<loadorder::Problem>& problems);

}  // namespace tesmod::cli
