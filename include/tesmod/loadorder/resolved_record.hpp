// A record's fields with every FormID they hold known as the form it names (a FormKey), so that
// fields read from plugins whose master lists differ can be compared and put together, and
// written under another plugin's master list (a patch's). Where the FormIDs are comes from the
// field layouts, conditions, VMAD and packages (fields/form_references.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/plugin/field.hpp"
#include "tesmod/plugin/record_header.hpp"

namespace tesmod::loadorder {

struct ResolvedField {
  Field field;               // as stored by `source`: its FormIDs are rewritten when written
  std::uint32_t source = 0;  // the plugin (position) it was read from
  // Its FormIDs in the order fields/form_references.hpp visits them: where each starts in the
  // data and the form it names (zero FormIDs, "none", are not listed).
  std::vector<std::pair<std::uint32_t, FormKey>> forms;
  // Some FormID has no fixed place (a VMAD object): the field is decoded to rewrite them.
  bool opaque = false;

  // The same value: the same bytes apart from the FormIDs, and the same forms in the same places.
  bool same_as(const ResolvedField& other) const;
};

struct ResolvedRecord {
  RecordVersion version;  // where it was read from
  FormKey form;
  RecordHeader header;    // as stored (data_size is recomputed when written)
  bool localized = false;  // the source plugin keeps lstrings as string ids (Skyrim)
  std::vector<ResolvedField> fields;

  // The first field of this type, if any.
  const ResolvedField* find(Signature type) const;
};

// Reads versions of records as ResolvedRecords. Throws tesmod::Error (file, offset, record) when a
// record does not read or a FormID names a master that is not in the load order.
class RecordResolver {
 public:
  explicit RecordResolver(const LoadOrder& order) : order_(order) {}
  ResolvedRecord resolve(const RecordVersion& version, Inflater& inflater) const;
  // One field read alone (for fields whose FormIDs do not depend on the fields before them).
  ResolvedField resolve_field(Signature record_type, Field field, std::uint32_t source,
                              const ErrorContext& where) const;
  const LoadOrder& order() const { return order_; }

 private:
  void resolve_fields(Signature record_type, std::vector<Field> fields, std::uint32_t source,
                      const ErrorContext& where, std::vector<ResolvedField>& out) const;
  const LoadOrder& order_;
};

// The fields as a plugin stores them whose FormIDs `stored` gives for each form.
std::vector<Field> write_fields(Game game, Signature record_type, std::span<const ResolvedField> fields,
                                const std::function<std::uint32_t(const FormKey&)>& stored);

// Every form the fields name, in order (with repeats).
void collect_forms(std::span<const ResolvedField> fields, std::vector<FormKey>& out);

}  // namespace tesmod::loadorder
