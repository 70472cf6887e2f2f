# Sources of the vmad area.
target_sources(tesmod PRIVATE
  fields/vmad.cpp
  fields/vmad_decode.cpp
  fields/vmad_encode.cpp
  fields/vmad_edit.cpp
  fields/vmad_plugin.cpp
  text/vmad_text.cpp
  text/vmad_block.cpp
)
