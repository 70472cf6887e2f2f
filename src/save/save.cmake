# Sources of the save area.
target_sources(tesmod PRIVATE
  save/actor_change.cpp
  save/actor_editor.cpp
  save/actor_names.cpp
  save/change_record.cpp
  save/change_type.cpp
  save/form_id_array.cpp
  save/save_check.cpp
  save/save_names.cpp
  save/save_reader.cpp
  save/save_writer.cpp
  save/screenshot.cpp
  text/save_text.cpp
)
