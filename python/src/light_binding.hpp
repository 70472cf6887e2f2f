// Light plugins in Python: tesmod.compact() (and LoadOrder.esl_check(), bound with the load order).
#pragma once

#include <pybind11/pybind11.h>

namespace tesmod::python {

void bind_light(pybind11::module_& m);

}  // namespace tesmod::python
