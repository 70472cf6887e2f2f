#include "interior_cells.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "tesmod/plugin/group_type.hpp"

namespace tesmod::light::detail {

namespace {

constexpr Signature kCELL{"CELL"};

bool is_children_of(const Node& n, std::uint32_t cell) {
  return n.is_group() && n.group().type() == std::int32_t(GroupType::CellChildren) && n.group().label() == cell;
}

Group& child_group(Group& parent, GroupType type, std::int32_t label, const GroupHeader& like) {
  for (Node& n : parent.children)
    if (n.is_group() && n.group().type() == std::int32_t(type) && std::int32_t(n.group().label()) == label) return n.group();
  GroupHeader h = like;  // the stamp and the unknown field of a sibling
  h.type = std::int32_t(type);
  h.label = std::uint32_t(label);
  h.size = 0;
  parent.children.emplace_back(Group(h));
  return parent.children.back().group();
}

}  // namespace

std::size_t place_interior_cells(Plugin& model, const std::unordered_set<std::uint32_t>& cells) {
  Group* top = nullptr;
  for (Node& n : model.top())
    if (n.is_group() && n.group().type() == std::int32_t(GroupType::Top) && n.group().label() == kCELL.value()) top = &n.group();
  if (!top) return 0;
  // Take the misplaced cells out (a cell and the children group that follows it).
  std::vector<std::vector<Node>> moving;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> emptied;  // (block, sub-block) labels taken from
  for (Node& block : top->children) {
    if (!block.is_group() || block.group().type() != std::int32_t(GroupType::InteriorCellBlock)) continue;
    for (Node& sub : block.group().children) {
      if (!sub.is_group() || sub.group().type() != std::int32_t(GroupType::InteriorCellSubBlock)) continue;
      std::vector<Node>& children = sub.group().children;
      std::vector<Node> kept;
      for (std::size_t k = 0; k < children.size(); ++k) {
        Node& n = children[k];
        if (n.is_record() && n.record().type() == kCELL && cells.contains(n.record().form_id()) &&
            (interior_block(n.record().form_id()) != std::int32_t(block.group().label()) ||
             interior_sub_block(n.record().form_id()) != std::int32_t(sub.group().label()))) {
          const std::uint32_t id = n.record().form_id();
          std::vector<Node> cell;
          cell.push_back(std::move(n));
          if (k + 1 < children.size() && is_children_of(children[k + 1], id)) cell.push_back(std::move(children[++k]));
          moving.push_back(std::move(cell));
          emptied.emplace_back(block.group().label(), sub.group().label());
          continue;
        }
        kept.push_back(std::move(n));
      }
      children = std::move(kept);
    }
  }
  if (moving.empty()) return 0;
  GroupHeader like;
  for (const Node& n : top->children)
    if (n.is_group()) like = n.group().header;
  for (std::vector<Node>& cell : moving) {
    const std::uint32_t id = cell.front().record().form_id();
    Group& block = child_group(*top, GroupType::InteriorCellBlock, interior_block(id), like);
    Group& sub = child_group(block, GroupType::InteriorCellSubBlock, interior_sub_block(id), like);
    for (Node& n : cell) sub.children.push_back(std::move(n));
  }
  // Drop the sub-blocks and blocks this left empty (not others: their bytes stay as they were).
  auto taken_from = [&](std::uint32_t block, std::optional<std::uint32_t> sub) {
    return std::any_of(emptied.begin(), emptied.end(),
                       [&](const auto& e) { return e.first == block && (!sub || e.second == *sub); });
  };
  for (Node& block : top->children) {
    if (!block.is_group() || block.group().type() != std::int32_t(GroupType::InteriorCellBlock)) continue;
    const std::uint32_t b = block.group().label();
    std::erase_if(block.group().children, [&](const Node& n) {
      return n.is_group() && n.group().children.empty() && taken_from(b, n.group().label());
    });
  }
  std::erase_if(top->children, [&](const Node& n) {
    return n.is_group() && n.group().type() == std::int32_t(GroupType::InteriorCellBlock) && n.group().children.empty() &&
           taken_from(n.group().label(), std::nullopt);
  });
  return moving.size();
}

}  // namespace tesmod::light::detail
