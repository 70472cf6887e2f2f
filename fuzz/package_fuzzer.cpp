// libFuzzer entry: PACK records of both games (fields/package_codec.hpp, package_oblivion.hpp).
//
// The first byte picks the game (bit 0: 0 Skyrim, 1 Oblivion); the rest is a record body, the
// fields as stored.
//
// Oracle: the body either raises tesmod::Error with an offset in the record (fields that do not
// tile the body, or a package the decoder rejects), or decodes to a package whose fields encode to the
// same body.
#include <cstdint>
#include <vector>

#include "oracle.hpp"
#include "tesmod/error.hpp"
#include "tesmod/fields/package_codec.hpp"
#include "tesmod/fields/package_oblivion.hpp"
#include "tesmod/plugin/field.hpp"
#include "tesmod/plugin/subrecord.hpp"

using namespace tesmod;
using namespace tesmod::fields;

namespace {

constexpr std::uint64_t kBodyOffset = 0x100;  // where the body would sit in a file

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool oblivion = data[0] & 1;
  const std::span<const std::uint8_t> body(data + 1, size - 1);
  const ErrorContext where{"fuzz.esp", kBodyOffset - 24, RecordRef{Signature("PACK"), 0x01000800, {}}};
  std::vector<Field> encoded;
  try {
    std::vector<Field> fields;
    FieldLocations locations;
    for (const SubrecordView& view : read_subrecords(body, where, kBodyOffset)) {
      fields.push_back(Field::from_view(view));
      locations.offsets.push_back(kBodyOffset + view.offset);
    }
    locations.offsets.push_back(kBodyOffset + body.size());
    encoded = oblivion ? encode_oblivion_package(decode_oblivion_package(fields, where, locations))
                       : encode_package(decode_package(fields, where, locations));
  } catch (const Error& e) {
    // Errors about input must say where: in the body, or at the record for a missing field.
    TESMOD_FUZZ_CHECK(e.offset() >= where.offset && e.offset() <= kBodyOffset + body.size());
    return 0;
  }
  std::vector<std::uint8_t> out;
  encode_fields(encoded, out);
  TESMOD_FUZZ_CHECK(std::equal(out.begin(), out.end(), body.begin(), body.end()));
  return 0;
}
