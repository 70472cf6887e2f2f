# Sources of the package area.
target_sources(tesmod PRIVATE
)
