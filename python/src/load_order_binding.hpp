// tesmod.load_order: a game's load order in Python: its plugins, the winning records of a type,
// a form's versions, conflicts and checks.
#pragma once
#include <pybind11/pybind11.h>

namespace tesmod::python {

void bind_load_order(pybind11::module_& m);

}  // namespace tesmod::python
