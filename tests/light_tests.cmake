# Tests of the light-plugin area (esl check, esl compact, loose files).
target_sources(tesmod_tests PRIVATE
  unit/esl_compact_test.cpp
  cli/esl_compact_cli_test.cpp
  corpus/esl_compact_corpus_test.cpp
  unit/loose_files_test.cpp
  unit/esl_check_test.cpp
  cli/esl_cli_test.cpp
)

# esl compact on load orders made by ../shared/bench/make_load_order.py, judged by conflicts and
# check over the compacted order and a byte comparison of every file written.
add_test(NAME generated_compact
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/light/generated_compact_test.py
          $<TARGET_FILE:tesmod_cli> ${PROJECT_SOURCE_DIR}/../shared/bench ${CMAKE_CURRENT_BINARY_DIR}/generated_compact)
set_tests_properties(generated_compact PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
