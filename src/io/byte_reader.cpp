#include "tesmod/io/byte_reader.hpp"

#include <fmt/format.h>

namespace tesmod {

void ByteReader::fail_short(std::size_t n, std::string_view what) const {
  fail(fmt::format("expected {} ({} bytes) but only {} bytes remain", what, n, data_.size() - pos_));
}

}  // namespace tesmod
