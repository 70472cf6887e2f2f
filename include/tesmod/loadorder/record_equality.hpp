// When two plugins' versions of a record are the same record, as xEdit decides it: the same
// record type, the same record flags apart from Compressed, and the same fields once inflated
// (an XXXX size prefix or a compressed body is storage, not content). The header's version-control
// fields and form version are ignored. FormIDs in fields are compared by the forms they name:
// two plugins whose master lists differ store one form under different file indices, so where
// their FormID maps differ the fields are compared with every FormID (fields/form_references.hpp)
// resolved through its own plugin's masters. Byte-identical fields are unequal only when one of
// their FormIDs has a file index, valid in both plugins and a master's in at least one, that
// names another plugin in each; both plugins' own index, and an index past either's list (which
// only damaged or made-up data holds), are compared as bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/plugin/field.hpp"

namespace tesmod::loadorder {

// A version read for comparing: its header, its stored bytes and, read on first use, its fields
// (a compressed body inflated then). Move-only: the fields view the mapped file or the record's
// own inflated copy.
class LoadedRecord {
 public:
  LoadedRecord() = default;
  LoadedRecord(LoadedRecord&&) noexcept = default;  // a moved vector keeps its buffer: the views stay valid
  LoadedRecord& operator=(LoadedRecord&&) noexcept = default;
  LoadedRecord(const LoadedRecord&) = delete;
  LoadedRecord& operator=(const LoadedRecord&) = delete;

  std::uint32_t plugin = 0;
  Signature type;
  std::uint32_t flags = 0;    // header flags, Compressed included as stored
  std::uint32_t form_id = 0;  // as the plugin stores it
  std::span<const std::uint8_t> stored;  // the record's data as stored

  // The record's data, inflated when compressed (on the first call). Throws tesmod::Error naming
  // the file, offset and record when it does not inflate.
  std::span<const std::uint8_t> fields() const;
  // The EditorID (EDID, as stored), empty when there is none.
  std::string editor_id() const;

 private:
  friend class RecordComparer;
  const PluginBytes* bytes_ = nullptr;
  IndexEntry entry_{};
  Inflater* inflater_ = nullptr;
  mutable bool read_ = false;
  mutable std::span<const std::uint8_t> fields_;
  mutable std::vector<std::uint8_t> inflated_;
};

class RecordComparer {
 public:
  explicit RecordComparer(const LoadOrder& order);

  // A version, ready to compare; a compressed body is inflated (with inflater, which must outlive
  // the record) only when its stored bytes do not already settle the comparison.
  LoadedRecord load(const RecordVersion& version, Inflater& inflater) const;

  bool equal(const LoadedRecord& a, const LoadedRecord& b) const;

  // Whether FormIDs stored by the two plugins name the same forms under the same file indices:
  // every index that names a master in either names the same plugin in both (then equal field
  // bytes mean equal records, and unequal bytes unequal ones).
  bool same_form_ids(std::uint32_t plugin_a, std::uint32_t plugin_b) const;

 private:
  // A record's fields with every FormID zeroed, and the forms they named, in order.
  struct Resolved {
    std::vector<Field> fields;
    std::vector<std::uint64_t> forms;
  };
  Resolved resolve(const LoadedRecord& r) const;
  // Whether a FormID in r's fields names another plugin when read with plugin_b's masters.
  bool names_differ(const LoadedRecord& r, std::uint32_t plugin_b) const;

  const LoadOrder& order_;
  std::vector<std::vector<std::int64_t>> file_maps_;  // per plugin: file index -> position (-1: missing)
};

}  // namespace tesmod::loadorder
