# Tests of the save area.
target_sources(tesmod_tests PRIVATE
  unit/save_actor_change_test.cpp
  unit/save_file_test.cpp
  unit/sample_save_test.cpp
  corpus/save_corpus_test.cpp
  cli/save_cli_test.cpp
  cli/save_damage_cli_test.cpp
)
