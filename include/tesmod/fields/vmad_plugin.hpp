// The VMAD fields of a plugin file: walking them in file order, and the deep check that decodes
// and re-encodes every one (`tesmod verify --deep`, checks.vmad).
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "tesmod/error.hpp"
#include "tesmod/fields/field_check.hpp"
#include "tesmod/plugin/plugin_file.hpp"

namespace tesmod::fields {

// One VMAD field as stored. data is valid only during the callback (it may point into an
// inflated record body).
struct VmadField {
  const IndexEntry* entry = nullptr;
  ErrorContext where;  // the file and the record (type, FormID, EditorID); offset: the record's
  std::span<const std::uint8_t> data;
  std::uint64_t data_offset = Error::kNoOffset;  // file offset of data[0]; kNoOffset when inflated
};

// Calls visit for every VMAD field of every record, in file order (Oblivion plugins have none).
// When only is given, visits just the record at that index entry. Malformed record bodies
// raise tesmod::Error.
void for_each_vmad(const PluginFile& file, const std::function<void(const VmadField&)>& visit,
                   const IndexEntry* only = nullptr);

// Decodes and re-encodes every VMAD of the plugin and compares the bytes. A failure names the
// record and the offset of the first differing byte (or of the decode error).
FieldCheck check_vmad(const PluginFile& file);

}  // namespace tesmod::fields
