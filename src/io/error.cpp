#include "tesmod/error.hpp"

#include <fmt/format.h>

namespace tesmod {
namespace {

std::string compose(const std::string& file, std::uint64_t offset, const std::optional<RecordRef>& record,
                    const std::string& detail) {
  std::string out = file;
  if (offset != Error::kNoOffset) out += fmt::format(": offset 0x{:X} ({})", offset, offset);
  if (record) out += ": " + describe(*record);
  out += ": " + detail;
  return out;
}

}  // namespace

Error::Error(std::string file, std::uint64_t offset, std::optional<RecordRef> record, std::string detail)
    : std::runtime_error(compose(file, offset, record, detail)),
      file_(std::move(file)),
      offset_(offset),
      record_(std::move(record)),
      detail_(std::move(detail)) {}

void ErrorContext::fail(std::string detail) const { throw Error(file, offset, record, std::move(detail)); }

void ErrorContext::fail_at(std::uint64_t at, std::string detail) const {
  throw Error(file, at, record, std::move(detail));
}

std::string describe(const RecordRef& record) {
  std::string out = fmt::format("record {} [{:08X}]", record.type.str(), record.form_id);
  if (!record.editor_id.empty()) {
    // EditorIDs are plain ASCII in practice; anything else is escaped so messages stay readable.
    out += " '";
    for (unsigned char c : record.editor_id) {
      if (c >= 0x20 && c < 0x7F) out += char(c);
      else out += fmt::format("\\x{:02X}", c);
    }
    out += "'";
  }
  return out;
}

}  // namespace tesmod
