// Imports by Bash Tag (private to src/patch): for each plugin tagged Names, Stats, Graphics ...,
// the fields of the tag's record types that the plugin changed from its masters are carried into
// the patch's copy of the winning record (the last tagged plugin winning per field); and for the
// list-like tags (Invent.*, Outfits.*, Relations.*, Actors.Factions, Actors.Spells, NPC.Perks.*)
// each tagged plugin's additions, removals and changes against its own masters are replayed on the
// winning record in load order.
#pragma once

#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/patch/leveled_list.hpp"
#include "tesmod/patch/patch.hpp"

namespace tesmod::patch {

// Adds the records the imports change to plan.records (merging into a record already planned for
// the same form) and a TagUse per import tag of every source plugin. Reads plan.sources,
// plan.tags and plan.skipped_patch.
void plan_imports(const loadorder::LoadOrder& order, PatchPlan& plan, const FormTypeLookup& type_of);

}  // namespace tesmod::patch
