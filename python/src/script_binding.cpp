// Oblivion scripts from Python, with the CLI's options (script_in_plugin.hpp holds the work both
// share). Scripts are listed and decompiled as the plugin was opened; compiling edits the plugin.
#include "script_binding.hpp"

#include <pybind11/stl.h>

#include "plugin_handles.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/script/script_in_plugin.hpp"

namespace py = pybind11;

namespace tesmod::python {
namespace {

using script::PluginScript;

py::dict script_dict(const PluginScript& s) {
  py::dict d;
  d["record_type"] = s.record_type.str();
  d["form_id"] = s.form_id;
  d["editor_id"] = s.editor_id.empty() ? py::object(py::none()) : py::object(decode(s.editor_id));
  d["index"] = s.index;
  d["script_type"] = script::script_type_name(s);
  d["compiled_bytes"] = s.data.has_bytecode ? s.data.bytecode.size() : 0;
  d["variables"] = s.data.variables.size();
  d["refs"] = s.data.refs.size();
  d["error"] = s.error ? py::object(py::str(*s.error)) : py::object(py::none());
  return d;
}

// Oblivion or not is known from the header alone, whatever the index.
void need_oblivion(const OpenPlugin& p) {
  if (p.reader().game() != Game::Oblivion)
    throw Error(p.reader().name(), Error::kNoOffset, std::nullopt, "scripts are read and compiled in Oblivion plugins only");
}

std::vector<std::string> builds(const std::vector<PluginScript>& scripts, std::string_view source,
                                const std::vector<std::string>& named) {
  try {
    return script::obse_builds_for(scripts, source, named);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(std::string("obse_plugins: ") + e.what());
  }
}

script::ObseProfile profile(const std::string& text) {
  script::ObseProfile p;
  if (!script::parse_obse_profile(text, p)) throw py::value_error("obse is 'current' or 'early', not '" + text + "'");
  return p;
}

}  // namespace

void bind_scripts(py::module_& m) {
  auto plugin = py::reinterpret_borrow<py::class_<PyPlugin>>(m.attr("Plugin"));
  plugin
      .def("scripts", [](PyPlugin& self) {
        OpenPlugin& p = self.state();
        need_oblivion(p);
        py::list out;
        for (const PluginScript& s : p.scripts()) out.append(script_dict(s));
        return out;
      }, "Every script (SCPT, and the result scripts of INFO, QUST, PACK) as dicts: record_type, form_id, "
         "editor_id, index, script_type, compiled_bytes, variables, refs, error.")
      .def("decompile_script", [](PyPlugin& self, const py::object& which, std::size_t index,
                                  const std::vector<std::string>& obse_plugins) {
        OpenPlugin& p = self.state();
        need_oblivion(p);
        const std::vector<PluginScript>& all = p.scripts();
        const std::optional<std::string> editor_id =
            py::isinstance<py::str>(which) ? std::optional<std::string>(which.cast<std::string>()) : std::nullopt;
        const std::uint32_t form_id = editor_id ? 0 : which.cast<std::uint32_t>();
        const PluginScript* chosen = nullptr;
        for (const PluginScript& s : all) {
          const bool match = editor_id ? ascii::iequals(s.editor_id, *editor_id) : s.form_id == form_id;
          if (match && s.index == index) {
            chosen = &s;
            break;
          }
        }
        if (!chosen) throw py::key_error("no script " + py::str(which).cast<std::string>() + " #" + std::to_string(index));
        return script::decompile_plugin_script(*chosen, p.script_names(), builds(all, {}, obse_plugins));
      }, py::arg("which"), py::arg("index") = 0, py::kw_only(), py::arg("obse_plugins") = std::vector<std::string>{},
      "The source of a script, by its record's EditorID (str) or FormID (int); index picks among a record's "
      "scripts. obse_plugins: OBSE plugin builds beside those the plugin's scripts show (as --obse-plugin).")
      .def("compile_script", [](PyPlugin& self, const std::string& source, const std::optional<std::string>& editor_id,
                                const std::optional<std::string>& type, const std::string& obse,
                                const std::vector<std::string>& obse_plugins, bool unquoted_strings) {
        OpenPlugin& p = self.state();
        need_oblivion(p);
        script::CompileIntoOptions o;
        o.editor_id = editor_id.value_or(std::string());
        if (type) {
          o.type = script::parse_script_type(*type);
          if (!o.type) throw py::value_error("type is object, quest or magic-effect, not '" + *type + "'");
        }
        o.obse_profile = profile(obse);
        (void)builds({}, {}, obse_plugins);
        o.obse_plugins = obse_plugins;
        o.unquoted_strings = unquoted_strings;
        const auto done = script::compile_into_plugin(p.edit(), p.file(), source, o);
        p.by_id_stale = true;  // a new SCPT may have moved its group's records
        py::dict d;
        d["form_id"] = done.form_id;
        d["editor_id"] = done.editor_id;
        d["replaced"] = done.replaced;
        return d;
      }, py::arg("source"), py::kw_only(), py::arg("editor_id") = py::none(), py::arg("type") = py::none(),
      py::arg("obse") = "current", py::arg("obse_plugins") = std::vector<std::string>{},
      py::arg("unquoted_strings") = false,
      "Compiles source into the plugin like `tesmod script compile`: replaces the SCPT of that name as the "
      "plugin holds it now (keeping its variable order and type) or adds one. Returns {form_id, editor_id, "
      "replaced}. A source error, a name no form has among them, raises tesmod.ScriptError (line, column). "
      "unquoted_strings: in OBSE code take a bare word nothing resolves for a string, as the editor does. "
      "scripts() and decompile_script() still read the plugin as opened: save and reopen to read the new code.");
}

}  // namespace tesmod::python
