#include "form_key_binding.hpp"

#include <fmt/format.h>

#include <charconv>

#include "tesmod/io/ascii.hpp"
#include "tesmod/loadorder/plugin_list.hpp"

namespace tesmod::python {
namespace {

PyFormKey make(std::string plugin, std::uint64_t object_id) {
  if (!loadorder::has_plugin_extension(plugin))
    throw py::value_error(fmt::format("FormKey: '{}' is not a plugin file name (.esp, .esm or .esl)", plugin));
  if (object_id > 0xFFFFFF)
    throw py::value_error(fmt::format("FormKey: object id {:#x} does not fit 24 bits (the top byte is a plugin's, "
                                      "not part of the id)",
                                      object_id));
  return PyFormKey{std::move(plugin), std::uint32_t(object_id)};
}

}  // namespace

PyFormKey PyFormKey::parse(std::string_view text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos)
    throw py::value_error(fmt::format("FormKey: expected 'Plugin.esp:00ABCD', not '{}'", text));
  const std::string_view hex = text.substr(colon + 1);
  std::uint64_t id = 0;
  const auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), id, 16);
  if (hex.empty() || ec != std::errc() || end != hex.data() + hex.size())
    throw py::value_error(fmt::format("FormKey: '{}' is not a hexadecimal object id (in '{}')", hex, text));
  return make(std::string(text.substr(0, colon)), id);
}

std::string PyFormKey::text() const { return fmt::format("{}:{:06X}", plugin, object_id); }
std::string PyFormKey::folded() const { return ascii::to_lower(plugin); }

void bind_form_key(py::module_& m) {
  py::class_<PyFormKey>(m, "FormKey",
                        "A form named by the plugin that defines it and its object id: FormKey('Skyrim.esm', "
                        "0x012EB7) or FormKey('Skyrim.esm:012EB7'). Equal, hashed and ordered without regard to "
                        "the plugin name's case.")
      .def(py::init([](const std::string& plugin, std::uint64_t object_id) { return make(plugin, object_id); }),
           py::arg("plugin"), py::arg("object_id"))
      .def(py::init([](const std::string& text) { return PyFormKey::parse(text); }), py::arg("text"))
      .def_static("parse", [](const std::string& text) { return PyFormKey::parse(text); }, py::arg("text"),
                  "Reads 'Plugin.esp:00ABCD'.")
      .def_property_readonly("plugin", [](const PyFormKey& k) { return k.plugin; }, "The defining plugin's file name.")
      .def_property_readonly("object_id", [](const PyFormKey& k) { return k.object_id; }, "The 24-bit object id.")
      .def("__str__", &PyFormKey::text)
      .def("__repr__", [](const PyFormKey& k) { return fmt::format("FormKey('{}', 0x{:06X})", k.plugin, k.object_id); })
      .def("__hash__", [](const PyFormKey& k) { return py::hash(py::make_tuple(k.folded(), k.object_id)); })
      .def("__eq__", [](const PyFormKey& a, const py::object& b) {
        if (!py::isinstance<PyFormKey>(b)) return false;
        const PyFormKey& k = b.cast<const PyFormKey&>();
        return a.object_id == k.object_id && ascii::iequals(a.plugin, k.plugin);
      })
      .def("__lt__", [](const PyFormKey& a, const PyFormKey& b) {
        return std::make_pair(a.folded(), a.object_id) < std::make_pair(b.folded(), b.object_id);
      })
      .def("__le__", [](const PyFormKey& a, const PyFormKey& b) {
        return std::make_pair(a.folded(), a.object_id) <= std::make_pair(b.folded(), b.object_id);
      })
      .def("__gt__", [](const PyFormKey& a, const PyFormKey& b) {
        return std::make_pair(a.folded(), a.object_id) > std::make_pair(b.folded(), b.object_id);
      })
      .def("__ge__", [](const PyFormKey& a, const PyFormKey& b) {
        return std::make_pair(a.folded(), a.object_id) >= std::make_pair(b.folded(), b.object_id);
      });
}

}  // namespace tesmod::python
