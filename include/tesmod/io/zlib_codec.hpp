// zlib streams as used in compressed records: inflate and deflate with libdeflate (whole-buffer,
// fast), plus a prefix inflater with zlib for reading just the first bytes of a record.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "tesmod/error.hpp"

struct libdeflate_decompressor;
struct libdeflate_compressor;
struct z_stream_s;

namespace tesmod {

// Reusable inflater; not thread-safe, use one per thread.
class Inflater {
 public:
  Inflater();
  ~Inflater();
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  // Inflates a zlib stream that must produce exactly expected_size bytes. The result is valid
  // until the next call. context names the record in errors.
  std::span<const std::uint8_t> inflate(std::span<const std::uint8_t> stream, std::uint32_t expected_size,
                                        const ErrorContext& context);

 private:
  libdeflate_decompressor* d_;
  std::vector<std::uint8_t> buffer_;
};

// Largest output a deflate stream of n bytes can produce (about 1032:1), used to refuse
// absurd declared sizes before allocating.
std::uint64_t max_inflated_size(std::size_t stream_size);

class Deflater {
 public:
  explicit Deflater(int level = 6);
  ~Deflater();
  Deflater(const Deflater&) = delete;
  Deflater& operator=(const Deflater&) = delete;
  // A complete zlib stream (header, deflate data, Adler-32).
  std::vector<std::uint8_t> deflate(std::span<const std::uint8_t> data);

 private:
  libdeflate_compressor* c_;
};

// Inflates the start of a zlib stream, and further on each call (zlib's streaming API): enough to
// read a record's first fields without inflating all of it. Never throws for bad data: a short
// or broken stream gives fewer bytes. The stream's bytes must outlive the inflater.
class PrefixInflater {
 public:
  explicit PrefixInflater(std::span<const std::uint8_t> stream);
  ~PrefixInflater();
  PrefixInflater(const PrefixInflater&) = delete;
  PrefixInflater& operator=(const PrefixInflater&) = delete;

  // The first n bytes of the output (fewer when the stream ends or breaks sooner), inflating
  // only what earlier calls have not. Valid until the next call.
  std::span<const std::uint8_t> first(std::size_t n);

 private:
  std::unique_ptr<z_stream_s> z_;
  bool open_ = false;  // more output can come
  std::vector<std::uint8_t> out_;
  std::size_t produced_ = 0;
};

}  // namespace tesmod
