// Names of an actor's attributes, skills and actor values, in their standard index order (the
// order of the Base Attributes and Skills blocks, and the indices of Base Modifiers).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tesmod::save {

// Strength, Intelligence, ... Luck.
std::span<const std::string_view> attribute_names();
// Armorer, Athletics, Blade, ... Speechcraft (HandToHand, HeavyArmor, LightArmor in one word).
std::span<const std::string_view> skill_names();

// Index of a name, matched without regard to case, spaces, '-' and '_' ("hand to hand").
std::optional<std::size_t> attribute_index(std::string_view name);
std::optional<std::size_t> skill_index(std::string_view name);

// The script name of an actor value index (ResistDisease, Vampirism ...); Fame and Infamy,
// which scripts cannot name, as such; ActorValue<N> for indices no table knows.
std::string actor_value_name(std::uint8_t index);

}  // namespace tesmod::save
