# Sources of the load-order area: plugins.txt and friends, the order per game, FormIDs across
# the load order, record equality, conflicts and checks.
target_sources(tesmod PRIVATE
  loadorder/plugin_list.cpp
  loadorder/order_rules.cpp
  loadorder/load_order.cpp
  loadorder/record_type_table.cpp
  loadorder/record_equality.cpp
  loadorder/resolved_record.cpp
  loadorder/conflicts.cpp
  loadorder/load_order_check.cpp
)
