// Opens a plugin with the installed library and prints its game and record count (the TES4
// header record not counted), or the library's error message.
#include <cstdio>
#include <tesmod/error.hpp>
#include <tesmod/plugin/game.hpp>
#include <tesmod/plugin/plugin_file.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: count_records PLUGIN\n");
    return 2;
  }
  try {
    const tesmod::PluginFile plugin = tesmod::PluginFile::open(argv[1]);
    const std::string_view game = tesmod::game_id(plugin.game());
    std::printf("%.*s %llu records\n", int(game.size()), game.data(),
                static_cast<unsigned long long>(plugin.stats().records));
  } catch (const tesmod::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
