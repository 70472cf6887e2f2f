# Tests of the editable text area.
target_sources(tesmod_tests PRIVATE
  corpus/text_corpus_test.cpp
  unit/field_text_test.cpp
  unit/layout_language_test.cpp
  unit/record_text_test.cpp
  unit/text_namer_test.cpp
  unit/text_syntax_test.cpp
)
