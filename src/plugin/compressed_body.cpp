#include "tesmod/plugin/compressed_body.hpp"

#include <fmt/format.h>

#include <cstring>

#include "tesmod/io/counted.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod {

std::span<const std::uint8_t> inflate_record_body(std::span<const std::uint8_t> stored, Inflater& inflater,
                                                  const ErrorContext& context) {
  if (stored.size() < 4) {
    context.fail(fmt::format("compressed record of {}; expected at least the 4-byte inflated size", counted(stored.size(), "byte")));
  }
  return inflater.inflate(stored.subspan(4), le::u32(stored.data()), context);
}

std::vector<std::uint8_t> compress_record_body(std::span<const std::uint8_t> raw) {
  // One compressor per thread: making one allocates and clears its tables (hundreds of KB), which
  // cost more than compressing a record.
  thread_local Deflater deflater(6);
  const std::vector<std::uint8_t> z = deflater.deflate(raw);
  std::vector<std::uint8_t> out(4 + z.size());
  le::store(out.data(), std::uint32_t(raw.size()));
  std::memcpy(out.data() + 4, z.data(), z.size());
  return out;
}

}  // namespace tesmod
