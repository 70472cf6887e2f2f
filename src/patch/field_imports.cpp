#include "tag_import_parts.hpp"

namespace tesmod::patch {

void import_fields(ImportState& state) { (void)state; }

}  // namespace tesmod::patch
