#include "tesmod/fields/vmad_edit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "tesmod/io/ascii.hpp"

namespace tesmod::fields {
namespace {

template <class T>
auto find_named(std::vector<T>& items, std::string_view name) {
  return std::find_if(items.begin(), items.end(), [&](const T& x) { return ascii::iequals(x.name, name); });
}

template <class T, class Match>
bool erase_first(std::vector<T>& items, Match match) {
  const auto it = std::find_if(items.begin(), items.end(), match);
  if (it == items.end()) return false;
  items.erase(it);
  return true;
}

}  // namespace

Script* find_script(std::vector<Script>& scripts, std::string_view name) {
  const auto it = find_named(scripts, name);
  return it == scripts.end() ? nullptr : &*it;
}

const Script* find_script(const std::vector<Script>& scripts, std::string_view name) {
  return find_script(const_cast<std::vector<Script>&>(scripts), name);
}

Script& add_script(std::vector<Script>& scripts, std::string_view name) {
  if (Script* s = find_script(scripts, name)) return *s;
  scripts.push_back(Script{std::string(name), Script::kLocal, {}});
  return scripts.back();
}

bool remove_script(std::vector<Script>& scripts, std::string_view name) {
  return erase_first(scripts, [&](const Script& s) { return ascii::iequals(s.name, name); });
}

Property* find_property(Script& script, std::string_view name) {
  const auto it = find_named(script.properties, name);
  return it == script.properties.end() ? nullptr : &*it;
}

const Property* find_property(const Script& script, std::string_view name) {
  return find_property(const_cast<Script&>(script), name);
}

Property& set_property(Script& script, std::string_view name, PropertyValue value) {
  if (Property* p = find_property(script, name)) {
    p->value = std::move(value);
    return *p;
  }
  script.properties.push_back(Property{std::string(name), Property::kEdited, std::move(value)});
  return script.properties.back();
}

bool remove_property(Script& script, std::string_view name) {
  return erase_first(script.properties, [&](const Property& p) { return ascii::iequals(p.name, name); });
}

FlaggedFragment& set_fragment(std::vector<FlaggedFragment>& fragments, std::uint8_t flag, Fragment fragment) {
  if (!std::has_single_bit(flag)) {
    throw Error("VMAD", Error::kNoOffset, std::nullopt, fmt::format("fragment flag 0x{:02X} is not a single bit", flag));
  }
  auto it = std::find_if(fragments.begin(), fragments.end(), [&](const FlaggedFragment& f) { return f.flag >= flag; });
  if (it != fragments.end() && it->flag == flag) {
    it->fragment = std::move(fragment);
    return *it;
  }
  return *fragments.insert(it, FlaggedFragment{flag, std::move(fragment)});
}

bool remove_fragment(std::vector<FlaggedFragment>& fragments, std::uint8_t flag) {
  return erase_first(fragments, [&](const FlaggedFragment& f) { return f.flag == flag; });
}

const FlaggedFragment* find_fragment(const std::vector<FlaggedFragment>& fragments, std::uint8_t flag) {
  const auto it = std::find_if(fragments.begin(), fragments.end(), [&](const FlaggedFragment& f) { return f.flag == flag; });
  return it == fragments.end() ? nullptr : &*it;
}

QuestFragment& set_quest_fragment(QuestFragments& quest, std::uint16_t stage, std::int32_t log_entry, Fragment fragment) {
  for (QuestFragment& f : quest.fragments) {
    if (f.stage == stage && f.log_entry == log_entry) {
      f.fragment = std::move(fragment);
      return f;
    }
  }
  quest.fragments.push_back(QuestFragment{stage, 0, log_entry, std::move(fragment)});
  return quest.fragments.back();
}

bool remove_quest_fragment(QuestFragments& quest, std::uint16_t stage, std::int32_t log_entry) {
  return erase_first(quest.fragments,
                     [&](const QuestFragment& f) { return f.stage == stage && f.log_entry == log_entry; });
}

PerkFragment& set_perk_fragment(PerkFragments& perk, std::uint16_t index, Fragment fragment) {
  for (PerkFragment& f : perk.fragments) {
    if (f.index == index) {
      f.fragment = std::move(fragment);
      return f;
    }
  }
  perk.fragments.push_back(PerkFragment{index, 0, std::move(fragment)});
  return perk.fragments.back();
}

bool remove_perk_fragment(PerkFragments& perk, std::uint16_t index) {
  return erase_first(perk.fragments, [&](const PerkFragment& f) { return f.index == index; });
}

ScenePhaseFragment& set_phase_fragment(SceneFragments& scene, std::uint8_t unknown, std::uint32_t phase,
                                       Fragment fragment) {
  for (ScenePhaseFragment& p : scene.phases) {
    if (p.unknown == unknown && p.phase == phase) {
      p.fragment = std::move(fragment);
      return p;
    }
  }
  scene.phases.push_back(ScenePhaseFragment{unknown, phase, std::move(fragment)});
  return scene.phases.back();
}

bool remove_phase_fragment(SceneFragments& scene, std::uint8_t unknown, std::uint32_t phase) {
  return erase_first(scene.phases, [&](const ScenePhaseFragment& p) { return p.unknown == unknown && p.phase == phase; });
}

AliasScripts* find_alias(QuestFragments& quest, std::int16_t alias) {
  for (AliasScripts& a : quest.aliases)
    if (a.object.alias == alias) return &a;
  return nullptr;
}

AliasScripts& add_alias(Vmad& vmad, QuestFragments& quest, std::uint32_t quest_form_id, std::int16_t alias) {
  if (AliasScripts* a = find_alias(quest, alias)) return *a;
  quest.aliases.push_back(AliasScripts{VmadObject::quest_alias(quest_form_id, alias), vmad.version, vmad.object_format, {}});
  return quest.aliases.back();
}

bool remove_alias(QuestFragments& quest, std::int16_t alias) {
  return erase_first(quest.aliases, [&](const AliasScripts& a) { return a.object.alias == alias; });
}

std::optional<Vmad> read_vmad(const Record& record) {
  const Field* f = record.find(kVmadSignature);
  if (!f) return std::nullopt;
  return decode_vmad(f->data, record.type(), record.context());
}

void write_vmad(Record& record, const Vmad& vmad) {
  Field field{kVmadSignature, encode_vmad(vmad, record.context())};
  std::vector<Field>& fields = record.edit_fields();
  for (Field& f : fields) {
    if (f.type == kVmadSignature) {
      // Keep an XXXX prefix the field was read with; the writer adds one when it is needed.
      field.oversize = f.oversize;
      f = std::move(field);
      return;
    }
  }
  auto at = fields.begin();
  if (at != fields.end() && at->type == Signature("EDID")) ++at;
  fields.insert(at, std::move(field));
}

bool remove_vmad(Record& record) { return record.remove(kVmadSignature) > 0; }

}  // namespace tesmod::fields
