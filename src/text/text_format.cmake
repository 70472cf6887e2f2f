# Sources of the editable text area: plugins as text folders, export, import, diff.
target_sources(tesmod PRIVATE
  text/esl_check_text.cpp
  text/field_text.cpp
  text/conflict_text.cpp
  text/conflicts_json.cpp
  text/check_json.cpp
  text/patch_report.cpp
  text/json_string.cpp
  text/folder_format.cpp
  text/folder_names.cpp
  text/line_diff.cpp
  text/plugin_diff.cpp
  text/plugin_export.cpp
  text/plugin_import.cpp
  text/plugin_text_namer.cpp
  text/record_text_check.cpp
  text/record_text_common.cpp
  text/record_text_reader.cpp
  text/record_text_writer.cpp
  text/text_check.cpp
  text/text_namer.cpp
  text/text_syntax.cpp
)
