// libFuzzer entry: any bytes through every layer of the plugin reader and writer. Every input
// either reads and writes back identically, or raises tesmod::Error with a file offset; and the
// outline reader agrees with the full index on it.
#include <cstdint>
#include <cstdlib>

#include "read_all_layers.hpp"
#include "tesmod/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> bytes(data, data + size);
  // The outline (top level at open, groups on demand) agrees with the full index.
  if (!tesmod::test::outline_disagreement(bytes, "fuzz.esp").empty()) std::abort();
  try {
    const auto r = tesmod::test::read_all_layers(bytes, "fuzz.esp", 0x800, 1);
    if (!r.written_back_identically) std::abort();  // read, but not written back as read: a bug
  } catch (const tesmod::Error& e) {
    if (e.offset() == tesmod::Error::kNoOffset) std::abort();  // errors about input must say where
  }
  return 0;
}
