#include "tesmod/io/file_bytes.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "tesmod/error.hpp"

namespace tesmod {

std::shared_ptr<const FileBytes> FileBytes::map(const std::filesystem::path& path, PageIn page_in) {
  const std::string name = path.string();
  auto fail = [&](const std::string& what) -> void {
    throw Error(name, Error::kNoOffset, std::nullopt, what + ": " + std::strerror(errno));
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    fail("cannot stat");
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw Error(name, Error::kNoOffset, std::nullopt, "not a regular file");
  }
  std::shared_ptr<FileBytes> out(new FileBytes());
  out->name_ = name;
  out->size_ = std::size_t(st.st_size);
  if (out->size_ == 0) {
    ::close(fd);
    static const std::uint8_t kEmpty = 0;
    out->data_ = &kEmpty;
    return out;
  }
  // MAP_POPULATE sets up the page tables in one go: far cheaper than faulting the pages in
  // one by one during a walk of the whole file, and the file is read from the page cache either way.
  const int populate = page_in == PageIn::All ? MAP_POPULATE : 0;
  void* p = ::mmap(nullptr, out->size_, PROT_READ, MAP_PRIVATE | populate, fd, 0);
  int saved = errno;
  ::close(fd);
  if (p == MAP_FAILED) {
    errno = saved;
    fail("cannot map");
  }
  out->data_ = static_cast<const std::uint8_t*>(p);
  out->mapped_ = true;
  return out;
}

std::shared_ptr<const FileBytes> FileBytes::hold(std::vector<std::uint8_t> bytes, std::string name) {
  std::shared_ptr<FileBytes> out(new FileBytes());
  out->owned_ = std::move(bytes);
  out->name_ = std::move(name);
  static const std::uint8_t kEmpty = 0;
  out->data_ = out->owned_.empty() ? &kEmpty : out->owned_.data();
  out->size_ = out->owned_.size();
  return out;
}

FileBytes::~FileBytes() {
  if (mapped_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
}

}  // namespace tesmod
