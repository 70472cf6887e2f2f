# Sources of the editable text area: plugins as text folders, export, import, diff.
target_sources(tesmod PRIVATE
  text/field_layout.cpp
  text/field_text.cpp
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

# The field layout tables, embedded as string literals (re-read when they change).
set(_layouts_inc "${CMAKE_CURRENT_BINARY_DIR}/generated/layouts_data.inc")
set(_layouts_content "")
foreach(_game tes4 tes5)
  set(_file "${CMAKE_CURRENT_SOURCE_DIR}/text/layouts/${_game}.layouts")
  set(_text "")
  if(EXISTS "${_file}")
    file(READ "${_file}" _text)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_file}")
  endif()
  string(TOUPPER "${_game}" _upper)
  string(SUBSTRING "${_upper}" 0 1 _first)
  string(SUBSTRING "${_game}" 1 -1 _rest)
  string(APPEND _layouts_content "constexpr std::string_view k${_first}${_rest}Layouts = R\"tesmod_layouts(${_text})tesmod_layouts\";\n")
endforeach()
file(CONFIGURE OUTPUT "${_layouts_inc}" CONTENT "${_layouts_content}" @ONLY)
target_include_directories(tesmod PRIVATE "${CMAKE_CURRENT_BINARY_DIR}/generated")
