// Record.conditions and the condition edits (adds methods to tesmod.Record).
#pragma once
#include <pybind11/pybind11.h>

namespace tesmod::python {

void bind_conditions(pybind11::module_& m);

}  // namespace tesmod::python
