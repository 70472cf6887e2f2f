#include "tesmod/plugin/group_type.hpp"

#include <fmt/format.h>

#include "tesmod/plugin/signature.hpp"

namespace tesmod {

std::string_view group_type_name(std::int32_t type) {
  switch (type) {
    case 0: return "top";
    case 1: return "world_children";
    case 2: return "interior_cell_block";
    case 3: return "interior_cell_sub_block";
    case 4: return "exterior_cell_block";
    case 5: return "exterior_cell_sub_block";
    case 6: return "cell_children";
    case 7: return "topic_children";
    case 8: return "cell_persistent_children";
    case 9: return "cell_temporary_children";
    case 10: return "cell_visible_distant_children";
    default: return "unknown";
  }
}

bool group_label_is_form_id(std::int32_t type) {
  return type == 1 || (type >= 6 && type <= 10);
}

std::string describe_group_label(std::int32_t type, std::uint32_t label) {
  switch (type) {
    case 0: return Signature::from_value(label).str();
    case 2:
    case 3: return fmt::format("block {}", std::int32_t(label));
    case 4:
    case 5: {
      // Grid Y in the low half, grid X in the high half.
      auto y = std::int16_t(label & 0xFFFF);
      auto x = std::int16_t(label >> 16);
      return fmt::format("Y {}, X {}", y, x);
    }
    default:
      if (group_label_is_form_id(type)) return fmt::format("{:08X}", label);
      return fmt::format("0x{:08X}", label);
  }
}

}  // namespace tesmod
