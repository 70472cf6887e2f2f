// Oblivion PACK records: EDID PKDT PLDT PSDT PTDT CTDA..., each field once except the conditions.
#include "tesmod/fields/package_oblivion.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "package_field_errors.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod::fields {
namespace {

constexpr Signature EDID{"EDID"}, PKDT{"PKDT"}, PLDT{"PLDT"}, PSDT{"PSDT"}, PTDT{"PTDT"}, CTDA{"CTDA"}, CTDT{"CTDT"};

// Place of a field in the Construction Set's order; -1 for fields tesmod does not know here.
int rank(Signature s) {
  if (s == EDID) return 0;
  if (s == PKDT) return 1;
  if (s == PLDT) return 2;
  if (s == PSDT) return 3;
  if (s == PTDT) return 4;
  if (s == CTDA || s == CTDT) return 5;
  return -1;
}

Field triple(Signature type, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  Field f{type, std::vector<std::uint8_t>(12)};
  le::store(f.data.data(), a);
  le::store(f.data.data() + 4, b);
  le::store(f.data.data() + 8, c);
  return f;
}

constexpr FlagName kFlags[] = {
    {0x01, "offers services"},
    {0x02, "must reach location"},
    {0x04, "must complete"},
    {0x08, "lock doors at package start"},
    {0x10, "lock doors at package end"},
    {0x20, "lock doors at location"},
    {0x40, "unlock doors at package start"},
    {0x80, "unlock doors at package end"},
    {0x100, "unlock doors at location"},
    {0x200, "continue if PC near"},
    {0x400, "once per day"},
    {0x1000, "skip fallout behavior"},
    {0x2000, "always run"},
    {0x20000, "always sneak"},
    {0x40000, "allow swimming"},
    {0x80000, "allow falls"},
    {0x100000, "armor unequipped"},
    {0x200000, "weapons unequipped"},
    {0x400000, "defensive combat"},
    {0x800000, "use horse"},
    {0x1000000, "no idle anims"},
};

}  // namespace

void OblivionPackageData::set(OblivionPackageFlag f, bool on) {
  if (on) flags |= std::uint32_t(f);
  else flags &= ~std::uint32_t(f);
}

OblivionPackage decode_oblivion_package(std::span<const Field> fields, const ErrorContext& where,
                                        const FieldLocations& locations) {
  OblivionPackage p;
  const auto fail = [&](std::size_t i, std::string detail) {
    fail_at_field(where, locations, fields.size(), i, std::move(detail));
  };
  const auto expect_size = [&](std::size_t i, std::size_t n, std::string_view what) {
    if (fields[i].data.size() != n) {
      fail(i, fmt::format("{} field of {} bytes; expected {} bytes ({})", fields[i].type.str(), fields[i].data.size(), n,
                          what));
    }
  };
  int last_rank = -1;
  std::size_t last_known = 0;
  bool has_pkdt = false, has_psdt = false;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const Field& f = fields[i];
    const int r = rank(f.type);
    if (r < 0) {
      p.unknown_fields.push_back({i, f});
      continue;
    }
    if (r < last_rank || (r == last_rank && r != 5)) {
      fail(i, fmt::format("{} field out of order (after {}); expected EDID PKDT PLDT PSDT PTDT CTDA, each field once "
                          "except the conditions",
                          f.type.str(), fields[last_known].type.str()));
    }
    last_rank = r;
    last_known = i;
    const std::uint8_t* d = f.data.data();
    if (f.oversize && r != 5) fail(i, fmt::format("{} field written with an XXXX size prefix", f.type.str()));
    if (f.type == EDID) {
      if (f.data.empty() || f.data.back() != 0) fail(i, "EDID field does not end with a zero byte; expected a zero-terminated string");
      p.editor_id = std::string(reinterpret_cast<const char*>(d), f.data.size() - 1);
    } else if (f.type == PKDT) {
      if (f.data.size() == 4) {
        p.data = {le::u16(d), OblivionPackageType(d[2]), {d[3], 0, 0}, true};
      } else {
        expect_size(i, 8, "flags, type and 3 unused bytes (or the older 4-byte form)");
        p.data = {le::u32(d), OblivionPackageType(d[4]), {d[5], d[6], d[7]}, false};
      }
      has_pkdt = true;
    } else if (f.type == PLDT) {
      expect_size(i, 12, "location: type, value, radius");
      p.location = OblivionLocation{OblivionLocationType(le::i32(d)), le::u32(d + 4), le::i32(d + 8)};
    } else if (f.type == PSDT) {
      expect_size(i, 8, "schedule: month, day of week, date, hour, duration");
      p.schedule = {std::int8_t(d[0]), DayOfWeek(std::int8_t(d[1])), d[2], std::int8_t(d[3]), le::i32(d + 4)};
      has_psdt = true;
    } else if (f.type == PTDT) {
      expect_size(i, 12, "target: type, value, count");
      p.target = OblivionTarget{OblivionTargetType(le::i32(d)), le::u32(d + 4), le::i32(d + 8)};
    } else {
      // Conditions are decoded elsewhere (fields/condition.hpp); 24 bytes, or 20 in the older CTDT.
      if (f.data.size() != 24 && f.data.size() != 20) {
        fail(i, fmt::format("{} field of {} bytes; expected a 24-byte (or older 20-byte) condition", f.type.str(),
                            f.data.size()));
      }
      p.conditions.push_back(PackageCondition{{f}});
    }
  }
  if (!has_pkdt) fail(fields.size(), "expected a PKDT field in the package; the record ends without one");
  if (!has_psdt) fail(fields.size(), "expected a PSDT field in the package; the record ends without one");
  return p;
}

std::vector<Field> encode_oblivion_package(const OblivionPackage& p) {
  std::vector<Field> out;
  if (p.editor_id) out.push_back(Field::zstring(EDID, *p.editor_id));
  const OblivionPackageData& d = p.data;
  if (d.short_form) {
    if (d.flags > 0xFFFF) throw std::length_error("the 4-byte PKDT holds 16 bits of flags");
    Field f{PKDT, std::vector<std::uint8_t>(4)};
    le::store(f.data.data(), std::uint16_t(d.flags));
    f.data[2] = std::uint8_t(d.type);
    f.data[3] = d.unused[0];
    out.push_back(std::move(f));
  } else {
    Field f{PKDT, std::vector<std::uint8_t>(8)};
    le::store(f.data.data(), d.flags);
    f.data[4] = std::uint8_t(d.type);
    std::memcpy(f.data.data() + 5, d.unused.data(), 3);
    out.push_back(std::move(f));
  }
  if (p.location) out.push_back(triple(PLDT, std::uint32_t(p.location->type), p.location->value, std::uint32_t(p.location->radius)));
  const OblivionSchedule& s = p.schedule;
  Field psdt{PSDT, {std::uint8_t(s.month), std::uint8_t(s.day_of_week), s.date, std::uint8_t(s.hour), 0, 0, 0, 0}};
  le::store(psdt.data.data() + 4, s.duration);
  out.push_back(std::move(psdt));
  if (p.target) out.push_back(triple(PTDT, std::uint32_t(p.target->type), p.target->value, std::uint32_t(p.target->count)));
  for (const PackageCondition& c : p.conditions) out.insert(out.end(), c.fields.begin(), c.fields.end());
  // Unknown fields back at their indices (ascending, so that earlier ones are in place).
  std::vector<UnknownField> unknown = p.unknown_fields;
  std::stable_sort(unknown.begin(), unknown.end(), [](const UnknownField& a, const UnknownField& b) { return a.index < b.index; });
  for (const UnknownField& u : unknown) out.insert(out.begin() + std::ptrdiff_t(std::min(u.index, out.size())), u.field);
  return out;
}

OblivionPackage read_oblivion_package(const PluginFile& file, const IndexEntry& entry, Inflater& inflater) {
  const RecordFields r = read_record_fields(file, entry, inflater);
  return decode_oblivion_package(r.fields, r.where, r.locations);
}

std::span<const FlagName> oblivion_package_flag_names() { return kFlags; }

std::optional<std::string_view> name_of(OblivionPackageType v) {
  static constexpr std::string_view kNames[] = {"find",   "follow",    "escort",      "eat",    "sleep",
                                                "wander", "travel",    "accompany",   "use item at",
                                                "ambush", "flee not combat", "cast magic"};
  const auto i = std::size_t(v);
  if (i < std::size(kNames)) return kNames[i];
  return std::nullopt;
}

std::optional<std::string_view> name_of(OblivionLocationType v) {
  switch (v) {
    case OblivionLocationType::NearReference: return "near reference";
    case OblivionLocationType::InCell: return "in cell";
    case OblivionLocationType::NearCurrentLocation: return "near current location";
    case OblivionLocationType::NearEditorLocation: return "near editor location";
    case OblivionLocationType::ObjectId: return "object id";
    case OblivionLocationType::ObjectType: return "object type";
  }
  return std::nullopt;
}

std::optional<std::string_view> name_of(OblivionTargetType v) {
  switch (v) {
    case OblivionTargetType::SpecificReference: return "specific reference";
    case OblivionTargetType::ObjectId: return "object id";
    case OblivionTargetType::ObjectType: return "object type";
  }
  return std::nullopt;
}

bool holds_form_id(OblivionLocationType type) {
  return type == OblivionLocationType::NearReference || type == OblivionLocationType::InCell ||
         type == OblivionLocationType::ObjectId;
}

bool holds_form_id(OblivionTargetType type) {
  return type == OblivionTargetType::SpecificReference || type == OblivionTargetType::ObjectId;
}

}  // namespace tesmod::fields
