# Tests of the condition area.
target_sources(tesmod_tests PRIVATE
  unit/condition_test.cpp
  unit/condition_text_test.cpp
  corpus/condition_corpus_test.cpp
  cli/conditions_cli_test.cpp
)
