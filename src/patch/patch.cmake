# Sources of patching: the Bashed Patch (leveled lists merged, fields imported by Bash Tags),
# Bash Tags and LOOT's metadata.
target_sources(tesmod PRIVATE
  patch/bash_tags.cpp
  patch/loot_metadata.cpp
  patch/leveled_list.cpp
  patch/list_merge_wryebash.cpp
  patch/list_merge_threeway.cpp
  patch/tag_imports.cpp
  patch/import_state.cpp
  patch/field_imports.cpp
  patch/field_import_table.cpp
  patch/field_import_values.cpp
  patch/list_imports.cpp
  patch/list_import_entries.cpp
  patch/patch_plan.cpp
  patch/patch_write.cpp
  patch/delocalize.cpp
  patch/patch_plugin.cpp
)
