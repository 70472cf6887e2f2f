#include "tesmod/io/big_buffer.hpp"

#include <sys/mman.h>

#include <cstdlib>

namespace tesmod {
namespace {
constexpr std::size_t kHuge = std::size_t{2} << 20;
}

void* big_allocate(std::size_t bytes) {
  if (bytes < kHuge) {
    void* p = std::malloc(bytes ? bytes : 1);
    if (!p) throw std::bad_alloc();
    return p;
  }
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  ::madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

void big_deallocate(void* p, std::size_t bytes) noexcept {
  if (!p) return;
  if (bytes < kHuge) std::free(p);
  else ::munmap(p, bytes);
}

}  // namespace tesmod
