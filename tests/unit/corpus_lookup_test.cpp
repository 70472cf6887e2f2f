// How corpus tests find the corpus: a TESMOD_CORPUS that names no directory fails the test (a
// mistake to report), it is never a skip.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "test_support.hpp"

namespace {

// Sets TESMOD_CORPUS for its lifetime, then puts the old value back.
class CorpusEnv {
 public:
  explicit CorpusEnv(const std::string& value) {
    if (const char* old = std::getenv("TESMOD_CORPUS")) old_ = old;
    ::setenv("TESMOD_CORPUS", value.c_str(), 1);
  }
  ~CorpusEnv() {
    if (old_) ::setenv("TESMOD_CORPUS", old_->c_str(), 1);
    else ::unsetenv("TESMOD_CORPUS");
  }

 private:
  std::optional<std::string> old_;
};

void requires_corpus() { TESMOD_REQUIRE_CORPUS(); }

}  // namespace

TEST(CorpusLookup, NamedButMissingCorpusFailsInsteadOfSkipping) {
  const tesmod::test::TempDir dir;
  const CorpusEnv env((dir / "no-such-corpus").string());
  EXPECT_TRUE(tesmod::test::corpus_named_but_missing());
  EXPECT_TRUE(tesmod::test::corpus_dir().empty());
  EXPECT_FATAL_FAILURE(requires_corpus(), "not a directory");
}

TEST(CorpusLookup, AnExistingDirectoryIsTheCorpus) {
  const tesmod::test::TempDir dir;
  const CorpusEnv env(dir.path().string());
  EXPECT_FALSE(tesmod::test::corpus_named_but_missing());
  EXPECT_EQ(tesmod::test::corpus_dir(), dir.path());
}
