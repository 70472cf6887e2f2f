// libFuzzer entry: Skyrim VMAD fields (fields/vmad.hpp) for every fragment layout.
//
// The first byte picks the record type the VMAD belongs to: ACTI (no fragments), INFO, PACK,
// PERK, QUST or SCEN; the rest is the field's data.
//
// Oracle: the data either raises tesmod::Error with an offset inside it, or decodes to a model
// that encodes to the same bytes. (Bytes, not models, are compared: a float property may be a
// NaN, which no model equals.)
#include <cstdint>
#include <optional>
#include <vector>

#include "oracle.hpp"
#include "tesmod/error.hpp"
#include "tesmod/fields/vmad.hpp"

using namespace tesmod;
using namespace tesmod::fields;

namespace {

constexpr Signature kRecordTypes[] = {"ACTI", "INFO", "PACK", "PERK", "QUST", "SCEN"};
constexpr std::uint64_t kDataOffset = 0x40;  // where the data would sit in a file

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const Signature record_type = kRecordTypes[data[0] % std::size(kRecordTypes)];
  const std::span<const std::uint8_t> bytes(data + 1, size - 1);
  const ErrorContext where{"fuzz.esp", 0x10, RecordRef{record_type, 0x01000800, {}}};
  std::optional<Vmad> vmad;
  try {
    vmad = decode_vmad(bytes, record_type, where, kDataOffset);
  } catch (const Error& e) {
    // Errors about input must say where, inside the data.
    TESMOD_FUZZ_CHECK(e.offset() >= kDataOffset && e.offset() <= kDataOffset + bytes.size());
    return 0;
  }
  const std::vector<std::uint8_t> encoded = encode_vmad(*vmad, where);  // a decoded model must encode
  TESMOD_FUZZ_CHECK(std::equal(encoded.begin(), encoded.end(), bytes.begin(), bytes.end()));
  return 0;
}
