// An owned, editable subrecord, and how a list of them becomes a record body again.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/plugin/signature.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace tesmod {

struct Field {
  Signature type;
  std::vector<std::uint8_t> data;
  // Written with an XXXX size prefix. Set when read that way; fields over 65535 bytes get one
  // regardless. stored_size is the u16 written after the prefix (0 in files made by the tools).
  bool oversize = false;
  std::uint16_t stored_size = 0;

  static Field from_view(const SubrecordView& view);
  static Field bytes(Signature type, std::span<const std::uint8_t> data);
  // A zero-terminated string field; text is stored as given (already in the file's code page).
  static Field zstring(Signature type, std::string_view text);
  static Field u32(Signature type, std::uint32_t value);

  // The data as a string without trailing zeros.
  std::string as_zstring() const;

  friend bool operator==(const Field&, const Field&) = default;
};

// Bytes the fields take when written.
std::size_t encoded_size(std::span<const Field> fields);
// Views of the fields, for the decoders that read SubrecordViews (valid while fields are).
std::vector<SubrecordView> field_views(std::span<const Field> fields);
// Appends the fields, as they are stored, to out.
void encode_fields(std::span<const Field> fields, std::vector<std::uint8_t>& out);

}  // namespace tesmod
