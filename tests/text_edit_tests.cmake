# Tests of editing plugins as text: `tesmod import` on bad text and what import and export leave
# behind (GoogleTest), and edits made in exported text checked against the original plugin with
# the independent reader ../shared/tools/inspect_plugin.py (Python, one ctest per kind of edit).
target_sources(tesmod_tests PRIVATE
  cli/text_cli_test.cpp
)

set(_edit_kinds
  string number flag formid_reference condition vmad_property vmad_add_script package_schedule
  oblivion_script add_record delete_record move_record roundtrip_every_corpus_plugin)
foreach(kind ${_edit_kinds})
  add_test(NAME text_edit.${kind}
    COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/text/edit_test.py
            --cli $<TARGET_FILE:tesmod_cli>
            --corpus ${PROJECT_SOURCE_DIR}/../shared/corpus
            --tools ${PROJECT_SOURCE_DIR}/../shared/tools
            EditTest.test_${kind})
  # Exit code 77: no corpus (a skip; with CI=true the script fails instead).
  set_tests_properties(text_edit.${kind} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
