# Field layouts: how each field of each record type reads as named values (src/fields/layouts),
# used by the text layer to show fields and by the load-order checks to find FormIDs.
target_sources(tesmod PRIVATE
  fields/field_layout.cpp
  fields/field_layout_parser.cpp
  fields/field_value.cpp
  fields/form_references.cpp
  fields/record_check.cpp
  fields/record_structure.cpp
)

# The field layout tables, embedded as string literals (re-read when they change).
set(_layouts_inc "${CMAKE_CURRENT_BINARY_DIR}/generated/layouts_data.inc")
set(_layouts_content "")
foreach(_game tes4 tes5)
  set(_file "${CMAKE_CURRENT_SOURCE_DIR}/fields/layouts/${_game}.layouts")
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
