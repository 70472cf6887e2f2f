// The two kinds of import (private to src/patch), each in its own file.
#pragma once

#include "import_state.hpp"

namespace tesmod::patch {

// Names, Stats, Graphics, Sound, Text, Keywords, ObjectBounds, Destructible, Enchantments,
// EffectStats, SpellStats, EnchantmentStats, (Oblivion) Scripts: for each tagged source plugin, in
// load order, the tag's fields of the tag's record types that differ from the record in any of
// the plugin's masters are carried into the patch's record for the form (the last tagged plugin
// winning per field); a record is written only when that changes it.
void import_fields(ImportState& state);   // src/patch/field_imports.cpp

// Invent.Add/Remove/Change, Outfits.Add/Remove, Relations.Add/Change/Remove, Actors.Factions,
// Actors.Spells, NPC.Perks.Add/Change/Remove: each tagged plugin's additions, removals and changes
// of entries against its own masters, replayed in load order on the patch's record.
void import_entry_lists(ImportState& state);  // src/patch/list_imports.cpp

}  // namespace tesmod::patch
