// The games whose plugins tesmod reads, and how their container formats differ.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tesmod {

enum class Game : std::uint8_t {
  Oblivion,  // TES4: 20-byte record and group headers
  SkyrimLE,  // TES5, Legendary Edition: 24-byte headers, record form version 43 (or lower)
  SkyrimSE,  // TES5, Special Edition: 24-byte headers, form version 44, ESL flag, HEDR 1.71
};

// Short stable names used in JSON and on the command line: oblivion, skyrim, skyrimse.
std::string_view game_id(Game game);
// Human names: "Oblivion", "Skyrim LE", "Skyrim SE".
std::string_view game_title(Game game);
std::optional<Game> parse_game(std::string_view id);

// Size of every record and group header.
constexpr std::size_t header_size(Game game) { return game == Game::Oblivion ? 20 : 24; }

}  // namespace tesmod
