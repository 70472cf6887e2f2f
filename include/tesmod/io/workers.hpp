// Work spread over threads: each worker (the caller's thread is one) claims indices of the work
// one at a time until none is left. An exception stops the workers at their next claim; once all
// have stopped, run_workers throws the one from the lowest index. Claims go up one by one, so every
// index below a failing one has been run by then: the error reported is the same on every run
// and thread count (the first bad file of a folder, not whichever a thread reached first).
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
  std::size_t failed_at = count;
  auto worker = [&] {
    std::size_t current = count;
    auto claim = [&] { return current = std::min(next.fetch_add(1), count); };
    try {
      work(claim);
    } catch (...) {
      std::lock_guard guard(lock);
      if (!failure || current < failed_at) {
        failure = std::current_exception();
        failed_at = current;
      }
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
