# Sources of the light-plugin area: which plugins can be flagged ESL (esl check), FormID
# compaction into the light range with every dependant and loose file (esl compact).
target_sources(tesmod PRIVATE
  light/loose_files.cpp
  light/compact_plan.cpp
  light/compact_write.cpp
  light/reference_rewrite.cpp
  light/interior_cells.cpp
  light/esl_check.cpp
)
