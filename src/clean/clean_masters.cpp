// The load order cleaning reads: a plugin and its masters, found in a data folder.
#include <fmt/format.h>

#include "tesmod/clean/clean.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/plugin/plugin_outline.hpp"

namespace tesmod::clean {

namespace fs = std::filesystem;

namespace {

// A file in dir named `name` regardless of case, or its .ghost.
std::optional<fs::path> find_plugin_file(const fs::path& dir, const std::string& name) {
  std::error_code ec;
  if (fs::is_regular_file(dir / name, ec)) return dir / name;
  std::optional<fs::path> ghost;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string file = it->path().filename().string();
    std::error_code fec;
    if (!it->is_regular_file(fec)) continue;
    if (ascii::iequals(file, name)) return it->path();
    if (ascii::iequals(file, name + ".ghost")) ghost = it->path();
  }
  return ghost;
}

}  // namespace

loadorder::LoadOrder open_with_masters(const fs::path& plugin, const fs::path& data, unsigned threads) {
  OpenOptions options;
  options.threads = 1;
  const PluginOutline outline = PluginOutline::open(plugin, options);  // throws, naming the file, when it is no plugin
  std::error_code ec;
  if (!fs::is_directory(data, ec))
    throw Error(data.string(), Error::kNoOffset, std::nullopt, "not a folder (expected the folder holding the masters)");
  loadorder::LoadOrderSource source;
  source.threads = threads;
  for (const MasterFile& m : outline.header().masters) {
    const auto found = find_plugin_file(data, m.name);
    if (!found) {
      throw Error(plugin.filename().string(), Error::kNoOffset, std::nullopt,
                  fmt::format("master '{}' is not in {}: cleaning compares every record with its masters' versions",
                              m.name, data.string()));
    }
    source.files.push_back(*found);
  }
  source.files.push_back(plugin);
  return loadorder::LoadOrder::open(source);
}

}  // namespace tesmod::clean
