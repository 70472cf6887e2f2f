# Tests of the save area.
target_sources(tesmod_tests PRIVATE
)
