# Unit tests of patching (Bash Tags, LOOT metadata, leveled lists, the patch).
target_sources(tesmod_tests PRIVATE
  unit/patch_lists_test.cpp
  unit/bash_tags_test.cpp
)
