# cmake -DINPUT=FILE -DOUTPUT=FILE.cpp -DNAME=kName -DHEADER=header.hpp -P embed_text.cmake
# Writes a C++ source defining tesmod::text::assets::NAME as the file's text (a raw string
# literal), only when it changed, so that a page's styles and script stay a real file to edit.
file(READ "${INPUT}" content)
string(FIND "${content}" ")tesmod_embed\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} holds the raw string's end marker")
endif()
get_filename_component(input_name "${INPUT}" NAME)
set(text "// Generated from ${input_name} by cmake/embed_text.cmake: edit that file, not this one.
#include \"${HEADER}\"

namespace tesmod::text::assets {

const std::string_view ${NAME} = R\"tesmod_embed(${content})tesmod_embed\";

}  // namespace tesmod::text::assets
")
file(WRITE "${OUTPUT}.tmp" "${text}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
