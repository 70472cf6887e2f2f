// A four-character code: record types, subrecord types, group labels of top-level groups.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>

namespace tesmod {

class Signature {
 public:
  constexpr Signature() = default;
  // From a string literal such as "NPC_".
  constexpr Signature(const char (&s)[5])  // NOLINT(google-explicit-constructor)
      : value_(std::uint32_t(std::uint8_t(s[0])) | std::uint32_t(std::uint8_t(s[1])) << 8 |
               std::uint32_t(std::uint8_t(s[2])) << 16 | std::uint32_t(std::uint8_t(s[3])) << 24) {}

  static constexpr Signature from_value(std::uint32_t v) {
    Signature s;
    s.value_ = v;
    return s;
  }
  static Signature from_bytes(const std::uint8_t* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return from_value(v);
  }
  // Parses exactly four characters; returns false otherwise.
  static bool parse(std::string_view text, Signature& out);

  constexpr std::uint32_t value() const { return value_; }
  constexpr char at(int i) const { return char((value_ >> (8 * i)) & 0xFF); }

  // The four characters, with non-printable bytes escaped as \xNN.
  std::string str() const;
  // True when every character is A-Z, 0-9 or '_' (what record types are made of).
  bool is_record_type_like() const;

  friend constexpr bool operator==(Signature a, Signature b) { return a.value_ == b.value_; }
  friend constexpr bool operator<(Signature a, Signature b) { return a.str_order() < b.str_order(); }

 private:
  // Byte-swapped so that comparison sorts alphabetically.
  constexpr std::uint32_t str_order() const {
    return (value_ & 0xFF) << 24 | (value_ & 0xFF00) << 8 | (value_ >> 8 & 0xFF00) | value_ >> 24;
  }
  std::uint32_t value_ = 0;
};

}  // namespace tesmod

template <>
struct std::hash<tesmod::Signature> {
  std::size_t operator()(tesmod::Signature s) const noexcept { return std::hash<std::uint32_t>{}(s.value()); }
};
