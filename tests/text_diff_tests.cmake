# Tests of tesmod diff and the line diff under it (and git diff through tesmod export --stdout).
target_sources(tesmod_tests PRIVATE
  cli/diff_cli_test.cpp
  unit/line_diff_test.cpp
)
