// Record.package() / Record.set_package(): AI packages (PACK) of both games as plain dicts and back
// (adds to tesmod.Record).
#pragma once
#include <pybind11/pybind11.h>

namespace tesmod::python {

void bind_package(pybind11::module_& m);

}  // namespace tesmod::python
