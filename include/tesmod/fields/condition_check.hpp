// The deep checks of a plugin's conditions: every CTDA/CTDT (with its CIS1/CIS2) decoded and
// encoded again, and rendered as text, parsed and encoded again; both must give the stored bytes.
#pragma once

#include "tesmod/fields/field_check.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/form_namer.hpp"

namespace tesmod::fields {

struct ConditionChecks {
  FieldCheck ctda;       // decode then encode
  FieldCheck ctda_text;  // bytes -> text -> bytes
};

// Failures name the record and the file offset of the condition field (or of the first differing
// byte); records whose fields cannot be read are listed under ctda without being counted.
ConditionChecks check_conditions(const PluginFile& file, const text::FormNamer& namer);

}  // namespace tesmod::fields
