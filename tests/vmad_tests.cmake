# Tests of the vmad area.
target_sources(tesmod_tests PRIVATE
  unit/vmad_test.cpp
  corpus/vmad_corpus_test.cpp
  cli/vmad_cli_test.cpp
)
