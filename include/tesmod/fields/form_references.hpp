// The FormIDs a record's fields hold, wherever tesmod knows of them: the members its field
// layouts (fields/field_layout.hpp) type as formid, the forms and globals of conditions (CTDA,
// CTDT), the objects of Papyrus properties and quest aliases (VMAD), package locations, targets,
// topics, idles and templates (PACK), and Oblivion's script references (SCRO, by layout).
// Used to check references across a load order and to compare records of plugins whose master
// lists differ.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/fields/field_layout.hpp"
#include "tesmod/plugin/field.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod::fields {

// Where a FormID sits and what it may name.
struct FormReference {
  Signature field;             // the field that holds it
  std::size_t field_index = 0;  // among the record's fields
  std::string_view what;       // e.g. "race", "condition GetIsID parameter 1", "VMAD property 'Ally'" (valid during the call)
  std::span<const Signature> types;  // record types it may name (from the layout); empty: any
  // Where its four bytes start in the field's data; kUnknownOffset where the field is decoded and
  // encoded whole (VMAD), so that no fixed place holds it.
  std::size_t offset = kUnknownOffset;
  static constexpr std::size_t kUnknownOffset = ~std::size_t{0};
};

struct FormReferenceOptions {
  bool localized = false;  // Skyrim: lstrings are 4-byte string ids (decides which layouts fit)
  std::uint16_t form_version = 0;  // the record header's, for layouts that depend on it (0: not known)
};

// Calls visit for every FormID in the fields, in field order; zero FormIDs (none) are skipped.
// visit may change the value: the field is then rewritten (in place for fixed positions;
// VMAD fields are decoded and encoded again). A field that does not read as its kind (a
// condition of the wrong size, a VMAD that does not decode) is passed over. Returns whether a
// field changed.
bool visit_form_references(Game game, Signature record_type, std::vector<Field>& fields,
                           const std::function<void(std::uint32_t& form_id, const FormReference& where)>& visit,
                           const FormReferenceOptions& options = {});

// What read_form_references finds, in field order.
class FormReferenceReader {
 public:
  virtual void form_id(std::uint32_t form_id, const FormReference& where) = 0;
  // A field read by layout (every field but conditions, VMAD and Skyrim's package fields), with
  // the layout chosen for it (nullptr when none fits) and the site it was chosen at: a caller that
  // checks values reads it here rather than choosing again.
  virtual void layout(std::size_t field_index, const FieldLayout* layout, const FieldSite& site) {
    (void)field_index, (void)layout, (void)site;
  }

 protected:
  ~FormReferenceReader() = default;
};

// The FormIDs visit_form_references finds, read from views of the fields (nothing copied or
// written).
void read_form_references(Game game, Signature record_type, std::span<const FieldRef> fields,
                          FormReferenceReader& reader, const FormReferenceOptions& options = {});

}  // namespace tesmod::fields
