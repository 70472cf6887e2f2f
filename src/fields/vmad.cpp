#include "tesmod/fields/vmad.hpp"

namespace tesmod::fields {

std::string_view to_string(PropertyType type) {
  switch (type) {
    case PropertyType::Object: return "object";
    case PropertyType::String: return "string";
    case PropertyType::Int: return "int";
    case PropertyType::Float: return "float";
    case PropertyType::Bool: return "bool";
    case PropertyType::ObjectArray: return "object[]";
    case PropertyType::StringArray: return "string[]";
    case PropertyType::IntArray: return "int[]";
    case PropertyType::FloatArray: return "float[]";
    case PropertyType::BoolArray: return "bool[]";
  }
  return "unknown";
}

bool is_array(PropertyType type) { return static_cast<std::uint8_t>(type) >= 11; }

PropertyType type_of(const PropertyValue& value) {
  // The variant's alternatives are in type order: 1-5, then the arrays 11-15.
  const auto i = static_cast<std::uint8_t>(value.index());
  return static_cast<PropertyType>(i < 5 ? i + 1 : i - 5 + 11);
}

Signature record_type_of(const FragmentSection& section) {
  static constexpr Signature kTypes[] = {"INFO", "PACK", "PERK", "QUST", "SCEN"};
  static_assert(std::variant_size_v<FragmentSection> == std::size(kTypes));
  return kTypes[section.index()];
}

bool has_fragment_section(Signature record_type) {
  return record_type == Signature("INFO") || record_type == Signature("PACK") || record_type == Signature("PERK") ||
         record_type == Signature("QUST") || record_type == Signature("SCEN");
}

}  // namespace tesmod::fields
