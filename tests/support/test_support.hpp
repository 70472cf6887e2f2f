// Shared helpers for the tests: where the corpus is, temporary folders, running the CLI.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tesmod/error.hpp"

namespace tesmod::test {

// $TESMOD_CORPUS, else ../shared/corpus beside the source tree; empty when neither exists.
std::filesystem::path corpus_dir();
// True when CI=true: a missing corpus is then a failure, not a skip.
bool in_ci();
// Every plugin (.esp/.esm/.esl) in the corpus, sorted.
std::vector<std::filesystem::path> corpus_plugins();

// TESMOD_CORPUS is set but names no directory: a mistake to report, not a reason to skip.
bool corpus_named_but_missing();

// Skips (or, in CI, fails) the current test when the corpus is not there; fails when
// TESMOD_CORPUS names a directory that does not exist.
#define TESMOD_REQUIRE_CORPUS()                                                          \
  do {                                                                                   \
    if (::tesmod::test::corpus_named_but_missing())                                      \
      FAIL() << "TESMOD_CORPUS is set but is not a directory: " << std::getenv("TESMOD_CORPUS"); \
    if (::tesmod::test::corpus_dir().empty()) {                                          \
      if (::tesmod::test::in_ci()) FAIL() << "corpus not found and CI=true";             \
      GTEST_SKIP() << "corpus not found: set TESMOD_CORPUS or place it at ../shared/corpus"; \
    }                                                                                    \
  } while (0)

// A fresh directory removed at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};
// Runs the tesmod CLI built beside the tests with these arguments (no shell involved).
CommandResult run_cli(const std::vector<std::string>& args);

// What f throws as tesmod::Error (its message), or "" when it does not throw.
template <class F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::vector<std::uint8_t> read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes);

// A Skyrim plugin with one MISC record, its form version, HEDR version and header flags chosen:
// the inputs that tell Skyrim LE from SE.
std::vector<std::uint8_t> tiny_skyrim(std::uint16_t form_version, float hedr, std::uint32_t header_flags = 0);

}  // namespace tesmod::test
