#include "tag_imports.hpp"

#include "import_state.hpp"
#include "tag_import_parts.hpp"

namespace tesmod::patch {

void plan_imports(const loadorder::LoadOrder& order, PatchPlan& plan, const FormTypeLookup& type_of) {
  ImportState state(order, plan, type_of);
  import_fields(state);
  import_entry_lists(state);
}

}  // namespace tesmod::patch
