// Writes a file atomically: everything goes to a temporary file beside the target, which is
// flushed to disk and renamed over the target only when complete. On failure or when the
// writer is destroyed without commit(), the temporary file is removed and the target is
// untouched.
#pragma once

#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "tesmod/io/byte_sink.hpp"

namespace tesmod {

class AtomicFile final : public ByteSink {
 public:
  explicit AtomicFile(std::filesystem::path target);
  ~AtomicFile() override;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(std::span<const std::uint8_t> bytes) override;
  std::uint64_t position() const override { return written_ + buffered_; }
  // Replaces bytes already written (e.g. a size known only later); offset + size must not pass
  // position().
  void overwrite(std::uint64_t offset, std::span<const std::uint8_t> bytes);
  // Everything written so far, read back from the temporary file.
  std::vector<std::uint8_t> read_back();
  // Flushes, syncs and renames over the target. Throws tesmod::Error on any failure.
  void commit();

 private:
  void flush();
  std::filesystem::path target_;
  std::filesystem::path temp_;
  int fd_ = -1;
  std::unique_ptr<std::uint8_t[]> buffer_;  // made on the first write it serves (not zeroed)
  std::size_t buffered_ = 0;
  std::uint64_t written_ = 0;
};

// Convenience: writes bytes to path atomically.
void write_file_atomic(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);

}  // namespace tesmod
