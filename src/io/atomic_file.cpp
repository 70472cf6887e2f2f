#include "tesmod/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <algorithm>
#include <cstring>

#include "tesmod/error.hpp"

namespace tesmod {
namespace {

constexpr std::size_t kBufferSize = 1 << 20;

[[noreturn]] void fail_errno(const std::filesystem::path& path, const std::string& what) {
  throw Error(path.string(), Error::kNoOffset, std::nullopt, what + ": " + std::strerror(errno));
}

// write(2) until everything is written (it may write less, or be interrupted).
void write_all(int fd, const std::uint8_t* p, std::size_t n, const std::filesystem::path& path) {
  while (n > 0) {
    const ssize_t done = ::write(fd, p, n);
    if (done < 0) {
      if (errno == EINTR) continue;
      fail_errno(path, "cannot write");
    }
    p += done;
    n -= std::size_t(done);
  }
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
  std::filesystem::path dir = target_.parent_path();
  if (dir.empty()) dir = ".";
  std::string name = ".";
  name.append(target_.filename().string()).append(".tmp-XXXXXX");
  std::string pattern = (dir / name).string();
  fd_ = ::mkstemp(pattern.data());
  if (fd_ < 0) fail_errno(target_, "cannot create a temporary file beside the output");
  temp_ = pattern;
  // Keep the permissions an existing target has; new files get the usual 0644 (minus umask).
  struct stat st {};
  mode_t mode = 0644;
  if (::stat(target_.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode &= ~mask;
  }
  ::fchmod(fd_, mode);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temp_.c_str());
  }
}

void AtomicFile::write(std::span<const std::uint8_t> bytes) {
  if (fd_ < 0) throw Error(target_.string(), Error::kNoOffset, std::nullopt, "write after commit");
  // Small writes are gathered in the buffer; a large one (or one that finds the buffer full) goes
  // straight to the file, so a file written whole never needs the buffer.
  if (bytes.size() > kBufferSize - buffered_ || (buffered_ == 0 && bytes.size() >= kBufferSize / 16)) {
    flush();
    if (bytes.size() >= kBufferSize / 16) {
      write_all(fd_, bytes.data(), bytes.size(), temp_);
      written_ += bytes.size();
      return;
    }
  }
  if (!buffer_) buffer_ = std::make_unique_for_overwrite<std::uint8_t[]>(kBufferSize);
  std::memcpy(buffer_.get() + buffered_, bytes.data(), bytes.size());
  buffered_ += bytes.size();
}

void AtomicFile::flush() {
  if (buffered_ == 0) return;
  write_all(fd_, buffer_.get(), buffered_, temp_);
  written_ += buffered_;
  buffered_ = 0;
}

void AtomicFile::overwrite(std::uint64_t offset, std::span<const std::uint8_t> bytes) {
  if (fd_ < 0) throw Error(target_.string(), Error::kNoOffset, std::nullopt, "write after commit");
  if (offset + bytes.size() > position())
    throw Error(target_.string(), Error::kNoOffset, std::nullopt, "overwrite past what was written");
  // Bytes still in the buffer are changed there; the rest in the file.
  std::size_t n = bytes.size();
  const std::uint8_t* p = bytes.data();
  if (offset < written_) {
    const std::size_t in_file = std::size_t(std::min<std::uint64_t>(n, written_ - offset));
    std::size_t done = 0;
    while (done < in_file) {
      const ssize_t r = ::pwrite(fd_, p + done, in_file - done, off_t(offset + done));
      if (r < 0) {
        if (errno == EINTR) continue;
        fail_errno(temp_, "cannot write");
      }
      done += std::size_t(r);
    }
    p += in_file;
    n -= in_file;
    offset += in_file;
  }
  if (n) std::memcpy(buffer_.get() + (offset - written_), p, n);
}

std::vector<std::uint8_t> AtomicFile::read_back() {
  flush();
  std::vector<std::uint8_t> out(written_);
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t r = ::pread(fd_, out.data() + done, out.size() - done, off_t(done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) fail_errno(temp_, "cannot read back");
    done += std::size_t(r);
  }
  return out;
}

void AtomicFile::commit() {
  flush();
  if (::fsync(fd_) != 0) fail_errno(temp_, "cannot sync");
  if (::close(fd_) != 0) {
    fd_ = -1;
    ::unlink(temp_.c_str());
    fail_errno(temp_, "cannot close");
  }
  fd_ = -1;
  if (::rename(temp_.c_str(), target_.c_str()) != 0) {
    int saved = errno;
    ::unlink(temp_.c_str());
    errno = saved;
    fail_errno(target_, "cannot rename the temporary file over the output");
  }
}

void write_file_atomic(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  AtomicFile file(path);
  file.write(bytes);
  file.commit();
}

}  // namespace tesmod
