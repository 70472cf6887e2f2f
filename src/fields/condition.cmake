# Sources of the condition area.
target_sources(tesmod PRIVATE
)
