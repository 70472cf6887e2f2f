#include "tesmod/plugin/field.hpp"

#include "tesmod/io/little_endian.hpp"

namespace tesmod {

Field Field::from_view(const SubrecordView& view) {
  // Fields over 65535 bytes always get an XXXX prefix and a zero small size; only a prefix
  // that is not implied by the size, or an unusual small size, has to be remembered.
  const bool implied = view.data.size() > 0xFFFF && view.stored_size == 0;
  const bool keep = view.oversize && !implied;
  return Field{view.type, std::vector<std::uint8_t>(view.data.begin(), view.data.end()), keep,
               keep ? view.stored_size : std::uint16_t{0}};
}

Field Field::bytes(Signature type, std::span<const std::uint8_t> data) {
  return Field{type, std::vector<std::uint8_t>(data.begin(), data.end())};
}

Field Field::zstring(Signature type, std::string_view text) {
  Field f{type, std::vector<std::uint8_t>(text.begin(), text.end())};
  f.data.push_back(0);
  return f;
}

Field Field::u32(Signature type, std::uint32_t value) {
  Field f{type, std::vector<std::uint8_t>(4)};
  le::store(f.data.data(), value);
  return f;
}

std::string Field::as_zstring() const {
  std::size_t n = data.size();
  while (n > 0 && data[n - 1] == 0) --n;
  return std::string(reinterpret_cast<const char*>(data.data()), n);
}

namespace {
bool needs_prefix(const Field& f) { return f.oversize || f.data.size() > 0xFFFF; }
}  // namespace

std::vector<SubrecordView> field_views(std::span<const Field> fields) {
  std::vector<SubrecordView> views;
  views.reserve(fields.size());
  for (const Field& f : fields) views.push_back(SubrecordView{f.type, f.data, 0, f.oversize, f.stored_size});
  return views;
}

std::size_t encoded_size(std::span<const Field> fields) {
  std::size_t n = 0;
  for (const Field& f : fields) n += (needs_prefix(f) ? 10 : 0) + 6 + f.data.size();
  return n;
}

void encode_fields(std::span<const Field> fields, std::vector<std::uint8_t>& out) {
  std::size_t at = out.size();
  out.resize(at + encoded_size(fields));
  std::uint8_t* p = out.data() + at;
  for (const Field& f : fields) {
    std::uint16_t small = std::uint16_t(f.data.size());
    if (needs_prefix(f)) {
      le::store(p, kOversizeSignature.value());
      le::store(p + 4, std::uint16_t{4});
      le::store(p + 6, std::uint32_t(f.data.size()));
      p += 10;
      small = f.stored_size;
    }
    le::store(p, f.type.value());
    le::store(p + 4, small);
    if (!f.data.empty()) std::memcpy(p + 6, f.data.data(), f.data.size());
    p += 6 + f.data.size();
  }
}

}  // namespace tesmod
