// The order in which a game's master files keep their top-level groups. A plugin written anew
// (a patch) puts its groups in this order, as the Creation Kit and the Construction Set do.
#pragma once

#include <optional>
#include <span>

#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod {

// The record types that have top-level groups, in the game's order.
std::span<const Signature> top_group_order(Game game);
// Where a type's top-level group goes in that order; nullopt for a type without one.
std::optional<std::size_t> top_group_rank(Game game, Signature type);

}  // namespace tesmod
