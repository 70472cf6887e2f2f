// The stored form of a compressed record's data (flag 0x00040000): a u32 holding the inflated
// size, then a zlib stream.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/io/zlib_codec.hpp"

namespace tesmod {

// The inflated fields (valid until the inflater's next use). Raises tesmod::Error, through
// context, when the data is too short, the zlib stream is bad or its size is not the stored one.
std::span<const std::uint8_t> inflate_record_body(std::span<const std::uint8_t> stored, Inflater& inflater,
                                                  const ErrorContext& context);

// The stored form of raw fields: size prefix and zlib stream (the Creation Kit's default level, 6).
std::vector<std::uint8_t> compress_record_body(std::span<const std::uint8_t> raw);

}  // namespace tesmod
