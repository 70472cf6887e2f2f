#include "tesmod/script/command_table.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "tesmod/io/ascii.hpp"

namespace tesmod::script {
namespace {

#include "command_table_data.inc"

struct NameIndex {
  std::unordered_map<std::string, const CommandInfo*> commands;
  std::unordered_map<std::string, const CommandInfo*> blocks;
  // Plugin commands by name, every build's (names shared between builds have several).
  std::unordered_map<std::string, std::vector<const CommandInfo*>> plugin_commands;

  NameIndex() {
    for (const CommandInfo& c : kCommandData) {
      auto& map = c.is_block() ? blocks : commands;
      if (c.kind == CommandKind::Console) continue;
      // The first registration of a name wins, as in the game's own table.
      map.emplace(ascii::to_lower(c.name), &c);
      if (!c.short_name.empty()) map.emplace(ascii::to_lower(c.short_name), &c);
      if (c.kind == CommandKind::Plugin) {
        plugin_commands[ascii::to_lower(c.name)].push_back(&c);
        if (!c.short_name.empty()) plugin_commands[ascii::to_lower(c.short_name)].push_back(&c);
      }
    }
  }
};

const NameIndex& names() {
  static const NameIndex index;
  return index;
}

const CommandInfo* by_opcode(std::uint16_t opcode, bool block) {
  auto first = std::begin(kCommandData), last = std::end(kCommandData);
  // Blocks (0x0000-0x00FF) sit before the console and script commands in the sorted table.
  auto it = std::lower_bound(first, last, opcode, [](const CommandInfo& c, std::uint16_t op) { return c.opcode < op; });
  if (it == last || it->opcode != opcode || it->is_block() != block) return nullptr;
  return &*it;
}

}  // namespace

std::span<const ParamSpec> CommandInfo::params() const {
  return std::span<const ParamSpec>(kParamData).subspan(first_param, param_count);
}

const CommandInfo* find_command(std::uint16_t opcode) { return by_opcode(opcode, false); }
const CommandInfo* find_block(std::uint16_t type) { return by_opcode(type, true); }

const CommandInfo* find_command(std::string_view name) {
  auto& map = names().commands;
  auto it = map.find(ascii::to_lower(name));
  return it == map.end() ? nullptr : it->second;
}

const CommandInfo* find_command(std::string_view name, std::span<const std::string> plugins) {
  const CommandInfo* first = find_command(name);
  if (plugins.empty() || !first || first->kind != CommandKind::Plugin) return first;
  const auto& alternatives = names().plugin_commands.at(ascii::to_lower(name));
  for (const CommandInfo* c : alternatives)
    if (std::find(plugins.begin(), plugins.end(), c->plugin) != plugins.end()) return c;
  return first;
}

const CommandInfo* find_block(std::string_view name) {
  auto& map = names().blocks;
  auto it = map.find(ascii::to_lower(name));
  return it == map.end() ? nullptr : it->second;
}

std::span<const CommandInfo> all_commands() { return kCommandData; }

}  // namespace tesmod::script
