// Errors carry where they happened: the file, the byte offset, the record (when known) and
// what the reader expected to find there.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "tesmod/plugin/signature.hpp"

namespace tesmod {

// The record an error is about. editor_id is empty when unknown.
struct RecordRef {
  Signature type;
  std::uint32_t form_id = 0;
  std::string editor_id;
};

class Error : public std::runtime_error {
 public:
  // offset: byte offset in the file, or kNoOffset when the error is not about a position.
  Error(std::string file, std::uint64_t offset, std::optional<RecordRef> record, std::string detail);

  static constexpr std::uint64_t kNoOffset = ~std::uint64_t{0};

  const std::string& file() const { return file_; }
  std::uint64_t offset() const { return offset_; }
  const std::optional<RecordRef>& record() const { return record_; }
  const std::string& detail() const { return detail_; }

 private:
  std::string file_;
  std::uint64_t offset_;
  std::optional<RecordRef> record_;
  std::string detail_;
};

// Where in a file a reader is, so that the errors it raises can name it.
struct ErrorContext {
  std::string file;
  std::uint64_t offset = Error::kNoOffset;
  std::optional<RecordRef> record;

  [[noreturn]] void fail(std::string detail) const;
  [[noreturn]] void fail_at(std::uint64_t at, std::string detail) const;
};

// Formats a record reference as `NPC_ 00012345 'EditorID'`.
std::string describe(const RecordRef& record);

}  // namespace tesmod
