# Sources of the editable text area: plugins as text folders, export, import, diff.
target_sources(tesmod PRIVATE
  text/text_syntax.cpp
)
