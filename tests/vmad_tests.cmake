# Tests of the vmad area.
target_sources(tesmod_tests PRIVATE
)
