# `cmake --install`: the library, its public headers, a CMake package (find_package(tesmod) ->
# tesmod::tesmod) and tesmod.pc for pkg-config. The CLI installs itself (tools/tesmod).
include(CMakePackageConfigHelpers)
set(TESMOD_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tesmod)

install(TARGETS tesmod EXPORT tesmodTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tesmod DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT tesmodTargets NAMESPACE tesmod:: DESTINATION ${TESMOD_CMAKE_DIR})

# A static libtesmod carries its private dependencies into the consumer's link.
get_target_property(TESMOD_LIBRARY_TYPE tesmod TYPE)
if(TESMOD_LIBRARY_TYPE STREQUAL "STATIC_LIBRARY")
  set(TESMOD_STATIC ON)
else()
  set(TESMOD_STATIC OFF)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tesmodConfig.cmake.in
  ${PROJECT_BINARY_DIR}/tesmodConfig.cmake INSTALL_DESTINATION ${TESMOD_CMAKE_DIR})
# 0.x: only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tesmodConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tesmodConfig.cmake ${PROJECT_BINARY_DIR}/tesmodConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/FindLibdeflate.cmake DESTINATION ${TESMOD_CMAKE_DIR})

# pkg-config: prefix is found from the .pc file's own place, so the install can be moved.
file(RELATIVE_PATH TESMOD_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
set(TESMOD_PC_PUBLIC "fmt nlohmann_json")
set(TESMOD_PC_OWN "libdeflate zlib libpng yaml-cpp re2")
if(TESMOD_STATIC)
  # A static libtesmod cannot be linked without its own dependencies, and most callers (meson,
  # autotools, build scripts, people) run pkg-config without --static: so they are public here.
  set(TESMOD_PC_REQUIRES "${TESMOD_PC_PUBLIC} ${TESMOD_PC_OWN}")
  set(TESMOD_PC_REQUIRES_PRIVATE "")
  set(TESMOD_PC_LIBS "-ltesmod -pthread")
  set(TESMOD_PC_LIBS_PRIVATE "")
else()
  # libtesmod.so brings its own dependencies; a consumer's link names them only with --static.
  set(TESMOD_PC_REQUIRES "${TESMOD_PC_PUBLIC}")
  set(TESMOD_PC_REQUIRES_PRIVATE "${TESMOD_PC_OWN}")
  set(TESMOD_PC_LIBS "-ltesmod")
  set(TESMOD_PC_LIBS_PRIVATE "-pthread")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/tesmod.pc.in ${PROJECT_BINARY_DIR}/tesmod.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tesmod.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
