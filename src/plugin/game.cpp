#include "tesmod/plugin/game.hpp"

namespace tesmod {

std::string_view game_id(Game game) {
  switch (game) {
    case Game::Oblivion: return "oblivion";
    case Game::SkyrimLE: return "skyrim";
    case Game::SkyrimSE: return "skyrimse";
  }
  return "unknown";
}

std::string_view game_title(Game game) {
  switch (game) {
    case Game::Oblivion: return "Oblivion";
    case Game::SkyrimLE: return "Skyrim LE";
    case Game::SkyrimSE: return "Skyrim SE";
  }
  return "unknown";
}

std::optional<Game> parse_game(std::string_view id) {
  for (Game g : {Game::Oblivion, Game::SkyrimLE, Game::SkyrimSE})
    if (game_id(g) == id) return g;
  if (id == "tes4") return Game::Oblivion;
  if (id == "tes5" || id == "skyrimle") return Game::SkyrimLE;
  if (id == "sse") return Game::SkyrimSE;
  return std::nullopt;
}

}  // namespace tesmod
