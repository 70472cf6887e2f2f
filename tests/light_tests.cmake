# Tests of the light-plugin area (esl check, esl compact, loose files).
target_sources(tesmod_tests PRIVATE
)
