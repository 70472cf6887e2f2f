#include "load_order_args.hpp"

#include "commands.hpp"

namespace tesmod::cli {

void add_load_order_options(CLI::App& sub, LoadOrderArgs& args, const std::string& files_help) {
  sub.add_option("PLUGIN", args.files, files_help);
  sub.add_option("--data", args.data, "The game's Data folder (default: .)");
  sub.add_option("--plugins", args.plugins, "The plugins.txt to read (default: DATA/plugins.txt, any case)");
  sub.add_option("--game", args.game,
                 "oblivion, skyrim (LE), skyrimse or oblivionremastered (default: from the plugins' headers; "
                 "a data folder ending in ObvData/Data is Oblivion Remastered's)");
}

loadorder::LoadOrder open_load_order(const LoadOrderArgs& args, unsigned threads) {
  loadorder::LoadOrderSource source;
  source.threads = threads;
  if (!args.game.empty()) {
    if (!loadorder::select_game(source, args.game))
      throw UsageError("--game: expected " + std::string(loadorder::kGameIds) + ", not '" + args.game + "'");
  }
  if (!args.files.empty()) {
    if (!args.plugins.empty()) throw UsageError("--plugins and plugin files named on the command line exclude each other");
    source.files.assign(args.files.begin(), args.files.end());
    if (!args.data.empty())
      for (auto& f : source.files)
        if (f.is_relative() && !std::filesystem::exists(f)) f = std::filesystem::path(args.data) / f;
  } else {
    source.data = args.data.empty() ? std::filesystem::path(".") : std::filesystem::path(args.data);
    if (!args.plugins.empty()) source.plugins_file = args.plugins;
  }
  return loadorder::LoadOrder::open(source);
}

PluginSelection::PluginSelection(LoadOrderArgs& args) : names_(args.files), in_data_(!args.data.empty()), data_(args.data) {
  if (in_data_) args.files.clear();
}

std::vector<std::uint32_t> PluginSelection::positions(const loadorder::LoadOrder& order) const {
  std::vector<std::uint32_t> out;
  for (const std::string& name : names_) {
    const auto p = order.find(std::filesystem::path(name).filename().string());
    if (p) out.push_back(*p);
    else if (in_data_) throw UsageError("'" + name + "' is not in the load order of " + data_);
  }
  return out;
}

std::string problems_text(const std::vector<loadorder::Problem>& problems) {
  std::string out;
  for (const loadorder::Problem& p : problems) out += p.file + ": " + p.message + "\n";
  return out;
}

}  // namespace tesmod::cli
