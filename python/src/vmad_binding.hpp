// Record.vmad() / Record.set_vmad(): Skyrim's VMAD as plain dicts and back (adds to tesmod.Record).
#pragma once
#include <pybind11/pybind11.h>

namespace tesmod::python {

void bind_vmad(pybind11::module_& m);

}  // namespace tesmod::python
