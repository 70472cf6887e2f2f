# Debian 12's libdeflate-dev ships neither a CMake package nor (without pkg-config) a way to
# find it, so locate the header and library directly and expose an imported target.
# Installed with the tesmod package too: a static libtesmod needs it in the consumer's link.
if(NOT TARGET libdeflate::libdeflate)
  find_path(LIBDEFLATE_INCLUDE_DIR libdeflate.h REQUIRED)
  find_library(LIBDEFLATE_LIBRARY NAMES deflate REQUIRED)
  add_library(libdeflate::libdeflate UNKNOWN IMPORTED)
  set_target_properties(libdeflate::libdeflate PROPERTIES
    IMPORTED_LOCATION "${LIBDEFLATE_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LIBDEFLATE_INCLUDE_DIR}")
endif()
