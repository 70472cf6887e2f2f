// Subrecords (fields) inside a record body: `type[4] u16 size data[size]`, where an `XXXX`
// field of size 4 carries the u32 size of the next field (whose own u16 size is then 0).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod {

inline constexpr Signature kOversizeSignature{"XXXX"};

struct SubrecordView {
  Signature type;
  std::span<const std::uint8_t> data;
  std::uint32_t offset = 0;        // of the field's header in the body (of its XXXX when oversize)
  bool oversize = false;           // preceded by an XXXX size field
  std::uint16_t stored_size = 0;   // the u16 size as stored (for oversize fields, normally 0)
};

// Walks the subrecords of a record body. next() raises tesmod::Error (naming the record through
// context) when the fields do not tile the body exactly.
class SubrecordCursor {
 public:
  // body_offset: file offset of body[0] for errors, or Error::kNoOffset when the body was
  // inflated (then errors give the position within the inflated data).
  // start: where in the body to begin (a field boundary).
  SubrecordCursor(std::span<const std::uint8_t> body, const ErrorContext& context,
                  std::uint64_t body_offset = Error::kNoOffset, std::uint32_t start = 0)
      : body_(body), context_(context), body_offset_(body_offset), pos_(start) {}

  // Fills out and returns true, or returns false at the end of the body.
  bool next(SubrecordView& out);

 private:
  [[noreturn]] void fail(std::uint32_t at, const std::string& detail) const;
  std::span<const std::uint8_t> body_;
  const ErrorContext& context_;
  std::uint64_t body_offset_;
  std::uint32_t pos_;
};

// All subrecords of a body.
std::vector<SubrecordView> read_subrecords(std::span<const std::uint8_t> body, const ErrorContext& context,
                                           std::uint64_t body_offset = Error::kNoOffset);

// Counts fields and XXXX prefixes and checks that they tile the body, without building views.
struct SubrecordCount {
  std::uint64_t fields = 0;
  std::uint64_t oversize = 0;
};
SubrecordCount count_subrecords(std::span<const std::uint8_t> body, const ErrorContext& context,
                                std::uint64_t body_offset = Error::kNoOffset);

// The EditorID (EDID data, as stored, without its terminator) if the body has one; never
// throws: a malformed body simply has none.
std::optional<std::string> find_editor_id(std::span<const std::uint8_t> body);

}  // namespace tesmod
