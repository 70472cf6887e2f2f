// Plugins in Python. A Plugin is the mapped file and its index (PluginFile, or for a lazy open a
// PluginOutline whose groups are indexed on demand); until the first edit, Records are
// (plugin, index entry) pairs, so iterating creates no copies and filtering by type
// happens in C++, and a Field's bytes are a view of the mapped file (or of the record's inflated
// body) kept alive by the Field. The first edit builds the editable model (tesmod::Plugin, whose
// unedited records stay views of the file); from then on a Record is found by its FormID, and
// Fields are copies, so nothing Python holds can point into memory an edit frees.
#include "plugin_binding.hpp"

#include "clean_binding.hpp"
#include "field_value_binding.hpp"
#include "plugin_handles.hpp"

namespace py = pybind11;

namespace tesmod::python {

void bind_plugin(py::module_& m) {
  py::class_<PyField>(m, "Field", py::buffer_protocol(),
                      "One field (subrecord) of a record: its signature and bytes. The bytes are a "
                      "read-only view of the file (or of the record's inflated body).")
      .def_buffer([](PyField& f) {
        return py::buffer_info(const_cast<std::uint8_t*>(f.data().data()), 1, py::format_descriptor<std::uint8_t>::format(),
                               1, {py::ssize_t(f.data().size())}, {py::ssize_t(1)}, /*readonly=*/true);
      })
      .def_property_readonly("signature", &PyField::signature, "The field type, e.g. 'EDID'.")
      .def_property_readonly("data", [](py::object self) { return py::memoryview(self); },
                             "The bytes as a read-only memoryview (no copy).")
      .def_property_readonly("oversize", &PyField::oversize, "Stored with an XXXX size prefix.")
      .def("__len__", [](const PyField& f) { return f.data().size(); })
      .def("__bytes__", &PyField::as_bytes)
      .def("as_bytes", &PyField::as_bytes, "A copy of the bytes.")
      .def("as_string", &PyField::as_string, py::arg("encoding") = "cp1252",
           "The bytes up to the trailing zeros, decoded (the plugin's code page, cp1252 unless given).")
      .def("as_int", &PyField::as_int, "A little-endian signed integer of 1, 2, 4 or 8 bytes.")
      .def("as_uint", &PyField::as_uint, "A little-endian unsigned integer of 1, 2, 4 or 8 bytes.")
      .def("as_float", &PyField::as_float, "A float of 4 or 8 bytes.")
      .def("as_form_id", &PyField::as_form_id, "A FormID (4 bytes).")
      .def("__repr__", [](const PyField& f) {
        return "<tesmod.Field " + f.signature() + ", " + std::to_string(f.data().size()) + " bytes>";
      });

  py::class_<PyRecord>(m, "Record", "A record of an open plugin.")
      .def_property_readonly("type", &PyRecord::type, "The record type, e.g. 'NPC_'.")
      .def_property_readonly("form_id", &PyRecord::form_id)
      .def_property_readonly("flags", &PyRecord::flags, "The header flags.")
      .def_property_readonly("compressed", &PyRecord::compressed)
      .def_property_readonly("offset", &PyRecord::offset, "Byte offset of the record header in the file.")
      .def_property_readonly("editor_id", &PyRecord::editor_id,
                             "The EDID as a string, or None (compressed records are inflated only as far as it).")
      .def_property_readonly("fields", &PyRecord::fields, "The fields in stored order (read on each access).")
      .def("field", &PyRecord::field, py::arg("signature"), "The first field of this type, or None.")
      .def("set_field", &PyRecord::set_field, py::arg("signature"), py::arg("value"), py::arg("encoding") = "cp1252",
           "Replaces the first field of this type, or appends one. value: bytes-like, or str (stored "
           "zero-terminated in encoding).")
      .def("add_field", &PyRecord::add_field, py::arg("signature"), py::arg("value"), py::arg("encoding") = "cp1252",
           "Appends a field.")
      .def("remove_field", &PyRecord::remove_field, py::arg("signature"),
           "Removes every field of this type; returns how many.")
      .def("set_fields", &PyRecord::set_fields, py::arg("fields"), py::arg("encoding") = "cp1252",
           "Replaces all fields with (signature, value) pairs, in order.")
      .def("set_flags", &PyRecord::set_flags, py::arg("flags"),
           "Sets the header flags (setting or clearing the compressed bit re-encodes the body).")
      .def("set_compressed", &PyRecord::set_compressed, py::arg("compressed"),
           "Compresses or decompresses the record when written.")
      // Typed fields (field_value_binding.cpp).
      .def("__getitem__", [](const PyRecord& r, const std::string& sig) { return typed_value(r, sig, "cp1252"); },
           py::arg("signature"),
           "The field's value read through its layout: a dict {member: value} in layout order, or the bare value "
           "when the layout has one member (EDID: str, KWDA: [FormKey, ...]). int, float, str (cp1252), FormKey "
           "(None for a null FormID), bytes, an enum's label (int when it has none), flags as a set of labels "
           "(plus an int per unnamed bit), list, dict; an lstring of a localized plugin is its string id (int). "
           "A field no layout reads, and conditions (CTDA/CTDT/CIS1/CIS2), VMAD and a package's fields (see "
           "conditions(), vmad(), package()), are bytes. A list of values when the record holds the field more "
           "than once; KeyError when it holds none.")
      .def("__setitem__",
           [](PyRecord& r, const std::string& sig, const py::object& value) { set_typed_value(r, sig, value, "cp1252"); },
           py::arg("signature"), py::arg("value"),
           "Writes the field through its layout from a value as record[sig] gives it; what the value leaves "
           "unchanged keeps its bytes. Numbers, str (cp1252), FormKey or None, an enum label or int, flags as a set "
           "(or list) of labels and ints or an int, bytes, list, dict (members left out keep their value). bytes "
           "for a field are stored as they are. A record holding the field several times takes a list of values "
           "(see set_all). An absent field is added with the first layout that takes the value. Counts kept in "
           "other fields (KSIZ, COCT, ...) are not changed. TypeError for a value of the wrong type, ValueError "
           "for one out of range (an unknown label, a FormKey of a plugin that is not a master), naming the "
           "field and member.")
      .def("__delitem__", &delete_fields, py::arg("signature"),
           "Removes every field of this type; KeyError when there is none.")
      .def("__contains__", &has_field, py::arg("signature"), "Whether the record holds a field of this type.")
      .def("get", &typed_value_or, py::arg("signature"), py::arg("default") = py::none(), py::kw_only(),
           py::arg("encoding") = "cp1252", "record[signature], or default when the record has no such field.")
      .def("get_all", &typed_values, py::arg("signature"), py::kw_only(), py::arg("encoding") = "cp1252",
           "The values of every field of this type, in order (an empty list when there is none).")
      .def("set_all", &set_typed_values, py::arg("signature"), py::arg("values"), py::kw_only(),
           py::arg("encoding") = "cp1252",
           "Makes the fields of this type exactly these values: the k-th replaces the k-th field where it is, "
           "further ones follow the last (or end the record), fields past the values are removed ([] removes all).")
      .def("typed", &typed_fields, py::kw_only(), py::arg("encoding") = "cp1252",
           "Every field as record[sig] gives it: {signature: value} in field order, a list of values for a field "
           "the record holds more than once.")
      .def_property_readonly("form_key", &record_form_key,
                             "The record's form as a tesmod.FormKey (the plugin its FormID's top byte names).")
      .def("__repr__", &PyRecord::repr);

  py::class_<PyRecords>(m, "RecordIterator")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &PyRecords::next);

  py::class_<PyHeader>(m, "Header", "The plugin's TES4 record, decoded.")
      .def_readonly("version", &PyHeader::version, "HEDR version (0.8/1.0 Oblivion, 0.94/1.7 Skyrim, 1.71 Skyrim SE).")
      .def_readonly("version_text", &PyHeader::version_text, "The version as the tools print it, e.g. '1.70'.")
      .def_readonly("record_count", &PyHeader::record_count, "HEDR's count of records and groups.")
      .def_readonly("next_object_id", &PyHeader::next_object_id)
      .def_readonly("flags", &PyHeader::flags)
      .def_readonly("author", &PyHeader::author)
      .def_readonly("description", &PyHeader::description)
      .def_readonly("masters", &PyHeader::masters)
      .def_readonly("is_master", &PyHeader::is_master)
      .def_readonly("is_localized", &PyHeader::is_localized)
      .def_readonly("is_light", &PyHeader::is_light);

  py::class_<PyPlugin>(m, "Plugin", "An open plugin: its header and its records, read lazily from the mapped file.")
      .def_property_readonly("path", &PyPlugin::path)
      .def_property_readonly("game", &PyPlugin::game, "'oblivion', 'skyrim' or 'skyrimse'.")
      .def_property_readonly("header", &PyPlugin::header)
      .def_property_readonly("masters", &PyPlugin::masters, "Master file names, in order.")
      .def("__len__", &PyPlugin::size, "The number of records (the TES4 header record not counted).")
      .def("records", &PyPlugin::records, py::arg("type") = py::none(),
           "Records in file order, of one type when given (the filter runs in C++; a lazy open reads only "
           "the top-level groups that hold the type).")
      .def("__iter__", [](const PyPlugin& p) { return p.records(std::nullopt); })
      .def("editor_ids", &PyPlugin::editor_ids, py::arg("type") = py::none(), py::kw_only(), py::arg("threads") = 0,
           "[(form_id, editor_id or None)] of every record, or of one type, in file order: one call that reads "
           "(and partly inflates) in C++ on several threads (0: one per core), the GIL released. The same "
           "pairs as [(r.form_id, r.editor_id) for r in records(type)], faster.")
      .def("get", &PyPlugin::get, py::arg("form_id"), "The first record with this FormID, or None.")
      .def("__getitem__", &PyPlugin::at, py::arg("form_id"))
      .def("__contains__", [](const PyPlugin& p, std::uint32_t id) { return p.get(id).has_value(); })
      .def("add_record", &PyPlugin::add_record, py::arg("type"), py::arg("fields") = std::vector<std::pair<std::string, py::object>>{},
           py::kw_only(), py::arg("form_id") = py::none(), py::arg("flags") = 0, py::arg("encoding") = "cp1252",
           "Adds a record to the top-level group of its type. fields: (signature, value) pairs (bytes-like, "
           "or str stored zero-terminated). form_id: the next free one of this plugin when not given.")
      .def("remove", &PyPlugin::remove, py::arg("form_id"), "Removes the first record with this FormID; False if none.")
      .def("set_author", &PyPlugin::set_author, py::arg("text"), py::arg("encoding") = "cp1252", "Sets CNAM.")
      .def("set_description", &PyPlugin::set_description, py::arg("text"), py::arg("encoding") = "cp1252",
           "Sets SNAM.")
      .def_property_readonly("modified", &PyPlugin::modified, "True once an edit has been made.")
      .def("verify", &PyPlugin::verify,
           "What `tesmod verify` checks: the plugin as opened, written back through the writer, is the same "
           "file. Returns {identical, written, first_difference}; the GIL is released.")
      .def(
          "clean",
          [](PyPlugin& p, const std::optional<std::string>& data, bool dry_run, bool itm, bool udr) {
            return clean_open_plugin(p.state(), data, dry_run, itm, udr);
          },
          py::kw_only(), py::arg("data") = py::none(), py::arg("dry_run") = false, py::arg("itm") = true,
          py::arg("udr") = true,
          "Cleans the plugin against its masters (found in data, default: the plugin's folder) as tesmod clean "
          "does: ITMs removed, deleted references undeleted and disabled. Returns the report as a dict (the keys "
          "of tesmod clean --json, plus decisions with their reasons); unless dry_run, the plugin is cleaned "
          "in memory and save(path) writes it. Call it before other edits.")
      .def("save", &PyPlugin::save, py::arg("path"),
           "Writes the plugin atomically (a temporary file renamed over path; the GIL is released). "
           "Unedited records are copied byte for byte; counts and sizes are fixed up.")
      .def("__repr__", &PyPlugin::repr);

  m.def("open", &PyPlugin::open, py::arg("path"), py::kw_only(), py::arg("game") = py::none(), py::arg("threads") = 0,
        py::arg("lazy") = false, py::call_guard<py::gil_scoped_release>(),
        "Opens a plugin (.esp/.esm/.esl): maps it and indexes its groups and records, checking every "
        "header. game: 'oblivion', 'skyrim' or 'skyrimse' to skip detection. threads: for indexing, 0 for "
        "all cores. Raises tesmod.Error for a file that is not a readable plugin.\n\n"
        "lazy=True reads only the file header and the top-level groups at open, and a group's contents "
        "when first needed: records(type) then reads only the groups where the format keeps that type "
        "(its own group; cells and worlds for references, LAND, NAVM ...; topics for INFO), so a "
        "record stored in another type's group is not found, and damage inside a group is raised when "
        "the group is read. Anything else (len, get, iterating all records, edits, verify, scripts, "
        "naming forms in conditions) indexes the whole file first, as a full open does.");
}

}  // namespace tesmod::python
