// Which object ids a light (ESL) plugin's new records may use. The game gives a light plugin
// 4,096 object ids under its FE slot, and reads only the low 12 bits of a FormID it defines:
// a new record whose object id is outside the range collides with another record of the same
// plugin once loaded light. Before Skyrim SE 1.6.1130 the range was 0x800-0xFFF; plugins whose
// HEDR version is 1.71 may use 0x000-0xFFF on 1.6.1130 and later (esplugin's rule), but a plugin
// that refers to a record in 0x000-0x7FF must be read by such a game too, so its dependants need
// HEDR 1.71 as well.
#pragma once

#include <cstdint>

namespace tesmod {

inline constexpr std::uint32_t kLightLast = 0xFFF;
inline constexpr std::uint32_t kLightFirst = 0x800;     // HEDR 1.70 and earlier
inline constexpr std::uint32_t kLightFirst171 = 0x000;  // HEDR 1.71
inline constexpr float kHedr171 = 1.71f;

// Whether a HEDR version opens the low range (0x000-0x7FF): 1.71 as stored, with room for a
// writer's rounding.
constexpr bool hedr_allows_low_range(float version) { return version >= 1.705f; }

struct LightRange {
  std::uint32_t first = kLightFirst;
  std::uint32_t last = kLightLast;
  constexpr bool contains(std::uint32_t object_id) const { return object_id >= first && object_id <= last; }
  constexpr std::uint32_t size() const { return last - first + 1; }
};

// The range a plugin with this HEDR version may use.
constexpr LightRange light_range(float hedr_version) {
  return hedr_allows_low_range(hedr_version) ? LightRange{kLightFirst171, kLightLast} : LightRange{kLightFirst, kLightLast};
}

}  // namespace tesmod
