// What a fuzz target does when its oracle does not hold: names the check on stderr, then aborts,
// so that libFuzzer keeps the input and the log says which property broke.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace tesmod::fuzz {

[[noreturn]] inline void oracle_failed(const char* check, const char* file, int line) {
  std::fprintf(stderr, "\n%s:%d: oracle failed: %s\n", file, line, check);
  std::abort();
}

}  // namespace tesmod::fuzz

#define TESMOD_FUZZ_CHECK(condition) \
  ((condition) ? void() : ::tesmod::fuzz::oracle_failed(#condition, __FILE__, __LINE__))
