// Names of the enumerated parameter values: actor values, animation groups, form types, sexes,
// axes. Each maps a name (case-insensitive) to the code written into compiled code and back.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tesmod::script {

enum class NamedParam : std::uint8_t { ActorValue, AnimationGroup, FormType, Sex, Axis };

std::optional<std::string_view> param_value_name(NamedParam kind, std::uint16_t code);
std::optional<std::uint16_t> param_value_code(NamedParam kind, std::string_view name);

}  // namespace tesmod::script
