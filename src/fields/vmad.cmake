# Sources of the vmad area.
target_sources(tesmod PRIVATE
)
