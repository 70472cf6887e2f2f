// How a deleted reference is undeleted and disabled, as xEdit's Quick Auto Clean does it (facts
// from xEdit's "undelete and disable references"):
//
//   - Deleted cleared, Initially Disabled set;
//   - the enable parent (XESP) is the player reference 0x14 with "set enable state to opposite of
//     parent" (flag 1), where the record's layout puts XESP; XTEL removed;
//   - Skyrim: ACHR and ACRE become persistent (other references keep their flag); Oblivion: every
//     reference becomes non-persistent;
//   - a non-persistent reference moves to z = -30000 (DATA's third float).
//
// The fields are those of the latest master version that is not deleted, as xEdit's undelete
// takes them (the Creation Kit keeps at most the base, NAME, in a deleted reference); the record's
// own only when every master's version is deleted too.
//
// Our choices where xEdit's result depends on its own state: a compressed reference is written
// uncompressed (the same bytes with any zlib,
// where recompressing would tie the output to a compressor version); the record stays in its
// group (xEdit moves a reference whose persistence changes to the cell's other child group).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tesmod/plugin/field.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod::clean {

inline constexpr std::uint32_t kPlayerReference = 0x14;
inline constexpr float kBelowGround = -30000.0f;

// Whether the type is a placed reference that cleaning undeletes.
bool is_placed_reference(Signature type);

struct UdrResult {
  std::uint32_t flags = 0;
  std::vector<Field> fields;
  std::string skipped;  // why the reference cannot be undeleted (then flags and fields are unset)
};

// The undeleted reference from its header flags and the fields it takes (see above).
UdrResult undelete_reference(Game game, Signature type, std::uint32_t flags, std::vector<Field> fields);

}  // namespace tesmod::clean
