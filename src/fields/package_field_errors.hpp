// Errors about one field of a PACK record, shared by the Skyrim and Oblivion decoders.
#pragma once

#include <cstddef>
#include <string>

#include "tesmod/fields/package_codec.hpp"

namespace tesmod::fields {

// Raises a tesmod::Error about field `field` of a record of field_count fields (field_count: the
// end of the record): at its file offset when the locations give one, else naming its byte in
// the inflated data, else its index.
[[noreturn]] void fail_at_field(const ErrorContext& where, const FieldLocations& at, std::size_t field_count,
                                std::size_t field, std::string detail);

}  // namespace tesmod::fields
