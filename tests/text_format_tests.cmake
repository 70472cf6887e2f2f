# Tests of the editable text area.
target_sources(tesmod_tests PRIVATE
  unit/field_text_test.cpp
  unit/text_syntax_test.cpp
)
