#include "tesmod/io/base64.hpp"

#include <array>

namespace tesmod {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> make_values() {
  std::array<std::int8_t, 256> v{};
  for (auto& x : v) x = -1;
  for (int i = 0; i < 64; ++i) v[static_cast<unsigned char>(kAlphabet[i])] = std::int8_t(i);
  return v;
}
constexpr auto kValues = make_values();

}  // namespace

void append_base64(std::string& out, std::span<const std::uint8_t> data) {
  const std::size_t start = out.size();
  out.resize(start + (data.size() + 2) / 3 * 4);
  char* p = out.data() + start;
  std::size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    const std::uint32_t n = std::uint32_t(data[i]) << 16 | std::uint32_t(data[i + 1]) << 8 | data[i + 2];
    *p++ = kAlphabet[n >> 18];
    *p++ = kAlphabet[(n >> 12) & 63];
    *p++ = kAlphabet[(n >> 6) & 63];
    *p++ = kAlphabet[n & 63];
  }
  if (const std::size_t left = data.size() - i) {
    const std::uint32_t n = std::uint32_t(data[i]) << 16 | (left == 2 ? std::uint32_t(data[i + 1]) << 8 : 0);
    *p++ = kAlphabet[n >> 18];
    *p++ = kAlphabet[(n >> 12) & 63];
    *p++ = left == 2 ? kAlphabet[(n >> 6) & 63] : '=';
    *p++ = '=';
  }
}

std::optional<std::vector<std::uint8_t>> decode_base64(std::string_view text) {
  if (text.size() % 4) return std::nullopt;
  std::vector<std::uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = text[i + std::size_t(k)];
      if (c == '=' && last && k >= 2) {
        v[k] = 0;
        ++pad;
        continue;
      }
      if (pad) return std::nullopt;  // data after padding
      v[k] = kValues[static_cast<unsigned char>(c)];
      if (v[k] < 0) return std::nullopt;
    }
    const std::uint32_t n = std::uint32_t(v[0]) << 18 | std::uint32_t(v[1]) << 12 | std::uint32_t(v[2]) << 6 | std::uint32_t(v[3]);
    out.push_back(std::uint8_t(n >> 16));
    if (pad < 2) out.push_back(std::uint8_t(n >> 8));
    if (pad < 1) out.push_back(std::uint8_t(n));
    // Padding must not hide set bits (one canonical text per byte string).
    if ((pad == 1 && (n & 0xFF)) || (pad == 2 && (n & 0xFFFF))) return std::nullopt;
  }
  return out;
}

}  // namespace tesmod
