# `tesmod patch` against Wrye Bash's own Bashed Patch (Leveled Lists, Relev/Delev): the load orders are
# made again by ../shared/bench's generators with the arguments stored in patch/oracle/*.oracle.json
# (and patch/shared_examples.json for ../shared/tools/wb_oracle/examples), then compared list by list
# by ../shared/tools/check_patch.py. Wrye Bash is not needed; see patch/README.md.
add_test(NAME wryebash_oracle
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/patch/wryebash_oracle_test.py
          $<TARGET_FILE:tesmod_cli> ${PROJECT_SOURCE_DIR}/../shared ${CMAKE_CURRENT_BINARY_DIR}/wryebash_oracle)
set_tests_properties(wryebash_oracle PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
