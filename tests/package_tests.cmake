# Tests of the package area.
target_sources(tesmod_tests PRIVATE
  unit/package_test.cpp
  corpus/package_corpus_test.cpp
  cli/package_cli_test.cpp
)
