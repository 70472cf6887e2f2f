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
  // Plugin commands by name, every build's, alternate builds' too (names shared between builds
  // have several, in table order).
  std::unordered_map<std::string, std::vector<const CommandInfo*>> plugin_commands;

  NameIndex() {
    for (const CommandInfo& c : kCommandData) {
      auto& map = c.is_block() ? blocks : commands;
      if (c.kind == CommandKind::Console) continue;
      // The first registration of a name wins, as in the game's own table.
      map.emplace(ascii::to_lower(c.name), &c);
      if (!c.short_name.empty()) map.emplace(ascii::to_lower(c.short_name), &c);
      if (c.kind == CommandKind::Plugin) add_plugin_command(c);
    }
    for (const CommandInfo& c : kAlternateCommandData) {
      add_plugin_command(c);
      if (std::find(alternate_builds.begin(), alternate_builds.end(), c.plugin) == alternate_builds.end())
        alternate_builds.push_back(c.plugin);
    }
  }

  void add_plugin_command(const CommandInfo& c) {
    plugin_commands[ascii::to_lower(c.name)].push_back(&c);
    if (!c.short_name.empty()) plugin_commands[ascii::to_lower(c.short_name)].push_back(&c);
  }

  std::vector<std::string_view> alternate_builds;
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

namespace {

bool listed(std::span<const std::string> plugins, std::string_view build) {
  return std::find(plugins.begin(), plugins.end(), build) != plugins.end();
}

bool is_alternate(std::string_view build) {
  const auto& builds = names().alternate_builds;
  return std::find(builds.begin(), builds.end(), build) != builds.end();
}

}  // namespace

const CommandInfo* find_command(std::uint16_t opcode, std::span<const std::string> plugins) {
  // A chosen alternate build's command wins over the opcode's default owner.
  if (plugins.empty()) return find_command(opcode);
  for (const CommandInfo& c : kAlternateCommandData)
    if (c.opcode == opcode && listed(plugins, c.plugin)) return &c;
  return find_command(opcode);
}

const CommandInfo* find_command(std::string_view name, std::span<const std::string> plugins) {
  const CommandInfo* first = find_command(name);
  if (plugins.empty() || (first && first->kind != CommandKind::Plugin)) return first;
  const auto& index = names().plugin_commands;
  const auto it = index.find(ascii::to_lower(name));
  if (it == index.end()) return first;
  // Chosen alternate builds first (their opcodes shadow the default table's), then the others.
  for (bool alternate : {true, false})
    for (const CommandInfo* c : it->second)
      if (is_alternate(c->plugin) == alternate && listed(plugins, c->plugin)) return c;
  return first;
}

std::span<const std::string_view> alternate_builds() { return names().alternate_builds; }

const CommandInfo* find_block(std::string_view name) {
  auto& map = names().blocks;
  auto it = map.find(ascii::to_lower(name));
  return it == map.end() ? nullptr : it->second;
}

std::span<const CommandInfo> all_commands() { return kCommandData; }

}  // namespace tesmod::script
