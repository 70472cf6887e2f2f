#include "tesmod/io/byte_sink.hpp"

#include <algorithm>
#include <cstring>

namespace tesmod {

void CompareSink::write(std::span<const std::uint8_t> bytes) {
  if (!differs_) {
    const std::uint64_t avail = pos_ < expected_.size() ? expected_.size() - pos_ : 0;
    const std::size_t n = std::size_t(std::min<std::uint64_t>(avail, bytes.size()));
    if (std::memcmp(bytes.data(), expected_.data() + pos_, n) != 0) {
      auto mismatch = std::mismatch(bytes.begin(), bytes.begin() + std::ptrdiff_t(n), expected_.begin() + std::ptrdiff_t(pos_));
      differs_ = true;
      diff_at_ = pos_ + std::uint64_t(mismatch.first - bytes.begin());
    } else if (n < bytes.size()) {
      differs_ = true;  // output runs past the expected end
      diff_at_ = expected_.size();
    }
  }
  pos_ += bytes.size();
}

std::uint64_t CompareSink::first_difference() const {
  if (differs_) return diff_at_;
  return std::min<std::uint64_t>(pos_, expected_.size());
}

}  // namespace tesmod
