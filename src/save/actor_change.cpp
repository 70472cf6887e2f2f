#include "tesmod/save/actor_change.hpp"

#include <fmt/format.h>

#include <cstring>

#include "tesmod/io/byte_reader.hpp"
#include "tesmod/io/counted.hpp"

namespace tesmod::save {

float ActorValueModifier::value() const {
  float v;
  std::memcpy(&v, &value_bits, sizeof v);
  return v;
}

std::uint32_t ActorChange::flags() const {
  using namespace actor_flags;
  std::uint32_t f = unknown_flags;
  if (form_flags) f |= kFormFlags;
  if (attributes) f |= kAttributes;
  if (base_data) f |= kBaseData;
  if (factions) f |= kFactions;
  if (spells) f |= kSpells;
  if (ai_data) f |= kAiData;
  if (base_health) f |= kBaseHealth;
  if (modifiers) f |= kModifiers;
  if (full_name) f |= kFullName;
  if (skills) f |= kSkills;
  if (combat_style) f |= kCombatStyle;
  return f;
}

namespace {

template <std::size_t N>
std::array<std::uint8_t, N> read_array(ByteReader& r, std::string_view what) {
  std::array<std::uint8_t, N> out;
  const auto b = r.bytes(N, what);
  std::memcpy(out.data(), b.data(), N);
  return out;
}

}  // namespace

ActorChange decode_actor_change(std::span<const std::uint8_t> data, std::uint32_t flags, const ErrorContext& where,
                                std::uint64_t data_offset) {
  using namespace actor_flags;
  // Without a file offset, errors name the byte within the data.
  ByteReader r(data, where, data_offset == Error::kNoOffset ? 0 : data_offset);
  ActorChange c;
  c.unknown_flags = flags & ~kKnown;
  if (flags & kFormFlags) c.form_flags = r.u32("the Form Flags block (flag 0x1)");
  if (flags & kAttributes) c.attributes = read_array<8>(r, "the Base Attributes block (flag 0x8)");
  if (flags & kBaseData) {
    ActorBaseData b;
    b.flags = r.u32("the Base Data block (flag 0x10)");
    b.magicka = r.u16("the Base Data block's magicka");
    b.fatigue = r.u16("the Base Data block's fatigue");
    b.barter_gold = r.u16("the Base Data block's barter gold");
    b.level = static_cast<std::int16_t>(r.u16("the Base Data block's level"));
    b.calc_min = r.u16("the Base Data block's calcMin");
    b.calc_max = r.u16("the Base Data block's calcMax");
    c.base_data = b;
  }
  if (flags & kFactions) {
    const std::uint16_t n = r.u16("the Factions block's count (flag 0x40)");
    if (std::size_t(n) * 5 > r.remaining())
      r.fail(fmt::format("the Factions block lists {} ({}) but only {} remain", counted(n, "faction"), counted(n * 5, "byte"),
                         counted(r.remaining(), "byte")));
    std::vector<FactionRank>& list = c.factions.emplace();
    list.reserve(n);
    for (unsigned i = 0; i < n; ++i) {
      FactionRank f;
      f.faction = r.u32("a faction iref");
      f.rank = static_cast<std::int8_t>(r.u8("a faction rank"));
      list.push_back(f);
    }
  }
  if (flags & kSpells) {
    const std::uint16_t n = r.u16("the Spell List block's count (flag 0x20)");
    if (std::size_t(n) * 4 > r.remaining())
      r.fail(fmt::format("the Spell List block lists {} ({}) but only {} remain", counted(n, "spell"), counted(n * 4, "byte"),
                         counted(r.remaining(), "byte")));
    std::vector<std::uint32_t>& list = c.spells.emplace(n);
    const auto irefs = r.bytes(std::size_t(n) * 4, "the spell irefs");
    if (n) std::memcpy(list.data(), irefs.data(), irefs.size());
  }
  if (flags & kAiData) c.ai_data = read_array<4>(r, "the AI Data block (flag 0x100)");
  if (flags & kBaseHealth) c.base_health = r.u32("the Base Health block (flag 0x4)");
  if (flags & kModifiers) {
    const std::uint16_t n = r.u16("the Base Modifiers block's count (flag 0x10000000)");
    if (std::size_t(n) * 5 > r.remaining())
      r.fail(fmt::format("the Base Modifiers block lists {} ({}) but only {} remain", counted(n, "modifier"),
                         counted(n * 5, "byte"), counted(r.remaining(), "byte")));
    std::vector<ActorValueModifier>& list = c.modifiers.emplace();
    list.reserve(n);
    for (unsigned i = 0; i < n; ++i) {
      ActorValueModifier m;
      m.actor_value = r.u8("a modifier's actor value");
      m.value_bits = r.u32("a modifier's value");
      list.push_back(m);
    }
  }
  if (flags & kFullName) {
    const std::uint8_t n = r.u8("the Full Name block's length (flag 0x80)");
    const auto b = r.bytes(n, "the Full Name block's text");
    c.full_name = std::string(b.begin(), b.end());
  }
  if (flags & kSkills) c.skills = read_array<21>(r, "the Skills block (flag 0x200)");
  if (flags & kCombatStyle) c.combat_style = r.u32("the Combat Style block (flag 0x400)");
  if (c.unknown_flags) {
    const auto rest = r.bytes(r.remaining(), "the blocks of unknown flags");
    c.unknown_data.assign(rest.begin(), rest.end());
  } else if (!r.at_end()) {
    r.fail(fmt::format("{} {} the last block that the flags 0x{:08X} call for", counted(r.remaining(), "byte"),
                       r.remaining() == 1 ? "follows" : "follow", flags));
  }
  return c;
}

ActorChange decode_actor_change(const ChangeRecord& record, const std::string& file) {
  return decode_actor_change(record.data(), record.flags, ErrorContext{file, record.offset, record.ref()},
                             record.data_offset());
}

namespace {

class Bytes {
 public:
  template <class T>
  void put(T v) {
    std::uint8_t b[sizeof(T)];
    std::memcpy(b, &v, sizeof v);
    out.insert(out.end(), b, b + sizeof b);
  }
  void raw(std::span<const std::uint8_t> b) { out.insert(out.end(), b.begin(), b.end()); }
  std::vector<std::uint8_t> out;
};

}  // namespace

std::vector<std::uint8_t> encode_actor_change(const ActorChange& c) {
  Bytes o;
  if (c.form_flags) o.put(*c.form_flags);
  if (c.attributes) o.raw(*c.attributes);
  if (c.base_data) {
    const ActorBaseData& b = *c.base_data;
    o.put(b.flags);
    o.put(b.magicka);
    o.put(b.fatigue);
    o.put(b.barter_gold);
    o.put(b.level);
    o.put(b.calc_min);
    o.put(b.calc_max);
  }
  if (c.factions) {
    o.put(static_cast<std::uint16_t>(c.factions->size()));
    for (const FactionRank& f : *c.factions) {
      o.put(f.faction);
      o.put(f.rank);
    }
  }
  if (c.spells) {
    o.put(static_cast<std::uint16_t>(c.spells->size()));
    for (std::uint32_t s : *c.spells) o.put(s);
  }
  if (c.ai_data) o.raw(*c.ai_data);
  if (c.base_health) o.put(*c.base_health);
  if (c.modifiers) {
    o.put(static_cast<std::uint16_t>(c.modifiers->size()));
    for (const ActorValueModifier& m : *c.modifiers) {
      o.put(m.actor_value);
      o.put(m.value_bits);
    }
  }
  if (c.full_name) {
    o.put(static_cast<std::uint8_t>(c.full_name->size()));
    o.raw({reinterpret_cast<const std::uint8_t*>(c.full_name->data()), c.full_name->size()});
  }
  if (c.skills) o.raw(*c.skills);
  if (c.combat_style) o.put(*c.combat_style);
  o.raw(c.unknown_data);
  return std::move(o.out);
}

}  // namespace tesmod::save
