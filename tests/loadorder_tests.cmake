# Tests of the load-order area.
target_sources(tesmod_tests PRIVATE
  support/plugin_maker.cpp
  unit/plugin_list_test.cpp
  unit/load_order_test.cpp
  unit/load_order_check_test.cpp
  unit/conflicts_test.cpp
  corpus/load_order_corpus_test.cpp
  cli/load_order_cli_test.cpp
)
