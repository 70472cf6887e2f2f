#include "tesmod/patch/leveled_list.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "tesmod/error.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod::patch {
namespace {

using loadorder::ResolvedField;

constexpr Signature kLVLD{"LVLD"}, kLVLF{"LVLF"}, kLLCT{"LLCT"}, kLVLO{"LVLO"}, kCOED{"COED"};
constexpr Signature kFACT{"FACT"};

constexpr Signature kOblivionTypes[] = {"LVLC", "LVLI", "LVSP"};
constexpr Signature kSkyrimTypes[] = {"LVLI", "LVLN", "LVSP"};
constexpr Signature kFactionType[] = {"FACT"};

// What each list type holds (the Construction Set's and the Creation Kit's choices).
constexpr Signature kOblivionItems[] = {"ALCH", "AMMO", "APPA", "ARMO", "BOOK", "CLOT", "INGR", "KEYM",
                                        "LIGH", "MISC", "SGST", "SLGM", "WEAP", "LVLI"};
constexpr Signature kOblivionCreatures[] = {"CREA", "NPC_", "LVLC"};
constexpr Signature kSpells[] = {"SPEL", "LVSP"};
constexpr Signature kSkyrimItems[] = {"ALCH", "AMMO", "APPA", "ARMO", "BOOK", "INGR", "KEYM", "LIGH",
                                      "MISC", "SCRL", "SLGM", "WEAP", "LVLI"};
constexpr Signature kSkyrimActors[] = {"NPC_", "LVLN"};

struct AttributeSpec {
  std::string_view name;
  Signature fields[3];
};
constexpr AttributeSpec kGlobal{"global", {"LVLG"}};
constexpr AttributeSpec kModel{"model", {"MODL", "MODT", "MODS"}};
constexpr AttributeSpec kScript{"script", {"SCRI"}};
constexpr AttributeSpec kTemplate{"template", {"TNAM"}};

// The fields a version of a list type contributes whole (Wrye Bash's "top copy" attributes).
std::vector<const AttributeSpec*> attributes_of(Game game, Signature type) {
  if (game == Game::Oblivion) {
    if (type == Signature("LVLC")) return {&kScript, &kTemplate};
    return {};
  }
  if (type == Signature("LVLI")) return {&kGlobal};
  if (type == Signature("LVLN")) return {&kGlobal, &kModel};
  return {};
}

bool holds(const AttributeSpec& a, Signature s) {
  for (Signature f : a.fields)
    if (f == s && f.value() != 0) return true;
  return false;
}

// The order the Creation Kit and the Construction Set write a list's fields in.
constexpr Signature kOblivionOrder[] = {"EDID", "LVLD", "LVLF", "LVLO", "SCRI", "TNAM", "DATA"};
constexpr Signature kSkyrimOrder[] = {"EDID", "OBND", "LVLD", "LVLF", "LVLG", "LLCT", "LVLO", "MODL", "MODT", "MODS"};

ErrorContext context_of(const loadorder::ResolvedRecord& r, const loadorder::LoadOrder& order) {
  return order.bytes(r.version.plugin).context(r.version.entry);
}

std::optional<FormKey> form_at(const loadorder::LoadOrder& order, std::uint32_t source, std::uint32_t value,
                               const ErrorContext& where, std::string_view what) {
  if (value == 0) return std::nullopt;
  auto key = order.key(source, value);
  if (!key)
    where.fail(fmt::format("{} {:08X} names a master that is not in the load order", what, value));
  return key;
}

// -1, 0, 1 for optional forms where none sorts last.
int compare_optional(const std::optional<FormKey>& a, const std::optional<FormKey>& b) {
  if (a.has_value() != b.has_value()) return a ? -1 : 1;
  if (!a) return 0;
  return *a < *b ? -1 : *b < *a ? 1 : 0;
}

std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace

bool LeveledCoed::same_as(const LeveledCoed& o) const {
  return owner == o.owner && global == o.global && rank_or_raw == o.rank_or_raw &&
         float_bits(condition) == float_bits(o.condition);
}

bool LeveledEntry::same_as(const LeveledEntry& o) const {
  if (level != o.level || form != o.form || count != o.count || coed.has_value() != o.coed.has_value()) return false;
  return !coed || coed->same_as(*o.coed);
}

bool ListAttribute::same_as(const ListAttribute& o) const {
  if (fields.size() != o.fields.size()) return false;
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (!fields[i].same_as(o.fields[i])) return false;
  return true;
}

std::span<const Signature> leveled_list_types(Game game) {
  if (game == Game::Oblivion) return kOblivionTypes;
  return kSkyrimTypes;
}

std::span<const Signature> entry_types(Game game, Signature list_type) {
  if (list_type == Signature("LVSP")) return kSpells;
  if (game == Game::Oblivion) return list_type == Signature("LVLC") ? std::span<const Signature>(kOblivionCreatures)
                                                                    : std::span<const Signature>(kOblivionItems);
  return list_type == Signature("LVLN") ? std::span<const Signature>(kSkyrimActors)
                                        : std::span<const Signature>(kSkyrimItems);
}

LeveledList read_leveled_list(loadorder::ResolvedRecord record, Game game, const loadorder::LoadOrder& order) {
  LeveledList out;
  const ErrorContext where = context_of(record, order);
  const std::uint32_t source = record.version.plugin;
  const bool oblivion = game == Game::Oblivion;
  const auto specs = attributes_of(game, record.header.type);
  for (const AttributeSpec* spec : specs) out.attributes.push_back({spec->name, {}});
  bool raw_chance_high = false;
  for (const ResolvedField& f : record.fields) {
    const Signature t = f.field.type;
    const auto& d = f.field.data;
    if (t == kLVLD && !d.empty()) {
      out.chance_none = d[0];
      raw_chance_high = oblivion && d[0] >= 128;
    } else if (t == kLVLF && !d.empty()) {
      out.flags = d[0];
    } else if (t == kLVLO) {
      LeveledEntry e;
      if (d.size() == 12) {
        e.level = oblivion ? le::load<std::int16_t>(d.data()) : le::u16(d.data());
        e.count = oblivion ? le::load<std::int16_t>(d.data() + 8) : le::u16(d.data() + 8);
        std::memcpy(e.unused, d.data() + 2, 2);
        std::memcpy(e.unused + 2, d.data() + 10, 2);
      } else if (d.size() == 8 && oblivion) {  // the early form: level as i32, no count
        e.level = le::i32(d.data());
        e.count = 1;
      } else {
        where.fail(fmt::format("LVLO of {} bytes (expected {})", d.size(), oblivion ? "12 or 8" : "12"));
      }
      e.form = form_at(order, source, le::u32(d.data() + 4), where, "LVLO entry");
      out.entries.push_back(e);
    } else if (t == kCOED && !oblivion) {
      if (out.entries.empty()) where.fail("COED before any LVLO");
      if (d.size() != 12) where.fail(fmt::format("COED of {} bytes (expected 12)", d.size()));
      LeveledCoed c;
      c.owner = form_at(order, source, le::u32(d.data()), where, "COED owner");
      const std::uint32_t second = le::u32(d.data() + 4);
      const bool faction = c.owner && order.record_type_in(*c.owner, kFactionType) == kFACT;
      if (faction || second == 0) c.rank_or_raw = second;
      else c.global = form_at(order, source, second, where, "COED global");
      std::memcpy(&c.condition, d.data() + 8, 4);
      out.entries.back().coed = c;
    } else {
      for (std::size_t k = 0; k < specs.size(); ++k)
        if (holds(*specs[k], t)) out.attributes[k].fields.push_back(f);
    }
  }
  if (raw_chance_high) {
    out.chance_none = std::uint8_t(out.chance_none - 128);
    out.flags |= 0x01;
  }
  out.record = std::move(record);
  return out;
}

std::vector<ResolvedField> leveled_list_fields(const LeveledList& list, Game game) {
  const bool oblivion = game == Game::Oblivion;
  const std::span<const Signature> order = oblivion ? std::span<const Signature>(kOblivionOrder)
                                                    : std::span<const Signature>(kSkyrimOrder);
  const auto specs = attributes_of(game, list.type());
  const std::uint32_t source = list.record.version.plugin;
  auto managed = [&](Signature s) {
    if (s == kLVLD || s == kLVLF || s == kLLCT || s == kLVLO || s == kCOED) return true;
    for (const AttributeSpec* spec : specs)
      if (holds(*spec, s)) return true;
    return false;
  };
  auto make = [&](Signature type, std::vector<std::uint8_t> data) {
    ResolvedField f;
    f.field.type = type;
    f.field.data = std::move(data);
    f.source = source;
    return f;
  };
  std::vector<ResolvedField> out;
  std::vector<bool> attribute_done(specs.size(), false);
  for (Signature s : order) {
    if (s == kLVLD) {
      out.push_back(make(kLVLD, {list.chance_none}));
    } else if (s == kLVLF) {
      out.push_back(make(kLVLF, {list.flags}));
    } else if (s == kLLCT) {
      out.push_back(make(kLLCT, {std::uint8_t(std::min<std::size_t>(list.entries.size(), 255))}));
    } else if (s == kLVLO) {
      for (const LeveledEntry& e : list.entries) {
        std::vector<std::uint8_t> d(12, 0);
        le::store(d.data(), std::uint16_t(e.level));
        std::memcpy(d.data() + 2, e.unused, 2);
        le::store(d.data() + 8, std::uint16_t(e.count));
        std::memcpy(d.data() + 10, e.unused + 2, 2);
        ResolvedField f = make(kLVLO, std::move(d));
        if (e.form) f.forms.push_back({4, *e.form});
        out.push_back(std::move(f));
        if (e.coed && !oblivion) {
          std::vector<std::uint8_t> c(12, 0);
          le::store(c.data() + 4, e.coed->rank_or_raw);
          std::memcpy(c.data() + 8, &e.coed->condition, 4);
          ResolvedField cf = make(kCOED, std::move(c));
          if (e.coed->owner) cf.forms.push_back({0, *e.coed->owner});
          if (e.coed->global) cf.forms.push_back({4, *e.coed->global});
          out.push_back(std::move(cf));
        }
      }
    } else if (managed(s)) {
      for (std::size_t k = 0; k < specs.size(); ++k)
        if (holds(*specs[k], s) && !attribute_done[k]) {
          attribute_done[k] = true;
          for (const ResolvedField& f : list.attributes[k].fields) out.push_back(f);
        }
    } else {
      for (const ResolvedField& f : list.record.fields)
        if (f.field.type == s) out.push_back(f);
    }
  }
  for (const ResolvedField& f : list.record.fields)
    if (!managed(f.field.type) && std::find(order.begin(), order.end(), f.field.type) == order.end()) out.push_back(f);
  return out;
}

bool entry_write_order(const LeveledEntry& a, const LeveledEntry& b) {
  if (a.level != b.level) return a.level < b.level;
  if (int c = compare_optional(a.form, b.form); c != 0) {
    // A zero FormID is the lowest FormID there is.
    if (!a.form || !b.form) return !a.form;
    return c < 0;
  }
  if (a.count != b.count) return a.count < b.count;
  const float ca = a.coed ? a.coed->condition : 0.0f, cb = b.coed ? b.coed->condition : 0.0f;
  if (ca != cb) return ca < cb;
  // An entry without COED has no owner: it sorts after any owner.
  const std::optional<FormKey> none;
  if (int c = compare_optional(a.coed ? a.coed->owner : none, b.coed ? b.coed->owner : none); c != 0) return c < 0;
  if (int c = compare_optional(a.coed ? a.coed->global : none, b.coed ? b.coed->global : none); c != 0) return c < 0;
  return false;
}

}  // namespace tesmod::patch
