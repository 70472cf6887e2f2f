// tesmod.open and the read side of plugins: Plugin, Header, Record, Field.
#pragma once
#include <pybind11/pybind11.h>

namespace tesmod::python {

void bind_plugin(pybind11::module_& m);

}  // namespace tesmod::python
