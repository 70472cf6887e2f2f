// Edits the NPC_/CREA change record of one form in a save: attributes, skills, base health,
// the base data (magicka, fatigue, barter gold, level, calc min/max), the full name, faction
// ranks and the spell list. Each call checks its value and raises tesmod::Error (naming the
// save, the change record and what is wrong) without changing anything; the save itself is only
// touched by commit(), which writes the record's new data and flags and adds the FormIDs that
// new irefs need to the FormID array (the writer then moves formIdsOffset).
//
// A block the record does not hold is added where that needs no other value (base health, full
// name); attributes, skills, base data, factions and spells that are absent come from the base
// record in the plugins, which the save does not hold, so editing them is refused.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/save/actor_change.hpp"
#include "tesmod/save/save_file.hpp"
#include "tesmod/save/save_names.hpp"

namespace tesmod::save {

enum class BaseDataField { Magicka, Fatigue, BarterGold, Level, CalcMin, CalcMax };

class ActorEditor {
 public:
  // names, when given, checks that added spells and factions exist and have the right record
  // type (where their plugin is at hand). Throws tesmod::Error when the save has no NPC_ or CREA
  // change record for form_id, when it does not decode, or when its flags hold bits the spec
  // does not cover (their bytes cannot be placed).
  ActorEditor(SaveFile& save, std::uint32_t form_id, const SaveFormNamer* names = nullptr);

  const ActorChange& change() const { return change_; }
  const ChangeRecord& record() const { return *record_; }

  // name: attribute_names() / skill_names(), without regard to case and spaces. 0-255.
  void set_attribute(std::string_view name, std::int64_t value);
  void set_skill(std::string_view name, std::int64_t value);
  void set_base_health(std::int64_t value);  // 0 to 2^32-1
  // Level: -32768 to 32767; the others 0-65535.
  void set_base_data(BaseDataField field, std::int64_t value);
  // Code-page bytes, 1-255 of them, no NUL.
  void set_full_name(std::string stored);
  // Ranks: -1 (expelled) to 127. Joining refuses a faction the actor is in; changing the rank
  // one it is not in.
  void join_faction(std::uint32_t faction, std::int64_t rank);
  void set_faction_rank(std::uint32_t faction, std::int64_t rank);
  void leave_faction(std::uint32_t faction);
  void add_spell(std::uint32_t spell);
  void remove_spell(std::uint32_t spell);

  // Writes the edits into the save. Throws (and changes nothing) when the data no longer fits
  // the u16 size of a change record.
  void commit();

 private:
  [[noreturn]] void refuse(const std::string& detail) const;
  std::uint32_t iref_for(std::uint32_t form_id);
  std::uint32_t form_id_of(std::uint32_t iref) const;
  FactionRank* membership(std::uint32_t faction);
  void check_form(std::uint32_t form_id, Signature expected, std::string_view what) const;
  std::string form_text(std::uint32_t form_id) const;

  SaveFile& save_;
  ChangeRecord* record_ = nullptr;
  const SaveFormNamer* names_;
  ActorChange change_;
  std::vector<std::uint32_t> new_form_ids_;  // appended to the FormID array at commit()
};

}  // namespace tesmod::save
