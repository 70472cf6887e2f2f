#include "tesmod/save/actor_editor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "tesmod/save/actor_names.hpp"
#include "tesmod/save/change_type.hpp"

namespace tesmod::save {
namespace {

std::string joined(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

const char* field_name(BaseDataField f) {
  switch (f) {
    case BaseDataField::Magicka: return "magicka";
    case BaseDataField::Fatigue: return "fatigue";
    case BaseDataField::BarterGold: return "barter gold";
    case BaseDataField::Level: return "level";
    case BaseDataField::CalcMin: return "calc min";
    case BaseDataField::CalcMax: return "calc max";
  }
  return "?";
}

}  // namespace

ActorEditor::ActorEditor(SaveFile& save, std::uint32_t form_id, const SaveFormNamer* names)
    : save_(save), record_(save.find_actor(form_id)), names_(names) {
  if (!record_)
    throw Error(save.name(), Error::kNoOffset, std::nullopt,
                fmt::format("the save holds no NPC_ or CREA change record for FormID {:08X}", form_id));
  change_ = decode_actor_change(*record_, save.name());
  if (change_.unknown_flags)
    refuse(fmt::format("its flags 0x{:08X} hold bits the spec does not cover (0x{:08X}); where their {} bytes belong is "
                       "unknown, so the record is not edited",
                       record_->flags, change_.unknown_flags, change_.unknown_data.size()));
}

void ActorEditor::refuse(const std::string& detail) const {
  throw Error(save_.name(), record_->offset, record_->ref(), detail);
}

std::string ActorEditor::form_text(std::uint32_t form_id) const {
  if (names_) return fmt::format("{:08X} ({})", form_id, names_->name(form_id));
  return fmt::format("{:08X}", form_id);
}

void ActorEditor::set_attribute(std::string_view name, std::int64_t value) {
  const auto i = attribute_index(name);
  if (!i) refuse(fmt::format("'{}' is not an attribute: expected one of {}", name, joined(attribute_names())));
  if (value < 0 || value > 255) refuse(fmt::format("attribute {} = {} is out of range: 0 to 255", attribute_names()[*i], value));
  if (!change_.attributes)
    refuse("it has no Base Attributes block (flag 0x8): the values are the base record's, which the save does not hold");
  (*change_.attributes)[*i] = static_cast<std::uint8_t>(value);
}

void ActorEditor::set_skill(std::string_view name, std::int64_t value) {
  const auto i = skill_index(name);
  if (!i) refuse(fmt::format("'{}' is not a skill: expected one of {}", name, joined(skill_names())));
  if (value < 0 || value > 255) refuse(fmt::format("skill {} = {} is out of range: 0 to 255", skill_names()[*i], value));
  if (!change_.skills) refuse("it has no Skills block (flag 0x200): the values are the base record's, which the save does not hold");
  (*change_.skills)[*i] = static_cast<std::uint8_t>(value);
}

void ActorEditor::set_base_health(std::int64_t value) {
  if (value < 0 || value > std::numeric_limits<std::uint32_t>::max())
    refuse(fmt::format("base health {} is out of range: 0 to 4294967295", value));
  change_.base_health = static_cast<std::uint32_t>(value);
}

void ActorEditor::set_base_data(BaseDataField field, std::int64_t value) {
  const bool is_level = field == BaseDataField::Level;
  const std::int64_t low = is_level ? -32768 : 0, high = is_level ? 32767 : 65535;
  if (value < low || value > high) refuse(fmt::format("{} {} is out of range: {} to {}", field_name(field), value, low, high));
  if (!change_.base_data)
    refuse("it has no Base Data block (flag 0x10): the values are the base record's, which the save does not hold");
  ActorBaseData& b = *change_.base_data;
  switch (field) {
    case BaseDataField::Magicka: b.magicka = static_cast<std::uint16_t>(value); break;
    case BaseDataField::Fatigue: b.fatigue = static_cast<std::uint16_t>(value); break;
    case BaseDataField::BarterGold: b.barter_gold = static_cast<std::uint16_t>(value); break;
    case BaseDataField::Level: b.level = static_cast<std::int16_t>(value); break;
    case BaseDataField::CalcMin: b.calc_min = static_cast<std::uint16_t>(value); break;
    case BaseDataField::CalcMax: b.calc_max = static_cast<std::uint16_t>(value); break;
  }
}

void ActorEditor::set_full_name(std::string stored) {
  if (stored.empty() || stored.size() > 255)
    refuse(fmt::format("a full name of {} bytes cannot be stored: 1 to 255 bytes", stored.size()));
  if (stored.find('\0') != std::string::npos) refuse("a full name cannot hold a NUL character");
  change_.full_name = std::move(stored);
}

std::uint32_t ActorEditor::form_id_of(std::uint32_t iref) const {
  if (auto id = save_.form_ids.form_id(iref)) return *id;
  if (iref >= save_.form_ids.size() && iref - save_.form_ids.size() < new_form_ids_.size())
    return new_form_ids_[iref - save_.form_ids.size()];
  refuse(fmt::format("iref {} is past the end of the FormID array ({} entries)", iref, save_.form_ids.size()));
}

std::uint32_t ActorEditor::iref_for(std::uint32_t form_id) {
  if (auto iref = save_.form_ids.find_iref(form_id)) return *iref;
  const auto pending = std::find(new_form_ids_.begin(), new_form_ids_.end(), form_id);
  const std::size_t index = save_.form_ids.size() + static_cast<std::size_t>(pending - new_form_ids_.begin());
  if (index >= kCreatedFormIds) refuse("the FormID array is full");
  if (pending == new_form_ids_.end()) new_form_ids_.push_back(form_id);
  return static_cast<std::uint32_t>(index);
}

void ActorEditor::check_form(std::uint32_t form_id, Signature expected, std::string_view what) const {
  if (!is_created_form_id(form_id) && (form_id >> 24) >= save_.plugins.size())
    refuse(fmt::format("{} {:08X} belongs to no plugin of the save: its top byte is past the {} plugins", what, form_id,
                       save_.plugins.size()));
  // Without a data folder only the save's own created records can be checked.
  const SaveFormNamer save_only(save_);
  const FormInfo info = (names_ ? *names_ : save_only).describe(form_id);
  if (info.status == FormInfo::Status::Missing)
    refuse(fmt::format("{} {:08X} does not exist: {} defines no such form", what, form_id,
                       info.created ? std::string("the save's created records") : info.plugin.value_or("its plugin")));
  if (info.status == FormInfo::Status::Found && info.record_type != expected)
    refuse(fmt::format("{} is a {} record, not {}", form_text(form_id), info.record_type->str(), expected.str()));
}

FactionRank* ActorEditor::membership(std::uint32_t faction) {
  for (FactionRank& f : *change_.factions)
    if (form_id_of(f.faction) == faction) return &f;
  return nullptr;
}

void ActorEditor::join_faction(std::uint32_t faction, std::int64_t rank) {
  if (rank < -1 || rank > 127) refuse(fmt::format("faction rank {} is out of range: -1 (expelled) to 127", rank));
  if (!change_.factions)
    refuse("it has no Factions block (flag 0x40): its factions are the base record's, which the save does not hold");
  if (membership(faction)) refuse(fmt::format("{} is already in its faction list", form_text(faction)));
  check_form(faction, "FACT", "faction");
  if (change_.factions->size() >= 0xFFFF) refuse("the faction list is full");
  change_.factions->push_back(FactionRank{iref_for(faction), static_cast<std::int8_t>(rank)});
}

void ActorEditor::set_faction_rank(std::uint32_t faction, std::int64_t rank) {
  if (rank < -1 || rank > 127) refuse(fmt::format("faction rank {} is out of range: -1 (expelled) to 127", rank));
  if (!change_.factions) refuse("it has no Factions block (flag 0x40): there is no faction list to change");
  FactionRank* f = membership(faction);
  if (!f) refuse(fmt::format("{} is not in its faction list (join it instead)", form_text(faction)));
  f->rank = static_cast<std::int8_t>(rank);
}

void ActorEditor::leave_faction(std::uint32_t faction) {
  if (!change_.factions) refuse("it has no Factions block (flag 0x40): there is no faction list to leave from");
  auto& list = *change_.factions;
  const FactionRank* f = membership(faction);
  if (!f) refuse(fmt::format("{} is not in its faction list", form_text(faction)));
  list.erase(list.begin() + (f - list.data()));
}

void ActorEditor::add_spell(std::uint32_t spell) {
  if (!change_.spells)
    refuse("it has no Spell List block (flag 0x20): its spells are the base record's, which the save does not hold");
  for (std::uint32_t iref : *change_.spells)
    if (form_id_of(iref) == spell) refuse(fmt::format("{} is already in its spell list", form_text(spell)));
  check_form(spell, "SPEL", "spell");
  if (change_.spells->size() >= 0xFFFF) refuse("the spell list is full");
  change_.spells->push_back(iref_for(spell));
}

void ActorEditor::remove_spell(std::uint32_t spell) {
  if (!change_.spells) refuse("it has no Spell List block (flag 0x20): there is no spell list to remove from");
  auto& list = *change_.spells;
  const auto it = std::find_if(list.begin(), list.end(), [&](std::uint32_t iref) { return form_id_of(iref) == spell; });
  if (it == list.end()) refuse(fmt::format("{} is not in its spell list", form_text(spell)));
  list.erase(it);
}

void ActorEditor::commit() {
  std::vector<std::uint8_t> data = encode_actor_change(change_);
  if (data.size() > kMaxChangeRecordData)
    refuse(fmt::format("the edited record would hold {} bytes of data; a change record holds at most {}", data.size(),
                       kMaxChangeRecordData));
  for (std::uint32_t id : new_form_ids_) save_.form_ids.iref_for(id);
  new_form_ids_.clear();
  record_->set_data(std::move(data), save_.name());
  record_->flags = change_.flags();
}

}  // namespace tesmod::save
