# Tests of the package area.
target_sources(tesmod_tests PRIVATE
  unit/package_block_test.cpp
  unit/package_test.cpp
  corpus/package_block_corpus_test.cpp
  corpus/package_corpus_test.cpp
  cli/package_cli_test.cpp
)
