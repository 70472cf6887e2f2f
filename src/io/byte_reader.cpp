#include "tesmod/io/byte_reader.hpp"

#include <fmt/format.h>

#include "tesmod/io/counted.hpp"

namespace tesmod {

void ByteReader::fail_short(std::size_t n, std::string_view what) const {
  fail(fmt::format("expected {} ({}) but only {} remain", what, counted(n, "byte"), counted(data_.size() - pos_, "byte")));
}

}  // namespace tesmod
