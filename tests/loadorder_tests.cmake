# Tests of the load-order area.
target_sources(tesmod_tests PRIVATE
  support/plugin_maker.cpp
  unit/plugin_list_test.cpp
  unit/load_order_test.cpp
  unit/load_order_check_test.cpp
  unit/conflicts_test.cpp
  unit/conflicts_html_test.cpp
  corpus/load_order_corpus_test.cpp
  cli/load_order_cli_test.cpp
  unit/clean_test.cpp
  unit/oblivion_remastered_test.cpp
)
# The order rules are tested apart from files too (a private header of the library).
target_include_directories(tesmod_tests PRIVATE ${PROJECT_SOURCE_DIR}/src/loadorder)
