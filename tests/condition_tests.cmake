# Tests of the condition area.
target_sources(tesmod_tests PRIVATE
)
