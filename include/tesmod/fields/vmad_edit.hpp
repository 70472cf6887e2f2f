// Editing a VMAD through its model: find, add, change and remove scripts, properties, fragments
// and alias scripts, and read or replace the VMAD field of an editable record. Script and
// property names are matched without regard to ASCII case, as Papyrus does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/fields/vmad.hpp"
#include "tesmod/plugin/plugin.hpp"

namespace tesmod::fields {

// Scripts: the record's own (vmad.scripts) or an alias's (AliasScripts::scripts).
Script* find_script(std::vector<Script>& scripts, std::string_view name);
const Script* find_script(const std::vector<Script>& scripts, std::string_view name);
// The script with this name, appended (local, no properties) when there is none.
Script& add_script(std::vector<Script>& scripts, std::string_view name);
// Removes the script with this name; false when there is none.
bool remove_script(std::vector<Script>& scripts, std::string_view name);

Property* find_property(Script& script, std::string_view name);
const Property* find_property(const Script& script, std::string_view name);
// Gives the property this value (and so its type): an existing property keeps its place and
// status; a new one is appended with status kEdited.
Property& set_property(Script& script, std::string_view name, PropertyValue value);
bool remove_property(Script& script, std::string_view name);

// INFO, PACK and SCEN begin/end/change fragments: sets the fragment for a single-bit flag,
// keeping the list in flag order; remove returns false when the flag has none.
FlaggedFragment& set_fragment(std::vector<FlaggedFragment>& fragments, std::uint8_t flag, Fragment fragment);
bool remove_fragment(std::vector<FlaggedFragment>& fragments, std::uint8_t flag);
const FlaggedFragment* find_fragment(const std::vector<FlaggedFragment>& fragments, std::uint8_t flag);

// Quest stage fragments, keyed by stage and log entry; a new one is appended.
QuestFragment& set_quest_fragment(QuestFragments& quest, std::uint16_t stage, std::int32_t log_entry, Fragment fragment);
bool remove_quest_fragment(QuestFragments& quest, std::uint16_t stage, std::int32_t log_entry);

// Perk fragments, keyed by index; a new one is appended.
PerkFragment& set_perk_fragment(PerkFragments& perk, std::uint16_t index, Fragment fragment);
bool remove_perk_fragment(PerkFragments& perk, std::uint16_t index);

// Scene phase fragments, keyed by the unknown byte and the phase; a new one is appended.
ScenePhaseFragment& set_phase_fragment(SceneFragments& scene, std::uint8_t unknown, std::uint32_t phase, Fragment fragment);
bool remove_phase_fragment(SceneFragments& scene, std::uint8_t unknown, std::uint32_t phase);

// Quest alias scripts, keyed by alias id.
AliasScripts* find_alias(QuestFragments& quest, std::int16_t alias);
// The alias's entry, appended when missing with object {quest_form_id, alias} and the VMAD's
// version and object format (as the Creation Kit writes them).
AliasScripts& add_alias(Vmad& vmad, QuestFragments& quest, std::uint32_t quest_form_id, std::int16_t alias);
bool remove_alias(QuestFragments& quest, std::int16_t alias);

// The fragment section of this kind, created empty when the VMAD has none; raises
// tesmod::Error (through where) when it holds a section of another kind.
template <class Section>
Section& fragments_of(Vmad& vmad, const ErrorContext& where = ErrorContext{"VMAD", Error::kNoOffset, std::nullopt}) {
  if (!vmad.fragments) vmad.fragments.emplace(Section{});
  if (Section* s = std::get_if<Section>(&*vmad.fragments)) return *s;
  where.fail("the VMAD holds a fragment section of another record type");
}

// The record's VMAD, decoded (nullopt when it has none); errors name the record.
std::optional<Vmad> read_vmad(const Record& record);
// Replaces the record's VMAD field with the encoded model (appended after EDID when the record
// had none, as VMAD follows EDID in every Skyrim record type).
void write_vmad(Record& record, const Vmad& vmad);
// Removes the record's VMAD field; false when it had none.
bool remove_vmad(Record& record);

}  // namespace tesmod::fields
