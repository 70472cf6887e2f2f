// What the parsers and renderers of structured blocks in the editable text (VMAD, packages) are
// given: how FormIDs are named and read back, the plugin's code page, and the game.
#pragma once

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/text/form_namer.hpp"

namespace tesmod::text {

struct BlockTextOptions {
  const FormNamer* namer = nullptr;  // required: FormIDs as names, and names back to FormIDs
  const TextCodec* codec = nullptr;  // required: strings to UTF-8 and back
  Game game = Game::SkyrimSE;        // conditions inside blocks are read with this game's tables
};

}  // namespace tesmod::text
