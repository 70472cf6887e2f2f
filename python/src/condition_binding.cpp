// Conditions (CTDA/CTDT with CIS1/CIS2) of a record as text lines and dicts, and edits from text:
// the one-line syntax of tesmod/text/condition_text.hpp, FormIDs named by the plugin's EditorIDs.
#include "condition_binding.hpp"

#include <nlohmann/json.hpp>

#include "plugin_handles.hpp"
#include "tesmod/fields/condition.hpp"
#include "tesmod/text/condition_text.hpp"

namespace py = pybind11;

namespace tesmod::python {
namespace {

std::vector<fields::LocatedCondition> located(const std::vector<Field>& fields, const PyRecord& record) {
  return fields::read_conditions(record.plugin().game(), field_views(fields), record.context());
}

fields::Condition parse(PyRecord& record, const std::string& text) {
  return text::parse_condition(text, record.plugin().game(), record.plugin().names());
}

std::size_t checked_index(std::ptrdiff_t index, std::size_t size, bool insert) {
  const std::ptrdiff_t n = std::ptrdiff_t(size);
  if (index < 0) index += n;
  if (index < 0 || index > n || (!insert && index == n))
    throw py::index_error("condition index " + std::to_string(index) + " out of range (" + std::to_string(size) +
                          " conditions)");
  return std::size_t(index);
}

py::object to_python(const nlohmann::ordered_json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

}  // namespace

void bind_conditions(py::module_& m) {
  auto record = py::reinterpret_borrow<py::class_<PyRecord>>(m.attr("Record"));
  record
      .def("conditions", [](const PyRecord& r) {
        const auto fields = r.owned_fields();
        std::vector<std::string> out;
        for (const auto& lc : located(fields, r)) out.push_back(text::render_condition(lc.condition, r.plugin().names()));
        return out;
      }, "The record's conditions as text lines, e.g. 'GetStage(MQ101) >= 10.0 OR'.")
      .def("condition_dicts", [](const PyRecord& r) {
        const auto fields = r.owned_fields();
        py::list out;
        for (const auto& lc : located(fields, r)) out.append(to_python(text::condition_json(lc.condition, r.plugin().names())));
        return out;
      }, "The record's conditions as dicts (function, operator, value, parameters, run on, flags, text).")
      .def("replace_condition", [](PyRecord& r, std::ptrdiff_t index, const std::string& text) {
        const fields::Condition c = parse(r, text);
        auto& fields = r.edited().edit_fields();
        const auto found = located(fields, r);
        const auto& at = found[checked_index(index, found.size(), false)];
        const auto encoded = fields::encode_condition(c);
        fields.erase(fields.begin() + std::ptrdiff_t(at.first), fields.begin() + std::ptrdiff_t(at.last));
        fields.insert(fields.begin() + std::ptrdiff_t(at.first), encoded.begin(), encoded.end());
      }, py::arg("index"), py::arg("text"), "Replaces condition `index` with the condition the text describes.")
      .def("insert_condition", [](PyRecord& r, std::ptrdiff_t index, const std::string& text) {
        const fields::Condition c = parse(r, text);
        auto& fields = r.edited().edit_fields();
        const auto found = located(fields, r);
        if (found.empty())
          throw py::value_error("the record has no conditions: where new ones go depends on its type (add the fields)");
        const std::size_t i = checked_index(index, found.size(), true);
        const std::size_t pos = i < found.size() ? found[i].first : found.back().last;
        const auto encoded = fields::encode_condition(c);
        fields.insert(fields.begin() + std::ptrdiff_t(pos), encoded.begin(), encoded.end());
      }, py::arg("index"), py::arg("text"),
      "Inserts a condition before condition `index` (len: after the last one).")
      .def("remove_condition", [](PyRecord& r, std::ptrdiff_t index) {
        auto& fields = r.edited().edit_fields();
        const auto found = located(fields, r);
        const auto& at = found[checked_index(index, found.size(), false)];
        fields.erase(fields.begin() + std::ptrdiff_t(at.first), fields.begin() + std::ptrdiff_t(at.last));
      }, py::arg("index"), "Removes condition `index` (with its CIS1/CIS2 fields).");
}

}  // namespace tesmod::python
