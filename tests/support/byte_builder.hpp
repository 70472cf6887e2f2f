// Little-endian bytes built by hand for unit tests, independent of the encoders under test.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace tesmod::test {

struct ByteBuilder {
  std::vector<std::uint8_t> b;
  ByteBuilder& u8(std::uint8_t v) {
    b.push_back(v);
    return *this;
  }
  ByteBuilder& u16(std::uint16_t v) { return u8(std::uint8_t(v)).u8(std::uint8_t(v >> 8)); }
  ByteBuilder& i16(std::int16_t v) { return u16(std::uint16_t(v)); }
  ByteBuilder& u32(std::uint32_t v) { return u16(std::uint16_t(v)).u16(std::uint16_t(v >> 16)); }
  ByteBuilder& i32(std::int32_t v) { return u32(std::uint32_t(v)); }
  ByteBuilder& f32(float f) {
    std::uint32_t v;
    std::memcpy(&v, &f, 4);
    return u32(v);
  }
  // Characters without a terminator or length.
  ByteBuilder& chars(std::string_view s) {
    b.insert(b.end(), s.begin(), s.end());
    return *this;
  }
  // A zero-terminated string.
  ByteBuilder& z(std::string_view s) { return chars(s).u8(0); }
  // A string with a u16 length before it (Papyrus wstring).
  ByteBuilder& ws(std::string_view s) { return u16(std::uint16_t(s.size())).chars(s); }
  ByteBuilder& raw(const std::vector<std::uint8_t>& v) {
    b.insert(b.end(), v.begin(), v.end());
    return *this;
  }
  std::size_t size() const { return b.size(); }
};

}  // namespace tesmod::test
