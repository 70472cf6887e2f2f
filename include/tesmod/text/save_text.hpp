// What `tesmod save info` and `tesmod save npc` print: a save's summary, and one NPC_/CREA
// change record decoded with its forms named. Strings are converted from the save's code page.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/save/actor_change.hpp"
#include "tesmod/save/save_file.hpp"
#include "tesmod/save/save_names.hpp"

namespace tesmod::text {

// Keys: file, bytes, version, header_version, save_number, player (name, level, location),
// game_days, play_time_ms, play_time, saved_at, screenshot (width, height), plugins,
// next_object_id, world_space, world_cell (x, y), player_cell, player_position, globals,
// change_records, change_records_by_type, created_records, created_records_by_type, created
// [{type, form_id, name}], actor_records_with_unknown_flags, form_ids, world_spaces,
// temporary_effects_bytes.
nlohmann::ordered_json save_info_json(const save::SaveFile& save, const TextCodec& codec);
std::string save_info_text(const save::SaveFile& save, const TextCodec& codec);

// Keys: form_id, type, flags, version, data_bytes, offset, and one key per block present:
// form_flags, attributes {name: value}, base_data, factions [{form, rank}], spells [form],
// ai_data, base_health, base_modifiers [{actor_value, name, value}], full_name,
// skills {name: value}, combat_style; unknown_flags and unknown_data (hex) when the flags hold
// bits the spec does not cover. A form is {iref, form_id, plugin, editor_id, name, type, status}.
nlohmann::ordered_json actor_change_json(const save::SaveFile& save, const save::ChangeRecord& record,
                                         const save::ActorChange& change, const save::SaveFormNamer& names,
                                         const TextCodec& codec);
std::string actor_change_text(const save::SaveFile& save, const save::ChangeRecord& record,
                              const save::ActorChange& change, const save::SaveFormNamer& names, const TextCodec& codec);

}  // namespace tesmod::text
