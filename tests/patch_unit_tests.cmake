# Unit tests of patching (Bash Tags, LOOT metadata, leveled lists, the patch).
target_sources(tesmod_tests PRIVATE
  unit/patch_field_imports_test.cpp
  unit/patch_list_imports_test.cpp
  unit/patch_plugin_test.cpp
  unit/loot_metadata_test.cpp
  unit/patch_lists_test.cpp
  unit/bash_tags_test.cpp
  cli/patch_cli_test.cpp
)
# The import table is tested apart from plans (a private header of the library).
target_include_directories(tesmod_tests PRIVATE ${PROJECT_SOURCE_DIR}/src/patch)
# GCC 12 reports a false -Wmaybe-uninitialized inside std::regex's std::function at -O1 with the
# sanitizers (the test's stand-in for the Data folder matches file names with std::regex).
set_source_files_properties(unit/loot_metadata_test.cpp PROPERTIES COMPILE_OPTIONS -Wno-maybe-uninitialized)
