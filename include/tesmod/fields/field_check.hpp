// The outcome of a deep check over one kind of field in a plugin (decode then encode, or
// bytes -> text -> bytes): how many were checked, how many came back identical, and where the
// others first differ. `tesmod verify --deep` reports one per kind.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tesmod/error.hpp"

namespace tesmod::fields {

struct FieldFailure {
  RecordRef record;
  std::uint64_t offset = Error::kNoOffset;  // file offset of the field (or the differing byte) when known
  std::string message;                      // what differed, or the decode error
};

struct FieldCheck {
  std::uint64_t total = 0;
  std::uint64_t identical = 0;
  std::vector<FieldFailure> failures;
};

}  // namespace tesmod::fields
