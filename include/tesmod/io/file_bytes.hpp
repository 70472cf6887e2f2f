// The read-only bytes of an input file: memory-mapped (zero-copy, nothing read up front) or
// held in memory. Shared, so that views into it stay valid while anyone holds it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tesmod {

class FileBytes {
 public:
  // Maps the file read-only. Throws tesmod::Error naming the file when it cannot be opened.
  static std::shared_ptr<const FileBytes> map(const std::filesystem::path& path);
  // Holds bytes already in memory; name is used in error messages.
  static std::shared_ptr<const FileBytes> hold(std::vector<std::uint8_t> bytes, std::string name);

  ~FileBytes();
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;

  std::span<const std::uint8_t> span() const { return {data_, size_}; }
  const std::uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  const std::string& name() const { return name_; }

 private:
  FileBytes() = default;
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
  std::vector<std::uint8_t> owned_;
  std::string name_;
};

}  // namespace tesmod
