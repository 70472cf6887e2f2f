// Oblivion saves from Python: tesmod.open_save, the summary and NPC_/CREA change records as
// dicts, the edits of `tesmod save edit`, atomic writes.
#pragma once
#include <pybind11/pybind11.h>

namespace tesmod::python {

void bind_saves(pybind11::module_& m);

}  // namespace tesmod::python
