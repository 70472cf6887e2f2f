#include "errors.hpp"

#include <exception>
#include <optional>
#include <string>

#include "tesmod/error.hpp"
#include "tesmod/script/compiler.hpp"
#include "tesmod/text/condition_text.hpp"

namespace py = pybind11;

namespace tesmod::python {
namespace {

PyObject* error_type = nullptr;       // owned by the module (added to it below)
PyObject* text_error_type = nullptr;  // tesmod.TextError, a subclass
PyObject* script_error_type = nullptr;  // tesmod.ScriptError, a subclass of TextError

// Sets the pending Python exception: tesmod.Error(message) with file, offset (None when the
// error is not about a position), record ((type, form_id, editor_id) or None) and detail.
void raise_error(const tesmod::Error& e) {
  py::object type = py::reinterpret_borrow<py::object>(error_type);
  py::object exc = type(e.what());
  exc.attr("file") = e.file().empty() ? py::object(py::none()) : py::object(py::str(e.file()));
  exc.attr("offset") = e.offset() == tesmod::Error::kNoOffset ? py::object(py::none()) : py::object(py::int_(e.offset()));
  if (const auto& r = e.record()) {
    py::object editor_id = r->editor_id.empty() ? py::object(py::none()) : py::object(py::str(r->editor_id));
    exc.attr("record") = py::make_tuple(r->type.str(), r->form_id, editor_id);
  } else {
    exc.attr("record") = py::none();
  }
  exc.attr("detail") = e.detail();
  PyErr_SetObject(error_type, exc.ptr());
}

// tesmod.TextError: text (a condition line ...) that does not parse; column is 1-based.
void raise_text_error(PyObject* type, const std::string& message, std::optional<std::size_t> line, std::size_t column) {
  py::object exc = py::reinterpret_borrow<py::object>(type)(message);
  exc.attr("line") = line ? py::object(py::int_(*line)) : py::object(py::none());
  exc.attr("column") = column;
  exc.attr("detail") = message;
  PyErr_SetObject(type, exc.ptr());
}

}  // namespace

void bind_errors(py::module_& m) {
  error_type = PyErr_NewExceptionWithDoc(
      "tesmod.Error",
      "An error about a file: the message names the file, the byte offset and the record, as the CLI "
      "prints it.\n\nAttributes: file (str or None), offset (int or None), record ((type, form_id, "
      "editor_id) or None), detail (what was expected).",
      PyExc_Exception, nullptr);
  if (!error_type) throw py::error_already_set();
  py::object type = py::reinterpret_borrow<py::object>(error_type);
  for (const char* name : {"file", "offset", "record", "detail"}) type.attr(name) = py::none();
  m.add_object("Error", type);
  py::tuple bases = py::make_tuple(type, py::reinterpret_borrow<py::object>(PyExc_ValueError));
  text_error_type = PyErr_NewExceptionWithDoc(
      "tesmod.TextError",
      "Text that does not parse (a condition line ...): the message says where and what was expected; "
      "column is 1-based.",
      bases.ptr(), nullptr);
  if (!text_error_type) throw py::error_already_set();
  py::reinterpret_borrow<py::object>(text_error_type).attr("column") = py::none();
  py::reinterpret_borrow<py::object>(text_error_type).attr("line") = py::none();
  m.add_object("TextError", py::reinterpret_borrow<py::object>(text_error_type));
  script_error_type = PyErr_NewExceptionWithDoc(
      "tesmod.ScriptError", "Script source the compiler refuses: message, line and column (1-based).",
      text_error_type, nullptr);
  if (!script_error_type) throw py::error_already_set();
  m.add_object("ScriptError", py::reinterpret_borrow<py::object>(script_error_type));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const tesmod::Error& e) {
      raise_error(e);
    } catch (const tesmod::text::ConditionSyntaxError& e) {
      raise_text_error(text_error_type, e.what(), std::nullopt, e.column());
    } catch (const tesmod::script::CompileError& e) {
      raise_text_error(script_error_type, "line " + std::to_string(e.line()) + ", column " + std::to_string(e.column()) +
                                              ": " + e.message(), e.line(), e.column());
    }
  });
}

}  // namespace tesmod::python
