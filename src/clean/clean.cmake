# Sources of cleaning: ITMs removed and deleted references undeleted, against a plugin's masters.
target_sources(tesmod PRIVATE
  clean/clean_plan.cpp
  clean/clean_apply.cpp
  clean/clean_masters.cpp
  clean/udr_edit.cpp
  clean/master_records.cpp
  clean/clean_all.cpp
)
