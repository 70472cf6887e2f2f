// Work spread over threads: each worker (the caller's thread is one) claims indices of the work
// one at a time until none is left. The first exception a worker throws stops the others at
// their next claim and is thrown again by run_workers once all have stopped.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tesmod {

// work(claim) runs on up to `threads` threads; claim() returns the next index in [0, count), or
// count when there is none left. A worker keeps its own state (an inflater, a buffer) across
// the indices it claims.
template <class Work>
void run_workers(std::size_t count, unsigned threads, Work work) {
  std::atomic<std::size_t> next{0};
  std::mutex lock;
  std::exception_ptr failure;
  auto claim = [&] { return std::min(next.fetch_add(1), count); };
  auto worker = [&] {
    try {
      work(claim);
    } catch (...) {
      std::lock_guard guard(lock);
      if (!failure) failure = std::current_exception();
      next = count;
    }
  };
  {
    std::vector<std::jthread> pool;
    for (std::size_t t = 1; t < std::min<std::size_t>(threads, count); ++t) pool.emplace_back(worker);
    worker();
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace tesmod
