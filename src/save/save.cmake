# Sources of the save area.
target_sources(tesmod PRIVATE
)
