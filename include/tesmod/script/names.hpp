// What the names in a script refer to outside it: EditorIDs of forms in the plugin and its
// masters, the kind of each form, and the local variables of the scripts attached to them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tesmod/plugin/signature.hpp"
#include "tesmod/script/script_data.hpp"

namespace tesmod::script {

inline constexpr std::uint32_t kPlayerRef = 0x14;      // how scripts store "player"
inline constexpr std::uint32_t kPlayerBase = 0x07;

struct FormInfo {
  std::uint32_t form_id = 0;
  Signature type;         // record type of the form
  Signature base_type;    // for references (REFR/ACHR/ACRE): the record type of the base form
  std::uint32_t script = 0;  // the SCPT attached (SCRI; for references, the base form's), 0 if none
};

class NameSource {
 public:
  virtual ~NameSource() = default;
  // A form by EditorID (case-insensitive), as a FormID relative to the plugin being compiled.
  virtual std::optional<FormInfo> find(std::string_view editor_id) const = 0;
  virtual std::optional<FormInfo> form(std::uint32_t form_id) const = 0;
  virtual std::optional<std::string> editor_id(std::uint32_t form_id) const = 0;
  // The decoded script of a SCPT form, if it is known.
  virtual const ScriptData* script(std::uint32_t script_form_id) const = 0;
};

}  // namespace tesmod::script
