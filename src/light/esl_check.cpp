#include "tesmod/light/esl_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <deque>
#include <iterator>
#include <mutex>
#include <unordered_map>

#include "tesmod/io/ascii.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/io/workers.hpp"

namespace tesmod::light {
namespace {

using loadorder::LoadOrder;
using loadorder::LoadOrderPlugin;

constexpr std::uint64_t kLightSize171 = LightRange{kLightFirst171, kLightLast}.size();  // 4096
constexpr std::uint64_t kLightSize = LightRange{kLightFirst, kLightLast}.size();        // 2048
constexpr LightRange kRange{kLightFirst, kLightLast};
constexpr LightRange kRange171{kLightFirst171, kLightLast};

// The game master: the plugin whose forms FormIDs below 0x800 name (xEdit's wbGetGameMasterFile).
constexpr std::string_view kGameMaster = "Skyrim.esm";
// The game's own masters: Wrye Bash leaves them out ("vanilla" plugins, game/__init__.py
// bethDataFiles), as xEdit's script leaves out load order 00.
constexpr std::array<std::string_view, 5> kOfficialMasters{"Skyrim.esm", "Update.esm", "Dawnguard.esm",
                                                           "HearthFires.esm", "Dragonborn.esm"};

// LOOT's error for a light plugin that esplugin finds invalid (loot/loot
// src/gui/state/game/helpers.cpp, CreateInvalidLightPluginMessage).
constexpr std::string_view kLootInvalidLight =
    "This plugin contains records that have FormIDs outside the valid range for an ESL plugin. Using this plugin "
    "will cause irreversible damage to your game saves.";

std::string range_text(const LightRange& r) { return fmt::format("{:03X}-{:03X}", r.first, r.last); }
std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}
std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// A new record a warning may name: a CELL (interior or not), a WRLD or a WTHR.
struct Noted {
  IndexEntry entry{};
  bool interior = false;
};

// What one walk over a plugin's record headers tells.
struct Facts {
  std::uint64_t new_records = 0;
  std::uint64_t below = 0;  // object ids 0x000-0x7FF
  std::uint64_t above = 0;  // object ids past 0xFFF
  // New FormIDs outside 0x800-0xFFF, file order; complete when there are at most 4096 new records
  // (more make the plugin too_many_records, which lists none).
  std::vector<std::uint32_t> outside;
  std::vector<Noted> noted;
  std::vector<std::uint32_t> cell_overrides;  // CELL records whose FormID names a master's form
  std::string error;
};

const Signature kCell("CELL");
const Signature kWorld("WRLD");
const Signature kWeather("WTHR");

bool is_noted_type(Signature t) { return t == kCell || t == kWorld || t == kWeather; }
bool outside_800(std::uint32_t form_id) {
  const std::uint32_t object = form_id & 0xFFFFFF;
  return object < kLightFirst || object > kLightLast;
}

// The counts of one record header, for a plugin whose own file index is `own`.
struct Counts {
  std::uint64_t new_records = 0, below = 0, above = 0, outside = 0;
  // Counts the record; returns whether it is new.
  bool add(const IndexEntry& e, std::uint32_t own) {
    if ((e.id >> 24) < own) return false;
    ++new_records;
    const std::uint32_t object = e.id & 0xFFFFFF;
    below += object < kLightFirst;
    above += object > kLightLast;
    return true;
  }
};

// An indexed plugin: its index walked (a CELL's place from its enclosing groups: the CELL top
// group holds interior cells, WRLD groups exterior ones).
Facts indexed_facts(const LoadOrder& order, std::uint32_t position) {
  Facts f;
  const auto entries = order.file(position).entries();
  const std::uint32_t own = std::uint32_t(order.plugin(position).masters.size());
  Counts c;
  for (std::uint32_t i = 1; i < entries.size(); ++i) {
    const IndexEntry& e = entries[i];
    if (e.is_group()) continue;
    if (!c.add(e, own)) {
      if (e.type == kCell) f.cell_overrides.push_back(e.id);
      continue;
    }
    if (outside_800(e.id) && f.outside.size() < kLightSize171) f.outside.push_back(e.id);
    if (!is_noted_type(e.type)) continue;
    Noted n{e, false};
    if (e.type == kCell) {
      std::uint32_t top = e.parent;
      while (top != kNoParent && entries[top].parent != kNoParent) top = entries[top].parent;
      n.interior = top != kNoParent && entries[top].id == kCell.value();
    }
    f.noted.push_back(n);
  }
  f.new_records = c.new_records;
  f.below = c.below;
  f.above = c.above;
  return f;
}

// The top-level groups' offsets and labels, read from their headers (which opening the load
// order checked), by offset.
struct TopGroup {
  std::uint64_t begin, end;
  std::uint32_t label;
};
std::vector<TopGroup> top_groups(const PluginBytes& plugin) {
  std::vector<TopGroup> out;
  const auto bytes = plugin.bytes();
  const std::uint64_t header = plugin.header_size();
  if (bytes.size() < header) return out;
  std::uint64_t at = header + le::u32(bytes.data() + 4);  // past the TES4 record
  while (at + header <= bytes.size() && Signature::from_value(le::u32(bytes.data() + at)) == kGroupSignature) {
    const std::uint32_t size = le::u32(bytes.data() + at + 4);
    if (size < header) break;
    out.push_back({at, at + size, le::u32(bytes.data() + at + 8)});
    at += size;
  }
  return out;
}

// Each thread's counts during one unindexed walk: the walk hands records to `want` on several
// threads, and a shared counter per record would cost more than the walk. A thread finds its own
// Counts by the walk's number (unique per walk).
std::atomic<std::uint64_t> walk_numbers{0};
struct ThreadCounts {
  std::uint64_t walk = 0;
  Counts* counts = nullptr;
};
thread_local ThreadCounts thread_counts;

// A plugin without masters (a game master, whose records are all new): its record headers walked
// on every thread without building an index (LoadOrder::find_records), keeping only the records
// named later (new cells, worlds and weathers; the first 4097 outside 0x800-0xFFF per thread);
// a CELL's place from the top-level group holding it.
Facts unindexed_facts(const LoadOrder& order, std::uint32_t position) {
  Facts f;
  const std::uint32_t own = std::uint32_t(order.plugin(position).masters.size());
  const std::uint64_t walk = ++walk_numbers;
  std::mutex lock;
  std::deque<Counts> all;
  const std::vector<IndexEntry> kept = order.find_records(position, [&](const IndexEntry& e) {
    if (thread_counts.walk != walk) {
      std::lock_guard guard(lock);
      thread_counts = {walk, &all.emplace_back()};
    }
    Counts& c = *thread_counts.counts;
    if (!c.add(e, own)) return e.type == kCell;
    if (is_noted_type(e.type)) return true;
    return outside_800(e.id) && c.outside++ <= kLightSize171;
  });
  for (const Counts& c : all) {
    f.new_records += c.new_records;
    f.below += c.below;
    f.above += c.above;
  }
  const std::vector<TopGroup> tops = top_groups(order.bytes(position));
  for (const IndexEntry& e : kept) {
    if ((e.id >> 24) < own) {
      f.cell_overrides.push_back(e.id);
      continue;
    }
    if (outside_800(e.id) && f.outside.size() < kLightSize171) f.outside.push_back(e.id);
    if (!is_noted_type(e.type)) continue;
    Noted n{e, false};
    if (e.type == kCell) {
      const auto it = std::upper_bound(tops.begin(), tops.end(), e.offset,
                                       [](std::uint64_t offset, const TopGroup& g) { return offset < g.begin; });
      n.interior = it != tops.begin() && e.offset < std::prev(it)->end && std::prev(it)->label == kCell.value();
    }
    f.noted.push_back(n);
  }
  return f;
}

Facts read_facts(const LoadOrder& order, std::uint32_t position, bool indexed) {
  try {
    return indexed ? indexed_facts(order, position) : unindexed_facts(order, position);
  } catch (const Error& err) {
    Facts f;
    f.error = err.what();
    return f;
  }
}

// ---- the other tools' rules, each as the tool codes it ----

// esplugin (Ortham/esplugin src/plugin.rs, Plugin::is_valid_as_light_plugin with
// valid_light_form_id_range): valid when every new record's object id is in 0x800-0xFFF, or in
// 0x000-0xFFF when the HEDR version is not below 1.71; no count, and neither the masters nor the
// dependants are looked at. LOOT applies it to plugins that are light already (its
// install-validity check, with the message above), and says nothing about the others.
bool esplugin_valid(const Facts& f, float hedr) { return f.above == 0 && (f.below == 0 || !(hedr < 1.71f)); }
std::string esplugin_range(float hedr) { return hedr < 1.71f ? "800-FFF" : "000-FFF"; }

// Wrye Bash (wrye-bash/wrye-bash Mopy/bash/game/__init__.py, _EslMixin.can_convert and its
// 'unflaggable' message; Mopy/bash/bosh/__init__.py, ModInfo.formids_out_of_range): ESL-capable
// when no new record's object id is past 0xFFF; the lower bound and the count are not looked at.
// The game's own plugins and flagged ones are left out; a flagged plugin with such a record is
// listed under "Incorrect ESL Flag".
bool wrye_bash_capable(const Facts& f) { return f.above == 0; }

// xEdit's script (TES5Edit/TES5Edit "Build/Edit Scripts/Find ESP plugins which could be turned
// into ESL.pas", CheckForESL): for a plugin not light and not at load order 00, more than 0x800
// new records is no candidate; else the flag alone when the highest new object id is at most
// 0xFFF, else compacting first. Light plugins are left out there; xEdit's Check for Errors
// (Core/wbImplementation.pas) reports "ObjectID ... is invalid for a light module" for a light
// plugin's new record past 0xFFF.
enum class XEditSays { flag, compact, none };
XEditSays xedit_script(const Facts& f) {
  if (f.new_records > kLightSize) return XEditSays::none;
  return f.above == 0 ? XEditSays::flag : XEditSays::compact;
}

// tesmod's answer in the same terms.
enum class Answer { flag, flag_171, compact, none };

struct Judged {
  EslReport report;
  Answer answer = Answer::none;
};

// A dependant, as found from the master lists: the plugin and where it lists the checked one.
struct DependantRef {
  std::uint32_t position;
  std::size_t master_index;
};

std::string blocker_text(const EslReport& r, std::uint32_t masters) {
  std::vector<std::string> first;
  for (const EslDependant& d : r.dependants)
    if (d.first_master) first.push_back(d.name);
  std::vector<std::string> out;
  if (masters == 0)
    out.push_back(
        "it has no masters, so its own FormIDs below 800 (file index 00) are read as the game master's forms");
  else if (!first.empty())
    out.push_back(
        fmt::format("{} {} it as the first master, so {} references to it below 800 (00000000-000007FF) are "
                    "read as the game master's forms",
                    join(first), first.size() == 1 ? "names" : "name", first.size() == 1 ? "its" : "their"));
  return out.empty() ? std::string() : out.front();
}

void add_reasons(EslReport& r, std::uint32_t masters, const std::string& first_master_name) {
  const std::uint64_t n = r.new_records;
  auto add = [&](std::string s) { r.reasons.push_back(std::move(s)); };
  std::vector<std::string> to_171;
  for (const EslDependant& d : r.dependants)
    if (d.needs_171) to_171.push_back(d.name);
  auto dependants_171 = [&] {
    if (r.dependants.empty())
      add("no plugin of the load order names it as a master");
    else if (to_171.empty())
      add("every dependant's HEDR is 1.71 already");
    else
      add(
          fmt::format("{} must become HEDR 1.71 too (they name it as a master, and a plugin below 1.71 reads object "
                      "ids below 800 as the game master's): {}",
                      plural(to_171.size(), "dependant", "dependants"), join(to_171)));
  };
  switch (r.verdict) {
    case EslVerdict::light_ok:
      add(n == 0 ? std::string("no new records: the ESL flag can be set as it is")
                 : fmt::format("{} in 800-FFF and at most 2048: the ESL flag can be set as it is",
                               n == 1 ? std::string("its new record has an object id")
                                      : fmt::format("all {} new records have object ids", n)));
      break;
    case EslVerdict::light_ok_hedr171:
      if (r.below_800)
        add(
            fmt::format("{} of its {} new records {} object ids below 800, which only HEDR 1.71 opens "
                        "(Skyrim SE 1.6.1130 and later)",
                        r.below_800, n, r.below_800 == 1 ? "has" : "have"));
      if (n > kLightSize)
        add(fmt::format("{} new records: more than 800-FFF holds (2048); 000-FFF holds 4096 with HEDR 1.71", n));
      add(hedr_allows_low_range(r.hedr)
              ? std::string("its HEDR is 1.71 already")
              : std::string("its HEDR must become 1.71 with the flag (tesmod esl compact --hedr 1.71 --flag sets both, "
                            "and the dependants' HEDR)"));
      dependants_171();
      break;
    case EslVerdict::needs_compaction: {
      add(fmt::format("{} of its {} new records {} outside {} ({} past FFF, {} below 800)", r.out_of_range.size(), n,
                      r.out_of_range.size() == 1 ? "is" : "are", range_text(r.range), r.above_fff, r.below_800));
      if (r.range.first == kLightFirst) {
        add("renumbering them into 800-FFF (tesmod esl compact) makes it light; its HEDR and its dependants stay as "
            "they are");
        if (r.below_800 && r.low_range_usable)
          add(
              fmt::format("with HEDR 1.71 (tesmod esl compact --hedr 1.71) only the {} past FFF would move, and every "
                          "dependant needs HEDR 1.71",
                          r.above_fff));
        else if (r.below_800)
          add("the low range 000-7FF cannot serve it: " + blocker_text(r, masters));
      } else {
        add(
            fmt::format("{} new records are more than 800-FFF holds (2048): renumbering into 000-FFF needs HEDR 1.71 "
                        "(tesmod esl compact --hedr 1.71) and a game from 1.6.1130 on",
                        n));
        dependants_171();
      }
      break;
    }
    case EslVerdict::too_many_records:
      if (n > kLightSize171)
        add(
            fmt::format("{} new records: a light plugin holds at most 4096 (000-FFF with HEDR 1.71): it stays a full "
                        "plugin, or is split",
                        n));
      else
        add(
            fmt::format("{} new records: more than 800-FFF holds (2048), and the low range 000-7FF cannot serve it: "
                        "{}; it stays a full plugin unless that changes",
                        n, blocker_text(r, masters)));
      break;
    case EslVerdict::unreadable:
      add(r.error);
      return;
  }
  const bool low = r.verdict == EslVerdict::light_ok_hedr171 ||
                   (r.verdict == EslVerdict::needs_compaction && r.range.first == kLightFirst171);
  if (low && masters > 0 && !r.game_master_first)
    add(
        fmt::format("note: its first master is {}, not {}: at HEDR 1.71 its FormIDs 00000000-000007FF name {}'s "
                    "forms, not {}'s (this matters only where it refers to records of {} below 800)",
                    first_master_name, kGameMaster, kGameMaster, first_master_name, first_master_name));
  if (r.light) {
    if (r.valid_light)
      add("it is light already, and valid as it is");
    else
      add(fmt::format("it is light already, and not valid as it is (its range at HEDR {:.2f}: {})", r.hedr,
                      range_text(light_range(r.hedr))));
  }
}

void add_others(Judged& j, const Facts& f, const LoadOrder& order) {
  EslReport& r = j.report;
  const LoadOrderPlugin& p = order.plugin(r.position);
  const bool official = std::any_of(kOfficialMasters.begin(), kOfficialMasters.end(),
                                    [&](std::string_view m) { return ascii::iequals(m, p.name); });
  const bool load_order_00 = p.index && !p.index->light && p.index->value == 0;
  auto add = [&](std::string tool, std::string says) { r.others.push_back({std::move(tool), std::move(says)}); };
  if (r.light) {
    const bool invalid = !r.valid_light;
    const bool loot = !esplugin_valid(f, r.hedr);
    if (loot != invalid)
      add("esplugin", loot ? fmt::format("LOOT reports: \"{}\" (esplugin's is_valid_as_light_plugin() is false: a new "
                                         "object id is outside {})",
                                         kLootInvalidLight, esplugin_range(r.hedr))
                           : fmt::format("LOOT reports nothing: esplugin's is_valid_as_light_plugin() is true (every "
                                         "new object id is in {}; it looks at neither the masters nor the dependants)",
                                         esplugin_range(r.hedr)));
    const bool wb = !wrye_bash_capable(f);
    if (!official && wb != invalid)
      add("Wrye Bash",
          wb ? std::string("lists it under \"Incorrect ESL Flag\" (a new object id past FFF)")
             : std::string("finds its ESL flag correct: it checks only that no new object id is past FFF"));
    const bool xedit = f.above > 0;
    if (xedit != invalid)
      add("xEdit", xedit ? std::string("Check for Errors: \"ObjectID ... is invalid for a light module\" (new object "
                                       "ids past FFF)")
                         : std::string("Check for Errors finds nothing: it checks only new object ids past FFF"));
    return;
  }
  const bool ours = j.answer == Answer::flag;
  const bool esp = esplugin_valid(f, r.hedr);
  if (esp != ours)
    add("esplugin", fmt::format("is_valid_as_light_plugin() is {}: {} (it looks at neither the number of records, nor "
                                "the masters, nor the dependants; LOOT asks it only of plugins light already)",
                                esp ? "true" : "false",
                                esp ? fmt::format("every new object id is in {}, its range at HEDR {:.2f}",
                                                  esplugin_range(r.hedr), r.hedr)
                                    : fmt::format("a new object id is outside {}", esplugin_range(r.hedr))));
  if (!official) {
    const bool wb = wrye_bash_capable(f);
    if (wb != ours)
      add("Wrye Bash", wb ? std::string("ESL-capable: it checks only that no new object id is past FFF")
                          : std::string("not ESL-capable: \"This plugin contains records with FormIDs greater than "
                                        "0xFFF.\""));
  }
  if (!load_order_00) {
    const XEditSays x = xedit_script(f);
    const bool same = (x == XEditSays::flag && j.answer == Answer::flag) ||
                      (x == XEditSays::compact && j.answer == Answer::compact) ||
                      (x == XEditSays::none && j.answer == Answer::none);
    if (!same)
      add("xEdit", x == XEditSays::flag ? std::string("\"Can be turned into ESL by adding ESL flag in TES4 header\" "
                                                      "(its script checks the highest new object id and at most 2048 "
                                                      "new records, not the lower bound 800 or HEDR)")
                   : x == XEditSays::compact
                       ? std::string("\"Can be turned into ESL by compacting FormIDs first, then "
                                     "adding ESL flag in TES4 header\" (its script knows only 800-FFF "
                                     "and 2048 records)")
                       : std::string("not listed: its script takes more than 2048 new records as "
                                     "no candidate (it knows only 800-FFF)"));
  }
}

void add_warnings(EslReport& r, const Facts& f, const LoadOrder& order,
                  const std::unordered_map<std::uint64_t, std::vector<std::uint32_t>>& cell_overrides) {
  const LoadOrderPlugin& p = order.plugin(r.position);
  auto ref = [&](const Noted& n) {
    RecordRef rr{n.entry.type, n.entry.id, {}};
    try {
      if (auto edid = order.bytes(r.position).editor_id(n.entry)) rr.editor_id = std::move(*edid);
    } catch (const Error&) {
    }
    return rr;
  };
  if (r.light && !r.valid_light) {
    const LightRange own = light_range(r.hedr);
    std::string why;
    if (r.new_records > own.size())
      why = fmt::format("{} new records, more than {} holds", r.new_records, range_text(own));
    else if (r.above_fff || (r.below_800 && !hedr_allows_low_range(r.hedr)))
      why = fmt::format(
          "{} outside {}, its range at HEDR {:.2f}",
          plural(r.above_fff + (hedr_allows_low_range(r.hedr) ? 0 : r.below_800), "new record", "new records"),
          range_text(own), r.hedr);
    else
      why =
          "its new records below 800 have file index 00 (it has no masters): the game reads them as the game master's";
    r.warnings.push_back({"already_light_invalid", std::nullopt, fmt::format("{} ({})", kLootInvalidLight, why)});
  }
  if (r.light && r.valid_light && r.below_800) {
    std::vector<std::string> misread;
    for (const EslDependant& d : r.dependants)
      if (!hedr_allows_low_range(d.hedr) || d.first_master)
        misread.push_back(d.first_master ? d.name + " (names it first)"
                                         : fmt::format("{} (HEDR {:.2f})", d.name, d.hedr));
    if (!misread.empty())
      r.warnings.push_back(
          {"dependants_misread", std::nullopt,
           fmt::format("its new records below 800 are read as the game master's forms by {}", join(misread))});
  }
  if (r.verdict == EslVerdict::too_many_records && !r.light) return;
  for (const Noted& n : f.noted) {
    const Signature type = n.entry.type;
    if (type == kCell) {
      r.warnings.push_back({"new_cell", ref(n),
                            n.interior
                                ? "new interior cell: a light plugin's new interior cell may not reload properly "
                                  "when a save is loaded without restarting the game (fixed by SSE Engine Fixes v7+)"
                                : "new exterior cell: a light plugin's new cell breaks when another plugin "
                                  "overrides it (fixed by SSE Engine Fixes v7+)"});
      const auto key = order.key(r.position, n.entry.id);
      if (!key) continue;
      const auto it = cell_overrides.find(key->packed());
      if (it == cell_overrides.end()) continue;
      std::vector<std::string> by;
      for (std::uint32_t d : it->second) by.push_back(order.plugin(d).name);
      r.warnings.push_back({"new_cell_overridden", ref(n),
                            fmt::format("overridden by {}: once {} is light, the cell's temporary references are lost "
                                        "(fixed by SSE Engine Fixes v7+)",
                                        join(by), p.name)});
    } else if (type == kWorld) {
      r.warnings.push_back({"new_worldspace", ref(n),
                            "new worldspace: a light plugin's new worldspace loses its landscape, and its ground "
                            "disappears (not fixed by SSE Engine Fixes)"});
    } else if (type == kWeather) {
      r.warnings.push_back({"new_weather", ref(n),
                            "new weather: ENB weather lists name weathers by plugin and FormID, and renumbering or "
                            "flagging tools do not rewrite them"});
    }
  }
}

Judged judge(const LoadOrder& order, std::uint32_t position, const Facts& f,
             const std::vector<DependantRef>& dependants) {
  Judged j;
  EslReport& r = j.report;
  const LoadOrderPlugin& p = order.plugin(position);
  r.position = position;
  r.name = p.name;
  r.light = p.light;
  if (!p.readable() || !f.error.empty()) {
    r.verdict = EslVerdict::unreadable;
    r.error = p.readable() ? f.error : p.error;
    r.reasons.push_back(r.error);
    return j;
  }
  r.hedr = p.header.version;
  const std::uint32_t masters = std::uint32_t(p.masters.size());
  r.masters = masters;
  r.game_master_first = masters > 0 && ascii::iequals(p.masters.front(), kGameMaster);
  bool first_master_of_some = false;
  for (const DependantRef& d : dependants) {
    const LoadOrderPlugin& dp = order.plugin(d.position);
    r.dependants.push_back({d.position, dp.name, dp.header.version, false, d.master_index == 0});
    first_master_of_some |= d.master_index == 0;
  }
  r.low_range_usable = masters > 0 && !first_master_of_some;
  r.new_records = f.new_records;
  r.below_800 = f.below;
  r.above_fff = f.above;
  const std::uint64_t n = f.new_records;
  const std::uint64_t capacity = r.low_range_usable ? kLightSize171 : kLightSize;
  if (f.below == 0 && f.above == 0 && n <= kLightSize) {
    r.verdict = EslVerdict::light_ok;
    r.range = kRange;
  } else if (n > capacity) {
    r.verdict = EslVerdict::too_many_records;
    r.range = r.low_range_usable ? kRange171 : kRange;
  } else if (f.above == 0 && r.low_range_usable) {
    r.verdict = EslVerdict::light_ok_hedr171;
    r.range = kRange171;
  } else {
    r.verdict = EslVerdict::needs_compaction;
    r.range = n <= kLightSize ? kRange : kRange171;
    for (std::uint32_t id : f.outside)
      if (!r.range.contains(id & 0xFFFFFF)) r.out_of_range.push_back(id);
  }
  const bool uses_low = r.range.first == kLightFirst171 &&
                        (r.verdict == EslVerdict::light_ok_hedr171 || r.verdict == EslVerdict::needs_compaction);
  for (EslDependant& d : r.dependants) d.needs_171 = uses_low && !hedr_allows_low_range(d.hedr);
  switch (r.verdict) {
    case EslVerdict::light_ok:
      j.answer = Answer::flag;
      break;
    case EslVerdict::light_ok_hedr171: {
      const bool as_is =
          hedr_allows_low_range(r.hedr) &&
          std::none_of(r.dependants.begin(), r.dependants.end(), [](const EslDependant& d) { return d.needs_171; });
      j.answer = as_is ? Answer::flag : Answer::flag_171;
      break;
    }
    case EslVerdict::needs_compaction:
      j.answer = Answer::compact;
      break;
    default:
      j.answer = Answer::none;
      break;
  }
  if (r.light) {
    // Valid as it is: its records fit the range of its own HEDR, and the low range (when used)
    // serves its own records (it has masters). A dependant that misreads them is a warning.
    const LightRange own = light_range(r.hedr);
    const bool low_ok = f.below == 0 || (hedr_allows_low_range(r.hedr) && masters > 0);
    r.valid_light = f.above == 0 && low_ok && n <= own.size();
  }
  add_reasons(r, masters, masters > 0 ? p.masters.front() : std::string());
  return j;
}

}  // namespace

std::string_view verdict_name(EslVerdict verdict) {
  switch (verdict) {
    case EslVerdict::light_ok:
      return "light_ok";
    case EslVerdict::light_ok_hedr171:
      return "light_ok_hedr171";
    case EslVerdict::needs_compaction:
      return "needs_compaction";
    case EslVerdict::too_many_records:
      return "too_many_records";
    case EslVerdict::unreadable:
      return "unreadable";
  }
  return "unreadable";
}

bool is_error(const EslReport& report) {
  return report.verdict == EslVerdict::unreadable || (report.light && !report.valid_light);
}

std::vector<EslReport> esl_check(const LoadOrder& order, std::span<const std::uint32_t> positions) {
  if (order.game() != Game::SkyrimSE)
    throw Error(
        "esl check", Error::kNoOffset, std::nullopt,
        fmt::format("only Skyrim SE load orders have light (ESL) plugins; this one is {}", game_title(order.game())));
  std::vector<std::uint32_t> checked(positions.begin(), positions.end());
  if (checked.empty())
    for (std::uint32_t p = 0; p < order.plugins().size(); ++p)
      if (order.plugin(p).active) checked.push_back(p);

  // Who names whom as a master (every plugin whose header reads, active or not).
  std::vector<std::vector<DependantRef>> dependants(order.plugins().size());
  for (std::uint32_t d = 0; d < order.plugins().size(); ++d) {
    const LoadOrderPlugin& dp = order.plugin(d);
    if (!dp.readable()) continue;
    for (std::size_t k = 0; k < dp.master_positions.size(); ++k)
      if (const auto m = dp.master_positions[k]; m && *m != d) dependants[*m].push_back({d, k});
  }

  // The checked plugins' indices, several at once; then one walk over each.
  std::vector<Facts> facts(order.plugins().size());
  std::vector<bool> walked(order.plugins().size(), false);
  // The plugins with masters are indexed, several at once; the others (the game's masters, every
  // record new) are walked once on all threads, not indexed (as clean --all reads them).
  auto walk = [&](const std::vector<std::uint32_t>& list) {
    std::vector<std::uint32_t> indexed, unindexed;
    for (std::uint32_t p : list)
      if (!walked[p] && order.plugin(p).readable()) {
        walked[p] = true;
        (order.plugin(p).masters.empty() && !order.is_read(p) ? unindexed : indexed).push_back(p);
      }
    order.read_files(indexed);
    run_workers(indexed.size(), order.threads(), [&](auto claim) {
      for (std::size_t k = claim(); k < indexed.size(); k = claim())
        facts[indexed[k]] = read_facts(order, indexed[k], true);
    });
    for (std::uint32_t p : unindexed) facts[p] = read_facts(order, p, false);
  };
  walk(checked);
  // The dependants of plugins with new cells: their CELL records that override those cells.
  std::vector<std::uint32_t> more;
  for (std::uint32_t p : checked)
    if (std::any_of(facts[p].noted.begin(), facts[p].noted.end(), [](const Noted& n) { return n.entry.type == kCell; }))
      for (const DependantRef& d : dependants[p]) more.push_back(d.position);
  walk(more);
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> cell_overrides;
  for (std::uint32_t p = 0; p < order.plugins().size(); ++p) {
    if (!walked[p]) continue;
    for (std::uint32_t id : facts[p].cell_overrides)
      if (const auto key = order.key(p, id)) {
        auto& by = cell_overrides[key->packed()];
        if (std::find(by.begin(), by.end(), p) == by.end()) by.push_back(p);
      }
  }

  std::vector<EslReport> out;
  out.reserve(checked.size());
  for (std::uint32_t p : checked) {
    Judged j = judge(order, p, facts[p], dependants[p]);
    if (j.report.verdict != EslVerdict::unreadable) {
      add_warnings(j.report, facts[p], order, cell_overrides);
      add_others(j, facts[p], order);
    }
    out.push_back(std::move(j.report));
  }
  return out;
}

}  // namespace tesmod::light
