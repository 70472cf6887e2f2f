#include "tesmod/fields/package.hpp"

namespace tesmod::fields {

std::vector<std::size_t> branch_depths(const std::vector<Branch>& tree) {
  std::vector<std::size_t> depths;
  std::vector<std::uint32_t> pending;  // children still to come at each open level
  for (const Branch& b : tree) {
    depths.push_back(pending.size());
    if (!pending.empty()) --pending.back();
    if (b.root && b.root->child_count > 0) pending.push_back(b.root->child_count);
    while (!pending.empty() && pending.back() == 0) pending.pop_back();
  }
  return depths;
}

void PackageData::set(PackageFlag f, bool on) {
  if (on) flags |= std::uint32_t(f);
  else flags &= ~std::uint32_t(f);
}

void PackageData::set(InterruptFlag f, bool on) {
  if (on) interrupt_flags = std::uint16_t(interrupt_flags | std::uint16_t(f));
  else interrupt_flags = std::uint16_t(interrupt_flags & ~std::uint16_t(f));
}

std::optional<PackageEvent>& Package::event(PackageEventKind kind) {
  switch (kind) {
    case PackageEventKind::Begin: return on_begin;
    case PackageEventKind::End: return on_end;
    case PackageEventKind::Change: break;
  }
  return on_change;
}

const std::optional<PackageEvent>& Package::event(PackageEventKind kind) const {
  return const_cast<Package*>(this)->event(kind);
}

namespace {

constexpr FlagName kPackageFlags[] = {
    {0x04, "must complete"},
    {0x08, "maintain speed at goal"},
    {0x40, "unlock doors at package start"},
    {0x80, "unlock doors on package change"},
    {0x400, "once per day"},
    {0x2000, "preferred speed"},
    {0x20000, "always sneak"},
    {0x40000, "allow swimming"},
    {0x100000, "ignore combat"},
    {0x200000, "weapons unequipped"},
    {0x800000, "weapon drawn"},
    {0x8000000, "no combat alert"},
    {0x20000000, "wear sleep outfit"},
};

constexpr FlagName kInterruptFlags[] = {
    {0x01, "hellos to player"},
    {0x02, "random conversations"},
    {0x04, "observe combat behavior"},
    {0x08, "greet corpse behavior"},
    {0x10, "reaction to player actions"},
    {0x20, "friendly fire comments"},
    {0x40, "aggro radius behavior"},
    {0x80, "allow idle chatter"},
    {0x200, "world interactions"},
};

constexpr FlagName kIdleFlags[] = {
    {0x01, "run in sequence"},
    {0x04, "do once"},
};

constexpr FlagName kBranchFlags[] = {
    {0x01, "success completes package"},
};

}  // namespace

std::span<const FlagName> package_flag_names() { return kPackageFlags; }
std::span<const FlagName> interrupt_flag_names() { return kInterruptFlags; }
std::span<const FlagName> idle_flag_names() { return kIdleFlags; }
std::span<const FlagName> branch_flag_names() { return kBranchFlags; }

std::optional<std::string_view> name_of(PackageType v) {
  switch (v) {
    case PackageType::Package: return "package";
    case PackageType::Template: return "package template";
  }
  return std::nullopt;
}

std::optional<std::string_view> name_of(InterruptOverride v) {
  switch (v) {
    case InterruptOverride::None: return "none";
    case InterruptOverride::Combat: return "combat";
  }
  return std::nullopt;
}

std::optional<std::string_view> name_of(PreferredSpeed v) {
  switch (v) {
    case PreferredSpeed::Walk: return "walk";
    case PreferredSpeed::Jog: return "jog";
    case PreferredSpeed::Run: return "run";
    case PreferredSpeed::FastWalk: return "fast walk";
  }
  return std::nullopt;
}

std::optional<std::string_view> name_of(DayOfWeek v) {
  switch (v) {
    case DayOfWeek::Any: return "any day";
    case DayOfWeek::Sundas: return "Sundas";
    case DayOfWeek::Morndas: return "Morndas";
    case DayOfWeek::Tirdas: return "Tirdas";
    case DayOfWeek::Middas: return "Middas";
    case DayOfWeek::Turdas: return "Turdas";
    case DayOfWeek::Fredas: return "Fredas";
    case DayOfWeek::Loredas: return "Loredas";
    case DayOfWeek::Weekdays: return "weekdays";
    case DayOfWeek::Weekends: return "weekends";
    case DayOfWeek::MorndasMiddasFredas: return "Morndas, Middas, Fredas";
    case DayOfWeek::TirdasTurdas: return "Tirdas, Turdas";
  }
  return std::nullopt;
}

std::optional<std::string_view> name_of(LocationType v) {
  switch (v) {
    case LocationType::NearReference: return "near reference";
    case LocationType::InCell: return "in cell";
    case LocationType::NearPackageStart: return "near package start location";
    case LocationType::NearEditorLocation: return "near editor location";
    case LocationType::NearLinkedReference: return "near linked reference";
    case LocationType::ReferenceAlias: return "reference alias";
    case LocationType::LocationAlias: return "location alias";
    case LocationType::NearSelf: return "near self";
  }
  return std::nullopt;
}

std::optional<std::string_view> name_of(TargetType v) {
  switch (v) {
    case TargetType::SpecificReference: return "specific reference";
    case TargetType::ObjectId: return "object id";
    case TargetType::ObjectType: return "object type";
    case TargetType::LinkedReference: return "linked reference";
    case TargetType::ReferenceAlias: return "reference alias";
    case TargetType::Self: return "self";
  }
  return std::nullopt;
}

std::optional<std::string_view> name_of(TopicType v) {
  switch (v) {
    case TopicType::Dialogue: return "dialogue";
    case TopicType::Subtype: return "subtype";
  }
  return std::nullopt;
}

std::string_view name_of(PackageEventKind v) {
  switch (v) {
    case PackageEventKind::Begin: return "on begin";
    case PackageEventKind::End: return "on end";
    case PackageEventKind::Change: break;
  }
  return "on change";
}

bool holds_form_id(LocationType type) {
  return type == LocationType::NearReference || type == LocationType::InCell ||
         type == LocationType::NearLinkedReference || type == LocationType::LocationAlias;
}

bool holds_form_id(TargetType type) {
  return type == TargetType::SpecificReference || type == TargetType::ObjectId || type == TargetType::LinkedReference;
}

bool value_unused(LocationType type) {
  return type == LocationType::NearPackageStart || type == LocationType::NearEditorLocation ||
         type == LocationType::NearSelf;
}

bool value_unused(TargetType type) { return type == TargetType::Self; }

}  // namespace tesmod::fields
