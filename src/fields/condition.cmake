# Sources of the condition area.
target_sources(tesmod PRIVATE
  fields/condition.cpp
  fields/condition_check.cpp
  fields/condition_functions.cpp
  plugin/form_names.cpp
  text/condition_text.cpp
)
