// What the fuzzers that damage a plugin made to order share: the damage an input makes (its
// bytes 1-2 cut bytes off the end, values up to 64 cutting nothing; then each three bytes XOR a
// byte at an offset; byte 0 is left to the target, which picks a game or a file with it), and a
// plain write (an atomic write's sync would cost more than the work under test).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <vector>

namespace tesmod::fuzz {

inline void damage(std::vector<std::uint8_t>& bytes, const std::uint8_t* data, std::size_t size) {
  if (size >= 3) {
    const std::size_t cut = (std::size_t(data[1]) | std::size_t(data[2]) << 8) % (bytes.size() + 1);
    bytes.resize(bytes.size() - (cut > 64 ? cut : 0));  // small values: no cut
  }
  for (std::size_t i = 3; i + 3 <= size && !bytes.empty(); i += 3)
    bytes[(std::size_t(data[i]) | std::size_t(data[i + 1]) << 8) % bytes.size()] ^= data[i + 2];
}

inline void write_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(bytes.data()),
                                                                 std::streamsize(bytes.size()));
}

}  // namespace tesmod::fuzz
