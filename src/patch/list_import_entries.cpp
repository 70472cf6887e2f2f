#include "list_import_entries.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "tesmod/io/little_endian.hpp"

namespace tesmod::patch {
namespace {

using loadorder::FormKey;
using loadorder::ResolvedField;

constexpr Signature kNPC_{"NPC_"}, kLVSP{"LVSP"};

std::vector<ListFamily> make_families(Game game) {
  const bool oblivion = game == Game::Oblivion;
  std::vector<ListFamily> out;
  // Wrye Bash's inventory_types: Oblivion's creatures carry items too; Skyrim adds the
  // ingredients of constructible objects.
  ListFamily inventory{"item", "items", "Invent.Add", "Invent.Change", "Invent.Remove", {}, "CNTO", {}, {}, false,
                       EntryOrder::Items};
  inventory.types = oblivion ? std::vector<Signature>{"CONT", "NPC_", "CREA"}
                             : std::vector<Signature>{"CONT", "NPC_", "COBJ"};
  if (!oblivion) {
    inventory.counter = Signature("COCT");
    inventory.companion = Signature("COED");
  }
  out.push_back(inventory);
  if (!oblivion)
    out.push_back({"outfit item", "outfit items", "Outfits.Add", "", "Outfits.Remove", {"OTFT"}, "INAM", {}, {},
                   true, EntryOrder::Key});
  out.push_back({"relation", "relations", "Relations.Add", "Relations.Change", "Relations.Remove", {"FACT"}, "XNAM",
                 {}, {}, false, EntryOrder::Key});
  const std::vector<Signature> actors =
      oblivion ? std::vector<Signature>{"NPC_", "CREA"} : std::vector<Signature>{"NPC_"};
  out.push_back({"faction", "factions", "Actors.Factions", "Actors.Factions", "Actors.Factions", actors, "SNAM", {},
                 {}, false, EntryOrder::Key});
  // Spells are bare FormIDs: nothing to change.
  out.push_back({"spell", "spells", "Actors.Spells", "", "Actors.Spells", actors, "SPLO",
                 oblivion ? Signature() : Signature("SPCT"), {}, false,
                 oblivion ? EntryOrder::OblivionSpells : EntryOrder::Key});
  if (!oblivion)
    out.push_back({"perk", "perks", "NPC.Perks.Add", "NPC.Perks.Change", "NPC.Perks.Remove", {"NPC_"}, "PRKR",
                   "PRKZ", {}, false, EntryOrder::Key});
  return out;
}

std::optional<FormKey> form_at(const ResolvedField& f, std::uint32_t offset) {
  for (const auto& [at, form] : f.forms)
    if (at == offset) return form;
  return std::nullopt;
}

// The value of an entry: per part its type, size, bytes with the FormID slots zeroed, and forms.
std::string value_of(const std::vector<ResolvedField>& parts) {
  std::string out;
  auto put = [&out](std::uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); };
  for (const ResolvedField& p : parts) {
    put(p.field.type.value());
    put(std::uint32_t(p.field.data.size()));
    std::string bytes(p.field.data.begin(), p.field.data.end());
    for (const auto& [at, form] : p.forms)
      if (at + 4 <= bytes.size()) std::memset(bytes.data() + at, 0, 4);
    out += bytes;
    for (const auto& [at, form] : p.forms) {
      put(at);
      put(form.plugin);
      put(form.object_id);
    }
  }
  return out;
}

ListEntry make_entry(std::vector<ResolvedField> parts) {
  ListEntry e;
  e.key = form_at(parts.front(), 0);
  e.value = value_of(parts);
  e.parts = std::move(parts);
  return e;
}

// A COED owned by an NPC_ holds a global where one owned by a faction holds a rank.
void resolve_coed_global(ResolvedField& coed, const EntryContext& context) {
  if (coed.field.data.size() < 8 || form_at(coed, 4)) return;
  const auto owner = form_at(coed, 0);
  const std::uint32_t second = le::u32(coed.field.data.data() + 4);
  if (!owner || second == 0 || context.type_of(*owner) != kNPC_) return;
  if (const auto global = context.order.key(coed.source, second)) coed.forms.push_back({4, *global});
}

// -1, 0, 1; none before any form (a zero FormID is the lowest there is).
int compare_key(const std::optional<FormKey>& a, const std::optional<FormKey>& b) {
  if (a.has_value() != b.has_value()) return a ? 1 : -1;
  if (!a) return 0;
  return *a < *b ? -1 : *b < *a ? 1 : 0;
}

// The COED's sort fields: condition (0 without one), owner and global (none last).
struct CoedOrder {
  float condition = 0;
  std::optional<FormKey> owner, global;
  std::uint32_t raw = 0;
};

CoedOrder coed_order(const ListEntry& e) {
  CoedOrder out;
  if (e.parts.size() < 2) return out;
  const ResolvedField& c = e.parts[1];
  if (c.field.data.size() >= 12) out.condition = le::f32(c.field.data.data() + 8);
  out.owner = form_at(c, 0);
  out.global = form_at(c, 4);
  if (!out.global && c.field.data.size() >= 8) out.raw = le::u32(c.field.data.data() + 4);
  return out;
}

int compare_last_none(const std::optional<FormKey>& a, const std::optional<FormKey>& b) {
  if (a.has_value() != b.has_value()) return a ? -1 : 1;
  return compare_key(a, b);
}

bool item_order(const ListEntry& a, const ListEntry& b) {
  if (int c = compare_key(a.key, b.key); c != 0) return c < 0;
  const auto count = [](const ListEntry& e) {
    const auto& d = e.parts.front().field.data;
    return d.size() >= 8 ? le::i32(d.data() + 4) : 0;
  };
  if (count(a) != count(b)) return count(a) < count(b);
  const CoedOrder ca = coed_order(a), cb = coed_order(b);
  if (ca.condition != cb.condition) return ca.condition < cb.condition;
  if (int c = compare_last_none(ca.owner, cb.owner); c != 0) return c < 0;
  if (int c = compare_last_none(ca.global, cb.global); c != 0) return c < 0;
  return ca.raw < cb.raw;
}

std::string form_name(const std::optional<FormKey>& k, const loadorder::LoadOrder& order) {
  if (!k) return "none";
  return fmt::format("{}:{:06X}", order.plugin(k->plugin).name, k->object_id);
}

}  // namespace

std::vector<std::string_view> ListFamily::tags() const {
  std::vector<std::string_view> out;
  for (std::string_view t : {add_tag, change_tag, remove_tag})
    if (!t.empty() && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  return out;
}

const std::vector<ListFamily>& list_families(Game game) {
  static const std::vector<ListFamily> oblivion = make_families(Game::Oblivion);
  static const std::vector<ListFamily> skyrim = make_families(Game::SkyrimSE);
  return game == Game::Oblivion ? oblivion : skyrim;
}

EntryBlock read_entries(const ListFamily& family, std::span<const ResolvedField> fields, const EntryContext& context) {
  EntryBlock out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const ResolvedField& f = fields[i];
    const Signature t = f.field.type;
    if (family.counter.value() != 0 && t == family.counter) {
      out.fields.push_back(i);
    } else if (t == family.entry && family.array) {
      for (std::uint32_t at = 0; at + 4 <= f.field.data.size(); at += 4) {
        ResolvedField one;
        one.field.type = t;
        one.field.data.assign(f.field.data.begin() + at, f.field.data.begin() + at + 4);
        one.source = f.source;
        if (const auto k = form_at(f, at)) one.forms.push_back({0, *k});
        out.entries.push_back(make_entry({std::move(one)}));
      }
      out.fields.push_back(i);
    } else if (t == family.entry) {
      out.entries.push_back(make_entry({f}));
      out.fields.push_back(i);
    } else if (family.companion.value() != 0 && t == family.companion && i > 0 &&
               fields[i - 1].field.type == family.entry && !out.entries.empty()) {
      // It belongs to the entry just read, and moves with it.
      std::vector<ResolvedField> parts = std::move(out.entries.back().parts);
      parts.push_back(f);
      resolve_coed_global(parts.back(), context);
      out.entries.back() = make_entry(std::move(parts));
      out.fields.push_back(i);
    }
  }
  return out;
}

bool same_entries(std::span<const ListEntry> a, std::span<const ListEntry> b) {
  if (a.size() != b.size()) return false;
  std::vector<std::string_view> va, vb;
  for (const ListEntry& e : a) va.push_back(e.value);
  for (const ListEntry& e : b) vb.push_back(e.value);
  std::sort(va.begin(), va.end());
  std::sort(vb.begin(), vb.end());
  return va == vb;
}

void sort_entries(const ListFamily& family, std::vector<ListEntry>& entries, const EntryContext& context) {
  switch (family.order) {
    case EntryOrder::Items:
      std::stable_sort(entries.begin(), entries.end(), item_order);
      return;
    case EntryOrder::Key:
    case EntryOrder::OblivionSpells:
      std::stable_sort(entries.begin(), entries.end(),
                       [](const ListEntry& a, const ListEntry& b) { return compare_key(a.key, b.key) < 0; });
      break;
  }
  if (family.order == EntryOrder::OblivionSpells)
    std::stable_partition(entries.begin(), entries.end(),
                          [&](const ListEntry& e) { return !e.key || context.type_of(*e.key) != kLVSP; });
}

std::size_t list_insertion_point(const ListFamily& family, std::span<const ResolvedField> fields,
                                 std::span<const ResolvedField> model) {
  const auto in_list = [&family](Signature t) {
    return t == family.entry || (family.counter.value() != 0 && t == family.counter) ||
           (family.companion.value() != 0 && t == family.companion);
  };
  std::size_t first = model.size();
  for (std::size_t i = 0; i < model.size(); ++i)
    if (in_list(model[i].field.type)) {
      first = i;
      break;
    }
  for (std::size_t j = first; j-- > 0;) {
    const Signature before = model[j].field.type;
    if (in_list(before)) continue;
    for (std::size_t k = fields.size(); k-- > 0;)
      if (fields[k].field.type == before) return k + 1;
  }
  return fields.size();
}

void write_entries(const ListFamily& family, std::vector<ResolvedField>& fields, const EntryBlock& old,
                   std::span<const ListEntry> entries, std::size_t insert_at, std::uint32_t source) {
  std::vector<ResolvedField> block;
  if (family.counter.value() != 0 && !entries.empty()) {
    ResolvedField counter;
    counter.field = Field::u32(family.counter, std::uint32_t(entries.size()));
    counter.source = source;
    block.push_back(std::move(counter));
  }
  if (family.array) {
    if (!entries.empty()) {
      ResolvedField all;
      all.field.type = family.entry;
      all.source = source;
      for (const ListEntry& e : entries) {
        const ResolvedField& one = e.parts.front();
        const std::uint32_t at = std::uint32_t(all.field.data.size());
        all.field.data.insert(all.field.data.end(), one.field.data.begin(), one.field.data.end());
        for (const auto& [offset, form] : one.forms) all.forms.push_back({at + offset, form});
      }
      block.push_back(std::move(all));
    }
  } else {
    for (const ListEntry& e : entries)
      for (const ResolvedField& p : e.parts) block.push_back(p);
  }
  const std::size_t at = old.fields.empty() ? std::min(insert_at, fields.size()) : old.fields.front();
  for (std::size_t k = old.fields.size(); k-- > 0;) fields.erase(fields.begin() + std::ptrdiff_t(old.fields[k]));
  fields.insert(fields.begin() + std::ptrdiff_t(at), std::make_move_iterator(block.begin()),
                std::make_move_iterator(block.end()));
}

std::string describe_entry(const ListFamily& family, const ListEntry& entry, const loadorder::LoadOrder& order) {
  std::string out = form_name(entry.key, order);
  const auto& d = entry.parts.front().field.data;
  const Signature t = family.entry;
  if (t == Signature("CNTO") && d.size() >= 8) out += fmt::format(" x{}", le::i32(d.data() + 4));
  else if ((t == Signature("SNAM") || t == Signature("PRKR")) && d.size() >= 5)
    out += fmt::format(" rank {}", t == Signature("SNAM") ? int(std::int8_t(d[4])) : int(d[4]));
  else if (t == Signature("XNAM") && d.size() >= 8) out += fmt::format(" modifier {}", le::i32(d.data() + 4));
  if (entry.parts.size() > 1) out += fmt::format(" (owner {})", form_name(form_at(entry.parts[1], 0), order));
  return out;
}

}  // namespace tesmod::patch
