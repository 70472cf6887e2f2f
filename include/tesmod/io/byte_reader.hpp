// A bounds-checked little-endian cursor over a byte span. Every read that would run past the
// end raises a tesmod::Error naming the file, the absolute offset and what was being read.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "tesmod/error.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod {

class ByteReader {
 public:
  // base_offset: the file offset of data[0], for error messages.
  ByteReader(std::span<const std::uint8_t> data, ErrorContext context, std::uint64_t base_offset = 0)
      : data_(data), context_(std::move(context)), base_(base_offset) {}

  std::size_t position() const { return pos_; }
  std::size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }
  std::uint64_t file_offset() const { return base_ + pos_; }

  std::uint8_t u8(std::string_view what) { return *need(1, what); }
  std::uint16_t u16(std::string_view what) { return le::u16(need(2, what)); }
  std::uint32_t u32(std::string_view what) { return le::u32(need(4, what)); }
  std::int32_t i32(std::string_view what) { return le::i32(need(4, what)); }
  std::uint64_t u64(std::string_view what) { return le::load<std::uint64_t>(need(8, what)); }
  float f32(std::string_view what) { return le::f32(need(4, what)); }
  std::span<const std::uint8_t> bytes(std::size_t n, std::string_view what) { return {need(n, what), n}; }
  void skip(std::size_t n, std::string_view what) { need(n, what); }

  [[noreturn]] void fail(std::string detail) const { context_.fail_at(file_offset(), std::move(detail)); }
  const ErrorContext& context() const { return context_; }

 private:
  const std::uint8_t* need(std::size_t n, std::string_view what) {
    if (n > data_.size() - pos_) fail_short(n, what);
    const std::uint8_t* p = data_.data() + pos_;
    pos_ += n;
    return p;
  }
  [[noreturn]] void fail_short(std::size_t n, std::string_view what) const;

  std::span<const std::uint8_t> data_;
  ErrorContext context_;
  std::uint64_t base_;
  std::size_t pos_ = 0;
};

}  // namespace tesmod
