// Where serialized bytes go: memory, a file, or a comparison against an original.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace tesmod {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual void write(std::span<const std::uint8_t> bytes) = 0;
  // Bytes written so far.
  virtual std::uint64_t position() const = 0;
};

// Collects everything into a vector.
class MemorySink final : public ByteSink {
 public:
  explicit MemorySink(std::size_t reserve = 0) { bytes_.reserve(reserve); }
  void write(std::span<const std::uint8_t> bytes) override { bytes_.insert(bytes_.end(), bytes.begin(), bytes.end()); }
  std::uint64_t position() const override { return bytes_.size(); }
  std::vector<std::uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<std::uint8_t> bytes_;
};

// Compares what is written against an expected byte sequence and remembers the first
// difference, without keeping a copy of the output.
class CompareSink final : public ByteSink {
 public:
  explicit CompareSink(std::span<const std::uint8_t> expected) : expected_(expected) {}
  void write(std::span<const std::uint8_t> bytes) override;
  std::uint64_t position() const override { return pos_; }
  // True when everything written so far matches and the lengths are equal.
  bool identical() const { return !differs_ && pos_ == expected_.size(); }
  // Offset of the first difference (the shorter length when one is a prefix of the other).
  std::uint64_t first_difference() const;

 private:
  std::span<const std::uint8_t> expected_;
  std::uint64_t pos_ = 0;
  bool differs_ = false;
  std::uint64_t diff_at_ = 0;
};

}  // namespace tesmod
