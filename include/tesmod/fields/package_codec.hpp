// PACK record fields <-> fields::Package. decode_package reads the fields section by section and
// checks sizes, counts and order; encode_package writes them back in the same order, so an
// unedited package gives the record's bytes back exactly.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/fields/package.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/field.hpp"
#include "tesmod/plugin/plugin_file.hpp"

namespace tesmod::fields {

// Where a record's fields are, so that errors can point at them: the offset of each field's
// header (of its XXXX prefix when it has one) and, last, of the end of the body. Offsets are in
// the file, or, for a compressed record, in its inflated body. Empty when unknown: errors then
// name the field by its index.
struct FieldLocations {
  std::vector<std::uint64_t> offsets;  // fields.size() + 1 entries, or none
  bool inflated = false;
};

// Decodes the fields of one PACK record (Skyrim). Raises tesmod::Error, naming the file, the
// offset of the offending field, the record (from where) and what was expected, for a field of
// the wrong size, a count that disagrees with its list (CITC, IDLC), a string without its
// terminator, a field out of its section's order, or a required field that is missing (PKDT,
// PSDT, PKCU, XNAM; CITC in a branch; BNAM and PNAM after a procedure-data UNAM).
Package decode_package(std::span<const Field> fields, const ErrorContext& where, const FieldLocations& locations = {});

// The fields again, in the order decode_package reads them; unknown fields at their indices.
std::vector<Field> encode_package(const Package& package);

// The fields of a record of a plugin with their locations, read for decode_package.
struct RecordFields {
  std::vector<Field> fields;
  FieldLocations locations;
  ErrorContext where;
};
RecordFields read_record_fields(const PluginFile& file, const IndexEntry& entry, Inflater& inflater);

// read_record_fields + decode_package.
Package read_package(const PluginFile& file, const IndexEntry& entry, Inflater& inflater);

}  // namespace tesmod::fields
