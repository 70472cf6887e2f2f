// The type byte of a save's change records: the engine's form type code (the same numbering as
// the FormType script parameter), shown as the record type of the mod file form it changes.
#pragma once

#include <cstdint>
#include <optional>

#include "tesmod/plugin/signature.hpp"

namespace tesmod::save {

inline constexpr std::uint8_t kNpcChangeType = 35;       // NPC_
inline constexpr std::uint8_t kCreatureChangeType = 36;  // CREA

// NPC_ and CREA change records share one layout (the actor base form).
constexpr bool is_actor_change_type(std::uint8_t type) {
  return type == kNpcChangeType || type == kCreatureChangeType;
}

// "NPC_" for 35; codes past the table become "#NNN" so that messages still name them.
Signature change_type_signature(std::uint8_t type);
// The code of a record type (case-sensitive, as in mod files), if it has one.
std::optional<std::uint8_t> change_type_code(Signature type);

}  // namespace tesmod::save
