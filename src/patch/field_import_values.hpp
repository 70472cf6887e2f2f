// The values of the field imports' attributes (private to src/patch): where an attribute is in a
// record's fields, whether two records hold the same value of it, and setting a value taken from
// one record into another. Fields are compared as forms (ResolvedField), never as FormID bytes:
// two plugins store one form differently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "field_import_table.hpp"
#include "tesmod/fields/field_layout.hpp"
#include "tesmod/loadorder/resolved_record.hpp"

namespace tesmod::patch {

// Where an attribute's value is in a record's fields.
struct AttributeValue {
  struct Slot {
    std::size_t field = 0;
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
  };
  // Whole subrecords: the fields that hold it, in record order, each with its part (none: the
  // record has none of them, which is a value too).
  std::vector<std::pair<std::size_t, std::size_t>> fields;
  // Members: where each part's member is, when every part has one (found).
  std::vector<Slot> slots;
  bool found = true;
};

// A record's fields as the attributes read them. Members are read through the field layouts,
// each field walked once.
class AttributeReader {
 public:
  AttributeReader(Game game, Signature record_type, std::uint16_t form_version,
                  std::span<const loadorder::ResolvedField> fields);

  AttributeValue read(const ImportAttribute& attribute) const;
  std::span<const loadorder::ResolvedField> fields() const { return fields_; }
  // The field a part reads: the first of its signatures (in the order listed) that the record has
  // in the part's region.
  std::optional<std::size_t> field_of(const ImportPart& part) const;
  // Where a member is in field i (offset, size), when a layout reads the field and has it.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> member(std::size_t i, std::string_view name) const;

 private:
  bool in_region(const ImportPart& part, std::size_t i) const;
  struct Walked {
    const fields::FieldLayout* layout = nullptr;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> members;  // by the layout's member index
  };
  Game game_;
  Signature type_;
  std::uint16_t form_version_;
  std::span<const loadorder::ResolvedField> fields_;
  std::vector<fields::FieldRef> refs_;  // the fields, for the layouts' conditions
  mutable std::unordered_map<std::size_t, Walked> walked_;
};

// Whether two records hold the same value. loose: Graphics' rule for a `~` attribute (the path's
// text in any case; a model: its path alone).
bool same_value(const ImportAttribute& attribute, std::span<const loadorder::ResolvedField> a, const AttributeValue& va,
                std::span<const loadorder::ResolvedField> b, const AttributeValue& vb, bool loose = false);

// A value taken from a plugin's record, kept after the record is gone.
struct TakenValue {
  std::uint32_t plugin = 0;
  std::vector<loadorder::ResolvedField> fields;  // the fields it is in, in record order
  AttributeValue value;                          // indices into fields
  std::vector<Signature> order;                  // the source record's fields (for placing them)
  std::vector<std::size_t> at;                   // where each of fields was in it
};
TakenValue take_value(std::uint32_t plugin, const AttributeReader& source, const AttributeValue& value);

// Sets the value into a record's fields. Whole subrecords replace the record's (where the first
// of them was; if it had none, after the last field that precedes them in the source record);
// a member is spliced into the record's field, its FormIDs moved with it. Returns what was done
// otherwise: a field taken whole (the record lacks it, or its member does not read the same).
std::vector<std::string> set_value(const ImportAttribute& attribute, const TakenValue& taken, Game game,
                                   Signature record_type, std::uint16_t form_version,
                                   std::vector<loadorder::ResolvedField>& fields);

}  // namespace tesmod::patch
