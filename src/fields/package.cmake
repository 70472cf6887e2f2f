# Sources of the package area.
target_sources(tesmod PRIVATE
  fields/package.cpp
  fields/package_check.cpp
  fields/package_decode.cpp
  fields/package_encode.cpp
  fields/package_oblivion.cpp
  text/package_block.cpp
  text/package_block_oblivion.cpp
  text/package_block_skyrim.cpp
  text/package_text.cpp
)
