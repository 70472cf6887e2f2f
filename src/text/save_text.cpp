#include "tesmod/text/save_text.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "tesmod/io/counted.hpp"
#include "tesmod/save/actor_names.hpp"
#include "tesmod/save/change_type.hpp"
#include "tesmod/text/hex.hpp"

namespace tesmod::text {
namespace {

using namespace save;

std::string iso_time(const SystemTime& t) {
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", t.year, t.month, t.day, t.hour, t.minute, t.second);
}

std::string play_time(std::uint32_t ms) {
  const std::uint32_t s = ms / 1000;
  return fmt::format("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
}

// Floats as the shortest text that reads back to the same value.
nlohmann::ordered_json number(float v) {
  if (!std::isfinite(v)) return nullptr;
  return std::stod(fmt::format("{}", v));
}

std::map<Signature, std::uint64_t> change_counts(const SaveFile& save) {
  std::map<Signature, std::uint64_t> by_type;
  for (const ChangeRecord& c : save.change_records) ++by_type[c.type_signature()];
  return by_type;
}

std::map<Signature, std::uint64_t> created_counts(const SaveFile& save) {
  std::map<Signature, std::uint64_t> by_type;
  for (const CreatedRecord& c : save.global.created) ++by_type[c.header.type];
  return by_type;
}

// Actor change records whose flags hold bits the spec does not cover (their bytes are kept raw).
std::uint64_t actors_with_unknown_flags(const SaveFile& save) {
  std::uint64_t n = 0;
  for (const ChangeRecord& c : save.change_records)
    n += is_actor_change_type(c.type) && (c.flags & ~actor_flags::kKnown) != 0;
  return n;
}

const char* status_name(FormInfo::Status s) {
  switch (s) {
    case FormInfo::Status::Unchecked: return "unchecked";
    case FormInfo::Status::Found: return "found";
    case FormInfo::Status::Missing: return "missing";
  }
  return "?";
}

nlohmann::ordered_json form_json(const SaveFile& save, const SaveFormNamer& names, const TextCodec& codec,
                                 std::uint32_t iref) {
  nlohmann::ordered_json j;
  j["iref"] = iref;
  const auto id = save.form_ids.form_id(iref);
  if (!id) {
    j["form_id"] = nullptr;
    j["status"] = "past the FormID array";
    return j;
  }
  const FormInfo info = names.describe(*id);
  j["form_id"] = fmt::format("{:08X}", *id);
  j["plugin"] = info.created ? nlohmann::ordered_json("(created)")
                : info.plugin ? nlohmann::ordered_json(codec.to_utf8(*info.plugin))
                              : nlohmann::ordered_json(nullptr);
  j["editor_id"] = info.editor_id ? nlohmann::ordered_json(codec.to_utf8(*info.editor_id)) : nlohmann::ordered_json(nullptr);
  j["name"] = info.full_name ? nlohmann::ordered_json(codec.to_utf8(*info.full_name)) : nlohmann::ordered_json(nullptr);
  j["type"] = info.record_type ? nlohmann::ordered_json(info.record_type->str()) : nlohmann::ordered_json(nullptr);
  j["status"] = status_name(info.status);
  return j;
}

std::string form_text(const SaveFile& save, const SaveFormNamer& names, const TextCodec& codec, std::uint32_t iref) {
  const auto id = save.form_ids.form_id(iref);
  if (!id) return fmt::format("iref {} (past the FormID array of {})", iref, counted(save.form_ids.size(), "entry", "entries"));
  const FormInfo info = names.describe(*id);
  std::string out = fmt::format("{:08X}", *id);
  if (info.created) out += " (created)";
  else if (info.plugin) out += " " + codec.to_utf8(*info.plugin);
  else out += " (no plugin)";
  if (info.record_type) out += " " + info.record_type->str();
  if (info.editor_id) out += " " + codec.to_utf8(*info.editor_id);
  if (info.full_name) out += " \"" + codec.to_utf8(*info.full_name) + "\"";
  if (info.status == FormInfo::Status::Missing) out += " (missing)";
  return out;
}

}  // namespace

nlohmann::ordered_json save_info_json(const SaveFile& save, const TextCodec& codec) {
  const SaveHeader& h = save.header;
  const GlobalData& g = save.global;
  nlohmann::ordered_json j;
  j["file"] = save.name();
  j["bytes"] = save.input().size();
  j["version"] = fmt::format("{}.{}", h.major_version, h.minor_version);
  j["header_version"] = h.header_version;
  j["save_number"] = h.save_number;
  j["player"] = {{"name", codec.to_utf8(h.player_name())},
                 {"level", h.player_level},
                 {"location", codec.to_utf8(h.player_location())}};
  j["game_days"] = number(h.game_days);
  j["play_time_ms"] = h.game_ticks;
  j["play_time"] = play_time(h.game_ticks);
  j["saved_at"] = iso_time(h.save_time);
  j["screenshot"] = {{"width", h.screenshot.width}, {"height", h.screenshot.height}};
  auto plugins = nlohmann::ordered_json::array();
  for (const std::string& p : save.plugins) plugins.push_back(codec.to_utf8(p));
  j["plugins"] = plugins;
  j["next_object_id"] = fmt::format("{:08X}", g.next_object_id);
  j["world_space"] = fmt::format("{:08X}", g.world_id);
  j["world_cell"] = {{"x", g.world_x}, {"y", g.world_y}};
  j["player_cell"] = fmt::format("{:08X}", g.player_cell);
  j["player_position"] = {number(g.player_x), number(g.player_y), number(g.player_z)};
  j["globals"] = g.globals.size();
  j["change_records"] = save.change_records.size();
  auto by_type = nlohmann::ordered_json::object();
  for (const auto& [type, n] : change_counts(save)) by_type[type.str()] = n;
  j["change_records_by_type"] = by_type;
  j["created_records"] = g.created.size();
  auto created = nlohmann::ordered_json::object();
  for (const auto& [type, n] : created_counts(save)) created[type.str()] = n;
  j["created_records_by_type"] = created;
  const SaveFormNamer names(save);
  auto created_list = nlohmann::ordered_json::array();
  for (const CreatedRecord& c : g.created) {
    const FormInfo info = names.describe(c.header.form_id);
    created_list.push_back({{"type", c.header.type.str()},
                            {"form_id", fmt::format("{:08X}", c.header.form_id)},
                            {"name", info.full_name ? nlohmann::ordered_json(codec.to_utf8(*info.full_name))
                                                    : nlohmann::ordered_json(nullptr)}});
  }
  j["created"] = created_list;
  j["actor_records_with_unknown_flags"] = actors_with_unknown_flags(save);
  j["form_ids"] = save.form_ids.size();
  j["world_spaces"] = save.world_spaces.size();
  j["temporary_effects_bytes"] = save.temporary_effects.size();
  return j;
}

std::string save_info_text(const SaveFile& save, const TextCodec& codec) {
  const SaveHeader& h = save.header;
  const GlobalData& g = save.global;
  std::string out;
  auto line = [&](std::string_view key, const std::string& value) { out += fmt::format("{:<14}{}\n", key, value); };
  line("file", save.name());
  line("bytes", std::to_string(save.input().size()));
  line("version", fmt::format("Oblivion save {}.{}, header version {}, save #{}", h.major_version, h.minor_version,
                              h.header_version, h.save_number));
  line("player", fmt::format("{}, level {}", codec.to_utf8(h.player_name()), h.player_level));
  line("location", codec.to_utf8(h.player_location()));
  line("game days", fmt::format("{}", h.game_days));
  line("play time", play_time(h.game_ticks));
  line("saved at", iso_time(h.save_time));
  line("screenshot", fmt::format("{}x{}", h.screenshot.width, h.screenshot.height));
  if (save.plugins.empty()) line("plugins", "none");
  for (std::size_t i = 0; i < save.plugins.size(); ++i)
    line(i == 0 ? "plugins" : "", fmt::format("[{:02X}] {}", i, codec.to_utf8(save.plugins[i])));
  line("world space", fmt::format("{:08X}, cell ({}, {})", g.world_id, g.world_x, g.world_y));
  line("player cell", fmt::format("{:08X} at ({}, {}, {})", g.player_cell, g.player_x, g.player_y, g.player_z));
  line("globals", std::to_string(g.globals.size()));
  line("form ids", std::to_string(save.form_ids.size()));
  line("world spaces", std::to_string(save.world_spaces.size()));
  line("temp effects", counted(save.temporary_effects.size(), "byte"));
  line("created", std::to_string(g.created.size()));
  for (const auto& [type, n] : created_counts(save)) out += fmt::format("  {} {:>10}\n", type.str(), n);
  line("changes", std::to_string(save.change_records.size()));
  for (const auto& [type, n] : change_counts(save)) out += fmt::format("  {} {:>10}\n", type.str(), n);
  if (const std::uint64_t n = actors_with_unknown_flags(save))
    line("warning", fmt::format("{} NPC_/CREA change records set flags the spec does not cover; their bytes are kept as found", n));
  return out;
}

nlohmann::ordered_json actor_change_json(const SaveFile& save, const ChangeRecord& record, const ActorChange& c,
                                         const SaveFormNamer& names, const TextCodec& codec) {
  nlohmann::ordered_json j;
  j["form_id"] = fmt::format("{:08X}", record.form_id);
  j["type"] = record.type_signature().str();
  j["flags"] = fmt::format("{:08X}", record.flags);
  j["version"] = record.version;
  j["data_bytes"] = record.data().size();
  j["offset"] = record.offset;
  const FormInfo self = names.describe(record.form_id);
  j["plugin"] = self.plugin ? nlohmann::ordered_json(codec.to_utf8(*self.plugin)) : nlohmann::ordered_json(nullptr);
  j["editor_id"] = self.editor_id ? nlohmann::ordered_json(codec.to_utf8(*self.editor_id)) : nlohmann::ordered_json(nullptr);
  if (c.form_flags) j["form_flags"] = fmt::format("{:08X}", *c.form_flags);
  if (c.attributes) {
    nlohmann::ordered_json a;
    for (std::size_t i = 0; i < 8; ++i) a[std::string(attribute_names()[i])] = (*c.attributes)[i];
    j["attributes"] = a;
  }
  if (c.base_data) {
    const ActorBaseData& b = *c.base_data;
    j["base_data"] = {{"flags", fmt::format("{:08X}", b.flags)}, {"magicka", b.magicka}, {"fatigue", b.fatigue},
                      {"barter_gold", b.barter_gold},           {"level", b.level},     {"calc_min", b.calc_min},
                      {"calc_max", b.calc_max}};
  }
  if (c.factions) {
    auto list = nlohmann::ordered_json::array();
    for (const FactionRank& f : *c.factions) list.push_back({{"faction", form_json(save, names, codec, f.faction)}, {"rank", f.rank}});
    j["factions"] = list;
  }
  if (c.spells) {
    auto list = nlohmann::ordered_json::array();
    for (std::uint32_t s : *c.spells) list.push_back(form_json(save, names, codec, s));
    j["spells"] = list;
  }
  if (c.ai_data) j["ai_data"] = *c.ai_data;
  if (c.base_health) j["base_health"] = *c.base_health;
  if (c.modifiers) {
    auto list = nlohmann::ordered_json::array();
    for (const ActorValueModifier& m : *c.modifiers)
      list.push_back({{"actor_value", m.actor_value}, {"name", actor_value_name(m.actor_value)}, {"value", number(m.value())}});
    j["base_modifiers"] = list;
  }
  if (c.full_name) j["full_name"] = codec.to_utf8(*c.full_name);
  if (c.skills) {
    nlohmann::ordered_json s;
    for (std::size_t i = 0; i < 21; ++i) s[std::string(skill_names()[i])] = (*c.skills)[i];
    j["skills"] = s;
  }
  if (c.combat_style) j["combat_style"] = form_json(save, names, codec, *c.combat_style);
  if (c.unknown_flags) {
    j["unknown_flags"] = fmt::format("{:08X}", c.unknown_flags);
    j["unknown_data"] = hex_bytes(c.unknown_data);
  }
  return j;
}

std::string actor_change_text(const SaveFile& save, const ChangeRecord& record, const ActorChange& c,
                              const SaveFormNamer& names, const TextCodec& codec) {
  std::string out;
  const FormInfo self = names.describe(record.form_id);
  out += fmt::format("{} {:08X}", record.type_signature().str(), record.form_id);
  if (self.plugin) out += " " + codec.to_utf8(*self.plugin);
  if (self.editor_id) out += " " + codec.to_utf8(*self.editor_id);
  out += fmt::format("  flags 0x{:08X}, version {}, {} at offset 0x{:X}\n", record.flags, record.version,
                     counted(record.data().size(), "byte"), record.offset);
  auto line = [&](std::string_view key, const std::string& value) { out += fmt::format("  {:<14}{}\n", key, value); };
  if (c.form_flags) line("form flags", fmt::format("0x{:08X}", *c.form_flags));
  if (c.attributes) {
    std::string v;
    for (std::size_t i = 0; i < 8; ++i) v += fmt::format("{}{} {}", i ? ", " : "", attribute_names()[i], (*c.attributes)[i]);
    line("attributes", v);
  }
  if (c.base_data) {
    const ActorBaseData& b = *c.base_data;
    line("base data", fmt::format("flags 0x{:08X}, magicka {}, fatigue {}, barter gold {}, level {}, calc min {}, calc max {}",
                                  b.flags, b.magicka, b.fatigue, b.barter_gold, b.level, b.calc_min, b.calc_max));
  }
  if (c.factions) {
    line("factions", std::to_string(c.factions->size()));
    for (const FactionRank& f : *c.factions)
      out += fmt::format("    rank {:>3}  {}\n", f.rank, form_text(save, names, codec, f.faction));
  }
  if (c.spells) {
    line("spells", std::to_string(c.spells->size()));
    for (std::uint32_t s : *c.spells) out += fmt::format("    {}\n", form_text(save, names, codec, s));
  }
  if (c.ai_data) line("AI data", fmt::format("{} {} {} {}", (*c.ai_data)[0], (*c.ai_data)[1], (*c.ai_data)[2], (*c.ai_data)[3]));
  if (c.base_health) line("base health", std::to_string(*c.base_health));
  if (c.modifiers) {
    line("modifiers", std::to_string(c.modifiers->size()));
    for (const ActorValueModifier& m : *c.modifiers)
      out += fmt::format("    {} ({}) {}\n", actor_value_name(m.actor_value), m.actor_value, m.value());
  }
  if (c.full_name) line("full name", codec.to_utf8(*c.full_name));
  if (c.skills) {
    out += "  skills\n";
    for (std::size_t i = 0; i < 21; ++i) out += fmt::format("    {:<12}{:>4}\n", skill_names()[i], (*c.skills)[i]);
  }
  if (c.combat_style) line("combat style", form_text(save, names, codec, *c.combat_style));
  if (c.unknown_flags)
    line("unknown", fmt::format("flags 0x{:08X} are not in the spec; {} after the known blocks kept as found: {}",
                                c.unknown_flags, counted(c.unknown_data.size(), "byte"), hex_bytes(c.unknown_data)));
  return out;
}

}  // namespace tesmod::text
