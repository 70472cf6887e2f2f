// Typed fields in Python: record[sig] and friends, a field's value read through its layout
// (fields/field_value.hpp) as Python objects, and written back from them. Bound on tesmod.Record
// in plugin_binding.cpp.
#pragma once
#include <pybind11/pybind11.h>

#include <string>

#include "plugin_handles.hpp"

namespace tesmod::python {

// record[sig]: the value (a list of them when the record holds the field more than once);
// KeyError naming the record and the field when it holds none.
py::object typed_value(const PyRecord& record, const std::string& sig, const std::string& encoding);
// record.get(sig, default)
py::object typed_value_or(const PyRecord& record, const std::string& sig, const py::object& fallback,
                          const std::string& encoding);
// record.get_all(sig): one value per field, in order.
py::list typed_values(const PyRecord& record, const std::string& sig, const std::string& encoding);
// sig in record
bool has_field(const PyRecord& record, const std::string& sig);
// record.typed(): {sig: value, or a list of them for a repeated field}, in field order.
py::dict typed_fields(const PyRecord& record, const std::string& encoding);

// record[sig] = value: the field (or, when the record holds several, a list of values for them).
void set_typed_value(PyRecord& record, const std::string& sig, const py::object& value, const std::string& encoding);
// record.set_all(sig, values): exactly these fields of that type (none for an empty list).
void set_typed_values(PyRecord& record, const std::string& sig, const py::object& values, const std::string& encoding);
// del record[sig]: every field of that type; KeyError when there is none.
void delete_fields(PyRecord& record, const std::string& sig);

// record.form_key: the record's own form (tesmod.FormKey).
py::object record_form_key(const PyRecord& record);

}  // namespace tesmod::python
