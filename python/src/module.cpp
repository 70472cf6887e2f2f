// The compiled part of the `tesmod` Python package (python/tesmod/__init__.py re-exports it).
#include <pybind11/pybind11.h>

#include "condition_binding.hpp"
#include "errors.hpp"
#include "form_key_binding.hpp"
#include "light_binding.hpp"
#include "load_order_binding.hpp"
#include "plugin_binding.hpp"
#include "save_binding.hpp"
#include "package_binding.hpp"
#include "patch_plugin_binding.hpp"
#include "script_binding.hpp"
#include "vmad_binding.hpp"

PYBIND11_MODULE(_tesmod, m) {
  m.doc() = "tesmod: Elder Scrolls plugins and saves (compiled part; import tesmod instead)";
  m.attr("__version__") = TESMOD_VERSION;
  tesmod::python::bind_errors(m);
  tesmod::python::bind_form_key(m);
  tesmod::python::bind_plugin(m);
  tesmod::python::bind_conditions(m);
  tesmod::python::bind_scripts(m);
  tesmod::python::bind_saves(m);
  tesmod::python::bind_vmad(m);
  tesmod::python::bind_package(m);
  tesmod::python::bind_patch_plugin(m);
  tesmod::python::bind_load_order(m);
  tesmod::python::bind_light(m);
}
