// Interior cells live in a block and sub-block chosen by their object id (block: its last decimal
// digit, sub-block: the one before: 356 of the corpus's 357 interior cells follow it); a cell
// whose FormID changes moves with its children group to the groups of its new id.
#pragma once

#include <cstdint>
#include <unordered_set>

#include "tesmod/plugin/plugin.hpp"

namespace tesmod::light::detail {

constexpr std::int32_t interior_block(std::uint32_t form_id) { return std::int32_t((form_id & 0xFFFFFF) % 10); }
constexpr std::int32_t interior_sub_block(std::uint32_t form_id) { return std::int32_t((form_id & 0xFFFFFF) / 10 % 10); }

// Moves each interior CELL whose FormID is in `cells` and which sits in another block or
// sub-block than its id's (with the cell children group after it) to the end of the right
// sub-block, made when missing (at the end of its parent); blocks and sub-blocks left empty are
// dropped. Returns how many cells moved.
std::size_t place_interior_cells(Plugin& model, const std::unordered_set<std::uint32_t>& cells);

}  // namespace tesmod::light::detail
