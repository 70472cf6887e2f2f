# Tests of the package area.
target_sources(tesmod_tests PRIVATE
)
