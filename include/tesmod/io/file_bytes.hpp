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

// How much of a mapped file is paged in up front: all of it (for work that reads every page: one
// call is far cheaper than a fault per page), or pages on first touch (for work that reads little).
enum class PageIn { All, OnUse };

class FileBytes {
 public:
  // Maps the file read-only. Throws tesmod::Error naming the file when it cannot be opened.
  static std::shared_ptr<const FileBytes> map(const std::filesystem::path& path, PageIn page_in = PageIn::All);
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
