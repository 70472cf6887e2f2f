// One change record of a save: what the game changed about one form since it was loaded from
// the plugins. `u32 formId, u8 type, u32 flags, u8 version, u16 dataSize, data[dataSize]`; the
// flags say which sub-blocks the data holds, in an order fixed per type.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod::save {

inline constexpr std::size_t kChangeRecordHeaderSize = 12;
inline constexpr std::size_t kMaxChangeRecordData = 0xFFFF;  // dataSize is a u16

class ChangeRecord {
 public:
  ChangeRecord() = default;
  // A record read from a file: data views the file's bytes, which must outlive the record.
  ChangeRecord(std::uint32_t form_id, std::uint8_t type, std::uint32_t flags, std::uint8_t version,
               std::span<const std::uint8_t> data, std::uint64_t offset)
      : form_id(form_id), type(type), flags(flags), version(version), offset(offset), stored_(data) {}

  std::uint32_t form_id = 0;  // a real FormID, never an iref
  std::uint8_t type = 0;      // form type code (change_type.hpp)
  std::uint32_t flags = 0;
  std::uint8_t version = 0;
  std::uint64_t offset = 0;   // of the header in the file it was read from

  std::span<const std::uint8_t> data() const { return edited_ ? std::span<const std::uint8_t>(owned_) : stored_; }
  // File offset of data()[0], or Error::kNoOffset once the data was replaced.
  std::uint64_t data_offset() const { return edited_ ? Error::kNoOffset : offset + kChangeRecordHeaderSize; }
  bool edited() const { return edited_; }
  // Replaces the data. Throws tesmod::Error (naming file and record) when it exceeds the u16 size.
  void set_data(std::vector<std::uint8_t> data, const std::string& file);

  Signature type_signature() const;
  // For errors: the record type and FormID.
  RecordRef ref() const;

 private:
  std::span<const std::uint8_t> stored_;
  std::vector<std::uint8_t> owned_;
  bool edited_ = false;
};

}  // namespace tesmod::save
