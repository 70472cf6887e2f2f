// Oblivion scripts of a plugin: list, decompile, compile (adds methods to tesmod.Plugin).
#pragma once
#include <pybind11/pybind11.h>

namespace tesmod::python {

void bind_scripts(pybind11::module_& m);

}  // namespace tesmod::python
