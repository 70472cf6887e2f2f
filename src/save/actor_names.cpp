#include "tesmod/save/actor_names.hpp"

#include <array>

#include "../script/param_names.hpp"
#include "tesmod/io/ascii.hpp"

namespace tesmod::save {
namespace {

constexpr std::array<std::string_view, 8> kAttributes = {"Strength",  "Intelligence", "Willpower",   "Agility",
                                                         "Speed",     "Endurance",    "Personality", "Luck"};
constexpr std::array<std::string_view, 21> kSkills = {
    "Armorer",     "Athletics",   "Blade",      "Block",      "Blunt",     "HandToHand", "HeavyArmor",
    "Alchemy",     "Alteration",  "Conjuration", "Destruction", "Illusion", "Mysticism", "Restoration",
    "Acrobatics",  "LightArmor",  "Marksman",   "Mercantile", "Security",  "Sneak",      "Speechcraft"};

std::string folded(std::string_view name) {
  std::string out;
  for (char c : name)
    if (c != ' ' && c != '-' && c != '_') out += ascii::lower(c);
  return out;
}

std::optional<std::size_t> index_of(std::span<const std::string_view> names, std::string_view name) {
  const std::string key = folded(name);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (folded(names[i]) == key) return i;
  return std::nullopt;
}

}  // namespace

std::span<const std::string_view> attribute_names() { return kAttributes; }
std::span<const std::string_view> skill_names() { return kSkills; }

std::optional<std::size_t> attribute_index(std::string_view name) { return index_of(kAttributes, name); }
std::optional<std::size_t> skill_index(std::string_view name) { return index_of(kSkills, name); }

std::string actor_value_name(std::uint8_t index) {
  if (auto n = script::param_value_name(script::NamedParam::ActorValue, index)) return std::string(*n);
  // In the engine's table but without a script name (tes4_actor_values.tsv).
  if (index == 38) return "Fame";
  if (index == 39) return "Infamy";
  return "ActorValue" + std::to_string(index);
}

}  // namespace tesmod::save
