#include "tesmod/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "tesmod/error.hpp"

namespace tesmod {
namespace {

constexpr std::size_t kBufferSize = 1 << 20;

[[noreturn]] void fail_errno(const std::filesystem::path& path, const std::string& what) {
  throw Error(path.string(), Error::kNoOffset, std::nullopt, what + ": " + std::strerror(errno));
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
  buffer_.resize(kBufferSize);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temp_.c_str());
  }
}

void AtomicFile::write(std::span<const std::uint8_t> bytes) {
  if (fd_ < 0) throw Error(target_.string(), Error::kNoOffset, std::nullopt, "write after commit");
  if (bytes.size() > buffer_.size() - buffered_) {
    flush();
    if (bytes.size() >= buffer_.size()) {
      const std::uint8_t* p = bytes.data();
      std::size_t left = bytes.size();
      while (left > 0) {
        ssize_t n = ::write(fd_, p, left);
        if (n < 0) {
          if (errno == EINTR) continue;
          fail_errno(temp_, "cannot write");
        }
        p += n;
        left -= std::size_t(n);
        written_ += std::uint64_t(n);
      }
      return;
    }
  }
  std::memcpy(buffer_.data() + buffered_, bytes.data(), bytes.size());
  buffered_ += bytes.size();
}

void AtomicFile::flush() {
  const std::uint8_t* p = buffer_.data();
  std::size_t left = buffered_;
  while (left > 0) {
    ssize_t n = ::write(fd_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_errno(temp_, "cannot write");
    }
    p += n;
    left -= std::size_t(n);
    written_ += std::uint64_t(n);
  }
  buffered_ = 0;
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
