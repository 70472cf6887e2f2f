// Group types and how each one's label is to be read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tesmod {

enum class GroupType : std::int32_t {
  Top = 0,                     // label: record type of the contents
  WorldChildren = 1,           // label: FormID of the WRLD
  InteriorCellBlock = 2,       // label: block number
  InteriorCellSubBlock = 3,    // label: sub-block number
  ExteriorCellBlock = 4,       // label: grid Y (i16), grid X (i16)
  ExteriorCellSubBlock = 5,    // label: grid Y (i16), grid X (i16)
  CellChildren = 6,            // label: FormID of the CELL
  TopicChildren = 7,           // label: FormID of the DIAL
  CellPersistentChildren = 8,  // label: FormID of the CELL
  CellTemporaryChildren = 9,   // label: FormID of the CELL
  CellVisibleDistantChildren = 10,  // label: FormID of the CELL (Oblivion)
};

inline constexpr std::int32_t kMaxGroupType = 10;

// Stable snake_case name, e.g. "top", "cell_children".
std::string_view group_type_name(std::int32_t type);
// What the label holds, rendered: "NPC_", "00012345", "block 3", "Y -1, X 2".
std::string describe_group_label(std::int32_t type, std::uint32_t label);
// True when the label of this group type is a FormID.
bool group_label_is_form_id(std::int32_t type);

}  // namespace tesmod
