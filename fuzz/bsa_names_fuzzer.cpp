// libFuzzer entry: the file names of Skyrim BSA archives (io/bsa_names.hpp).
//
// Oracle. An archive either raises tesmod::Error naming the file and an offset inside it, or lists
// as many names as its header counts files. Never a read outside the bytes (the sanitizers watch).
// Seeds: any Skyrim LE/SE .bsa, or the ones the unit tests build (tests/unit/bsa_names_test.cpp).
#include <cstdint>
#include <string>

#include "oracle.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/bsa_names.hpp"
#include "tesmod/io/little_endian.hpp"

using namespace tesmod;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string name = "fuzz.bsa";
  try {
    const BsaNames names = read_bsa_names({data, size}, name);
    TESMOD_FUZZ_CHECK(size >= 36 && names.paths.size() == le::u32(data + 20));
  } catch (const Error& e) {
    TESMOD_FUZZ_CHECK(e.file() == name && e.offset() <= size);  // errors must say where
  }
  return 0;
}
