// How many worker threads a requested count means: 0 asks for one per core.
#pragma once

#include <thread>

namespace tesmod {

inline unsigned thread_count(unsigned requested) {
  if (requested) return requested;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores ? cores : 1;
}

}  // namespace tesmod
