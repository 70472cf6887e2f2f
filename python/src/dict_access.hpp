// Reading plain Python data back into models: every key required, and a missing key or a value
// of the wrong kind raises ValueError saying where (`vmad.scripts[0].name: ...`).
#pragma once
#include <pybind11/pybind11.h>

#include <string>

#include "plugin_handles.hpp"

namespace tesmod::python {
namespace py = pybind11;

[[noreturn]] inline void bad(const std::string& where, const std::string& what) { throw py::value_error(where + ": " + what); }

inline py::object need(const py::handle& d, const char* key, const std::string& where) {
  if (!py::isinstance<py::dict>(d)) bad(where, "expected a dict");
  py::dict dict = py::reinterpret_borrow<py::dict>(d);
  if (!dict.contains(key)) bad(where, std::string("missing key '") + key + "'");
  return dict[key];
}

template <typename T>
T num(const py::handle& d, const char* key, const std::string& where) {
  py::object v = need(d, key, where);
  try {
    return v.cast<T>();
  } catch (const py::cast_error&) {
    bad(where, std::string("'") + key + "' is not a number of the right kind");
  }
}

inline std::string stored(const py::handle& value, const std::string& where) {
  if (!py::isinstance<py::str>(value)) bad(where, "expected a str");
  return encoded(py::reinterpret_borrow<py::str>(value), "cp1252");
}

inline std::string str_key(const py::handle& d, const char* key, const std::string& where) {
  return stored(need(d, key, where), where + "." + key);
}

inline py::list list_key(const py::handle& d, const char* key, const std::string& where) {
  py::object v = need(d, key, where);
  if (!py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v)) bad(where, std::string("'") + key + "' is not a list");
  return py::list(v);
}

}  // namespace tesmod::python
