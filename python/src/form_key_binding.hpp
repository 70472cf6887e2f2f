// tesmod.FormKey: a form named by the plugin that defines it and its object id, the same whatever
// plugin stores a FormID for it (a FormID's top byte means a different master in each plugin).
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace tesmod::python {
namespace py = pybind11;

struct PyFormKey {
  std::string plugin;         // the defining plugin's file name, as given
  std::uint32_t object_id = 0;  // 24 bits

  // "Skyrim.esm:012EB7"; raises ValueError naming what is wrong.
  static PyFormKey parse(std::string_view text);
  std::string text() const;  // Skyrim.esm:012EB7
  std::string folded() const;  // the plugin name in lower case (equality and hashing)
};

void bind_form_key(py::module_& m);

}  // namespace tesmod::python
