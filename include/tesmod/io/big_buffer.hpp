// An allocator for large arrays that are filled right after allocation (the plugin index):
// blocks of 2 MiB and more come from mmap with transparent huge pages requested, which cuts
// page faults ~500-fold, and elements are default-initialized, not zeroed first.
#pragma once

#include <cstddef>
#include <new>
#include <utility>

namespace tesmod {

void* big_allocate(std::size_t bytes);
void big_deallocate(void* p, std::size_t bytes) noexcept;

template <class T>
struct BigAllocator {
  using value_type = T;
  BigAllocator() = default;
  template <class U>
  BigAllocator(const BigAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor)

  T* allocate(std::size_t n) { return static_cast<T*>(big_allocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { big_deallocate(p, n * sizeof(T)); }

  // Default-initialize instead of value-initialize: resize() leaves trivial elements as they are.
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  friend bool operator==(const BigAllocator&, const BigAllocator&) { return true; }
};

}  // namespace tesmod
