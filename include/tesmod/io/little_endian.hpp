// Unaligned little-endian loads and stores. Callers check bounds first.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace tesmod::le {

static_assert(std::endian::native == std::endian::little, "tesmod assumes a little-endian host");

template <class T>
inline T load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline std::uint16_t u16(const std::uint8_t* p) { return load<std::uint16_t>(p); }
inline std::uint32_t u32(const std::uint8_t* p) { return load<std::uint32_t>(p); }
inline std::int32_t i32(const std::uint8_t* p) { return load<std::int32_t>(p); }
inline float f32(const std::uint8_t* p) { return load<float>(p); }

template <class T>
inline void store(std::uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

}  // namespace tesmod::le
