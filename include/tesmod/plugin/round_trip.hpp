// The check behind `tesmod verify`: build the editable model of a plugin, write it back through
// the writer and compare with the input on the fly, without keeping a copy of the output.
#pragma once

#include <cstdint>

#include "tesmod/plugin/plugin_file.hpp"

namespace tesmod {

struct RoundTrip {
  bool identical = false;
  std::uint64_t written = 0;           // bytes the writer produced
  std::uint64_t first_difference = 0;  // offset of the first differing byte, when not identical
};

RoundTrip write_back_and_compare(const PluginFile& file);

}  // namespace tesmod
