// tesmod.Error: the library's errors in Python, with the file, offset and record they name.
#pragma once
#include <pybind11/pybind11.h>

namespace tesmod::python {

// Creates tesmod.Error in the module and translates tesmod::Error into it.
void bind_errors(pybind11::module_& m);

}  // namespace tesmod::python
