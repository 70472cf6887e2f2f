# Tests of the editable text area.
target_sources(tesmod_tests PRIVATE
  unit/text_syntax_test.cpp
)
