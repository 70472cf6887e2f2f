#include "tag_import_parts.hpp"

namespace tesmod::patch {

void import_entry_lists(ImportState& state) { (void)state; }

}  // namespace tesmod::patch
