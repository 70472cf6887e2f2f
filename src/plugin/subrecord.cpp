#include "tesmod/plugin/subrecord.hpp"

#include <fmt/format.h>

#include "tesmod/io/counted.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod {

void SubrecordCursor::fail(std::uint32_t at, const std::string& detail) const {
  if (body_offset_ != Error::kNoOffset) context_.fail_at(body_offset_ + at, detail);
  context_.fail(fmt::format("{} (at byte {} of the inflated data)", detail, at));
}

bool SubrecordCursor::next(SubrecordView& out) {
  const std::size_t n = body_.size();
  if (pos_ == n) return false;
  const std::uint8_t* p = body_.data();
  const std::uint32_t start = pos_;
  if (n - pos_ < 6) {
    fail(pos_, fmt::format("{} left at the end of the record; expected a 6-byte subrecord header", counted(n - pos_, "byte")));
  }
  Signature type = Signature::from_bytes(p + pos_);
  std::uint32_t size = le::u16(p + pos_ + 4);
  bool oversize = false;
  std::uint16_t stored = std::uint16_t(size);
  if (type == kOversizeSignature) {
    if (size != 4) fail(pos_, fmt::format("XXXX subrecord of size {}; expected size 4", size));
    if (n - pos_ < 10) fail(pos_, "XXXX subrecord runs past the end of the record");
    const std::uint32_t big = le::u32(p + pos_ + 6);
    pos_ += 10;
    if (n - pos_ < 6) fail(pos_, "XXXX subrecord at the end of the record; expected the field it gives the size of");
    type = Signature::from_bytes(p + pos_);
    if (type == kOversizeSignature) fail(pos_, "XXXX subrecord followed by another XXXX; expected a field");
    stored = le::u16(p + pos_ + 4);
    size = big;
    oversize = true;
  }
  const std::uint32_t data_at = pos_ + 6;
  if (size > n - data_at) {
    fail(pos_, fmt::format("subrecord {} of size {} runs past the end of the record ({} left)", type.str(), size,
                           counted(n - data_at, "byte")));
  }
  out.type = type;
  out.data = body_.subspan(data_at, size);
  out.offset = start;
  out.oversize = oversize;
  out.stored_size = stored;
  pos_ = data_at + size;
  return true;
}

std::vector<SubrecordView> read_subrecords(std::span<const std::uint8_t> body, const ErrorContext& context,
                                           std::uint64_t body_offset) {
  std::vector<SubrecordView> out;
  SubrecordCursor cursor(body, context, body_offset);
  SubrecordView v;
  while (cursor.next(v)) out.push_back(v);
  return out;
}

SubrecordCount count_subrecords(std::span<const std::uint8_t> body, const ErrorContext& context,
                                std::uint64_t body_offset) {
  SubrecordCount count;
  const std::uint8_t* p = body.data();
  const std::size_t n = body.size();
  std::size_t pos = 0;
  // The common case (no XXXX) stays in this tight loop; anything unusual goes to the cursor,
  // which produces the precise error.
  while (n - pos >= 6) {
    const std::uint32_t type = le::u32(p + pos);
    if (type == kOversizeSignature.value()) break;
    const std::size_t next = pos + 6 + le::u16(p + pos + 4);
    if (next > n) break;
    pos = next;
    ++count.fields;
  }
  if (pos == n) return count;
  SubrecordCursor cursor(body, context, body_offset, std::uint32_t(pos));
  SubrecordView v;
  while (cursor.next(v)) {
    ++count.fields;
    if (v.oversize) ++count.oversize;
  }
  return count;
}

std::optional<std::string> find_editor_id(std::span<const std::uint8_t> body) {
  const std::uint8_t* p = body.data();
  const std::size_t n = body.size();
  std::size_t pos = 0;
  std::uint32_t big = 0;
  bool have_big = false;
  while (n - pos >= 6) {
    const Signature type = Signature::from_bytes(p + pos);
    std::size_t size = le::u16(p + pos + 4);
    if (have_big) {
      size = big;
      have_big = false;
    }
    if (size > n - pos - 6) return std::nullopt;
    if (type == kOversizeSignature && size == 4) {
      big = le::u32(p + pos + 6);
      have_big = true;
    } else if (type == Signature("EDID")) {
      const auto* s = reinterpret_cast<const char*>(p + pos + 6);
      while (size > 0 && s[size - 1] == 0) --size;
      return std::string(s, size);
    }
    pos += 6 + size;
  }
  return std::nullopt;
}

}  // namespace tesmod
