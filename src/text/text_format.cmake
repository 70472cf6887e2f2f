# Sources of the editable text area: plugins as text folders, export, import, diff.
target_sources(tesmod PRIVATE
  text/esl_check_text.cpp
  text/field_text.cpp
  text/conflict_text.cpp
  text/conflict_report.cpp
  text/conflicts_json.cpp
  text/check_json.cpp
  text/patch_report.cpp
  text/json_string.cpp
  text/folder_format.cpp
  text/folder_names.cpp
  text/line_diff.cpp
  text/plugin_diff.cpp
  text/plugin_export.cpp
  text/plugin_import.cpp
  text/plugin_text_namer.cpp
  text/record_text_check.cpp
  text/record_text_common.cpp
  text/record_text_reader.cpp
  text/record_text_writer.cpp
  text/text_check.cpp
  text/text_namer.cpp
  text/text_syntax.cpp
)
# The conflicts page (tesmod conflicts --html): its shell is an HTML file of its own, embedded
# as a string at build time.
target_sources(tesmod PRIVATE text/conflicts_html.cpp)
set(tesmod_conflicts_page ${CMAKE_CURRENT_SOURCE_DIR}/text/conflicts_page.html)
set(tesmod_conflicts_page_cpp ${CMAKE_CURRENT_BINARY_DIR}/conflicts_page_asset.cpp)
add_custom_command(OUTPUT ${tesmod_conflicts_page_cpp}
  COMMAND ${CMAKE_COMMAND} -DINPUT=${tesmod_conflicts_page} -DOUTPUT=${tesmod_conflicts_page_cpp}
          -DNAME=kConflictsPage -DHEADER=${CMAKE_CURRENT_SOURCE_DIR}/text/conflicts_page_asset.hpp
          -P ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake
  DEPENDS ${tesmod_conflicts_page} ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake
  COMMENT "Embedding the conflicts page")
target_sources(tesmod PRIVATE ${tesmod_conflicts_page_cpp})
