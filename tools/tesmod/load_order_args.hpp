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

// PLUGIN... of a command that works on some plugins of a load order (check, esl check): with
// --data, names within the data folder's load order, taken out of args so that it opens the
// whole order; without, the files that make the load order, of which the named ones (not the
// masters read from beside them) are worked on.
class PluginSelection {
 public:
  explicit PluginSelection(LoadOrderArgs& args);
  // Positions of the named plugins, in the order named; empty when none are named (then every
  // active plugin). A name not in the data folder's load order is a UsageError.
  std::vector<std::uint32_t> positions(const loadorder::LoadOrder& order) const;

 private:
  std::vector<std::string> names_;
  bool in_data_ = false;
  std::string data_;
};

// `file: message` lines for the problems, on stderr or in a text report.
std::string problems_text(const std::vector<loadorder::Problem>& problems);

}  // namespace tesmod::cli
