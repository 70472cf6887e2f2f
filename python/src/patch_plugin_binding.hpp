// tesmod.PatchPlugin: a plugin of one's own made on top of a LoadOrder (LoadOrder.new_plugin),
// as a Synthesis patcher makes one: overrides of the order's records, new records, saved with the
// masters its records name. Its records are tesmod.Record objects (typed fields, conditions ...).
#pragma once
#include <pybind11/pybind11.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "tesmod/loadorder/load_order.hpp"

namespace tesmod::python {
namespace py = pybind11;

class PyRecord;

// What a patch needs of the LoadOrder it is made on.
struct PatchOrigin {
  py::object owner;  // the tesmod.LoadOrder (kept alive while the patch is)
  const loadorder::LoadOrder* order = nullptr;
  std::filesystem::path data;  // where save() writes by default
  // The version a Record handed out by the LoadOrder is (nullopt: not one of its records).
  std::function<std::optional<loadorder::RecordVersion>(const PyRecord&)> version_of;
  // A Record handle for a version (as LoadOrder.get gives it).
  std::function<py::object(const loadorder::RecordVersion&)> record;
};

py::object new_patch_plugin(PatchOrigin origin, const std::string& name);
void bind_patch_plugin(py::module_& m);

}  // namespace tesmod::python
