#include "tesmod/io/zlib_codec.hpp"

#include <fmt/format.h>
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <new>

#include "tesmod/io/counted.hpp"

namespace tesmod {

// Deflate's best ratio is 1032:1 (258-byte matches coded in ~2 bits); a little slack covers
// stream headers.
std::uint64_t max_inflated_size(std::size_t stream_size) { return std::uint64_t(stream_size) * 1032 + 1024; }

Inflater::Inflater() : d_(libdeflate_alloc_decompressor()) {
  if (!d_) throw std::bad_alloc();
}

Inflater::~Inflater() { libdeflate_free_decompressor(d_); }

std::span<const std::uint8_t> Inflater::inflate(std::span<const std::uint8_t> stream, std::uint32_t expected_size,
                                                const ErrorContext& context) {
  if (expected_size > max_inflated_size(stream.size())) {
    context.fail(fmt::format("compressed record declares {} inflated bytes, more than {} bytes of zlib data can hold",
                             expected_size, stream.size()));
  }
  if (buffer_.size() < expected_size) buffer_.resize(expected_size);
  std::size_t in_used = 0, out_size = 0;
  libdeflate_result r = libdeflate_zlib_decompress_ex(d_, stream.data(), stream.size(), buffer_.data(), expected_size,
                                                      &in_used, &out_size);
  switch (r) {
    case LIBDEFLATE_SUCCESS:
      if (out_size != expected_size) {
        context.fail(fmt::format("zlib data inflates to {}, expected {} (the size stored before it)", counted(out_size, "byte"),
                                 expected_size));
      }
      break;
    case LIBDEFLATE_SHORT_OUTPUT:
      context.fail(fmt::format("zlib data inflates to fewer bytes than the {} stored before it", expected_size));
    case LIBDEFLATE_INSUFFICIENT_SPACE:
      context.fail(fmt::format("zlib data inflates to more than the {} bytes stored before it", expected_size));
    default:
      context.fail(fmt::format("bad zlib data ({}): expected a valid zlib stream", counted(stream.size(), "byte")));
  }
  return {buffer_.data(), expected_size};
}

Deflater::Deflater(int level) : c_(libdeflate_alloc_compressor(level)) {
  if (!c_) throw std::bad_alloc();
}

Deflater::~Deflater() { libdeflate_free_compressor(c_); }

std::vector<std::uint8_t> Deflater::deflate(std::span<const std::uint8_t> data) {
  std::vector<std::uint8_t> out(libdeflate_zlib_compress_bound(c_, data.size()));
  std::size_t n = libdeflate_zlib_compress(c_, data.data(), data.size(), out.data(), out.size());
  if (n == 0) throw std::bad_alloc();  // cannot happen with a bound-sized buffer
  out.resize(n);
  return out;
}

PrefixInflater::PrefixInflater(std::span<const std::uint8_t> stream) : z_(std::make_unique<z_stream_s>()) {
  *z_ = z_stream_s{};
  if (inflateInit(z_.get()) != Z_OK) return;
  open_ = true;
  z_->next_in = const_cast<Bytef*>(stream.data());
  z_->avail_in = uInt(std::min<std::size_t>(stream.size(), ~uInt{0}));
}

PrefixInflater::~PrefixInflater() {
  if (open_) inflateEnd(z_.get());
}

std::span<const std::uint8_t> PrefixInflater::first(std::size_t n) {
  if (open_ && produced_ < n) {
    out_.resize(n);
    z_->next_out = out_.data() + produced_;
    z_->avail_out = uInt(n - produced_);
    const int rc = ::inflate(z_.get(), Z_SYNC_FLUSH);
    produced_ = n - z_->avail_out;
    // Anything but "more output is possible" ends the stream: its end, bad data, or no input left.
    if (rc != Z_OK || z_->avail_out != 0) {
      inflateEnd(z_.get());
      open_ = false;
    }
  }
  return {out_.data(), std::min(n, produced_)};
}

}  // namespace tesmod
