# Tests of the vmad area.
target_sources(tesmod_tests PRIVATE
  unit/vmad_test.cpp
  unit/vmad_block_test.cpp
  corpus/vmad_corpus_test.cpp
  corpus/vmad_block_corpus_test.cpp
  cli/vmad_cli_test.cpp
)
