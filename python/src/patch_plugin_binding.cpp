#include "patch_plugin_binding.hpp"

#include <fmt/format.h>
#include <pybind11/stl.h>

#include <memory>

#include "form_key_binding.hpp"
#include "plugin_handles.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/patch/patch_plugin.hpp"

namespace tesmod::python {
namespace {

class PyPatchPlugin {
 public:
  PyPatchPlugin(PatchOrigin origin, const std::string& name)
      : origin_(std::move(origin)), patch_(std::make_shared<patch::PatchPlugin>(*origin_.order, name)) {
    state_ = std::make_shared<OpenPlugin>();
    state_->model = &patch_->plugin();
    state_->self_name = name;
    state_->game_set = patch_->game();
    // The patch's FormIDs are its own numbering (patch_plugin.hpp): name them through it.
    std::weak_ptr<patch::PatchPlugin> weak = patch_;
    state_->patch_form_of = [weak](std::uint32_t held) {
      auto p = weak.lock();
      const loadorder::FormKey k = p->form_of(held);
      return std::pair<std::string, std::uint32_t>(p->plugin_name(k.plugin), k.object_id);
    };
    state_->patch_form_id_of = [weak](const std::string& plugin, std::uint32_t object_id) {
      auto p = weak.lock();
      if (ascii::iequals(plugin, p->name())) return p->held_form_id({p->own_position(), object_id});
      const auto position = p->order().find(plugin);
      if (!position)
        throw py::value_error(fmt::format("FormKey {}:{:06X} names a plugin that is not in the load order", plugin,
                                          object_id));
      return p->held_form_id({*position, object_id});
    };
  }

  std::string name() const { return patch_->name(); }
  std::string game() const { return std::string(game_id(patch_->game())); }
  std::size_t size() const { return patch_->size(); }

  // A Record of the load order, a FormKey (its winner), or a record of this patch.
  py::object add_override(const py::object& what) {
    if (py::isinstance<PyRecord>(what)) {
      const PyRecord& r = what.cast<const PyRecord&>();
      if (r.plugin_ref() == state_) return what;
      const auto version = origin_.version_of(r);
      if (!version)
        throw py::value_error("add_override takes a record of the patch's load order (LoadOrder.get, winning, "
                              "versions) or a FormKey; " + r.repr() + " is of another plugin");
      return added(version->entry.type, [&]() -> Record& { return patch_->add_override(*version, inflater_); });
    }
    const loadorder::FormKey form = form_arg(what);
    const auto winner = origin_.order->winner(form);
    if (!winner) return handle(patch_->add_override(form, inflater_));  // raises, naming the form
    return added(winner->entry.type, [&]() -> Record& { return patch_->add_override(*winner, inflater_); });
  }

  py::object add_record(const std::string& type, const py::object& fields, std::uint32_t flags) {
    const Signature sig = signature_arg(type);
    py::object record = added(sig, [&]() -> Record& { return patch_->add_record(sig, {}, flags); });
    const std::uint32_t id = record.cast<const PyRecord&>().form_id();
    try {
      if (!fields.is_none()) {
        py::iterable pairs = py::isinstance<py::dict>(fields) ? fields.attr("items")() : fields;
        for (py::handle pair : pairs) {
          auto t = pair.cast<py::tuple>();
          if (t.size() != 2) throw py::type_error("add_record: fields are a dict {signature: value} or (signature, value) pairs");
          record.attr("__setitem__")(t[0], t[1]);
        }
      }
    } catch (...) {
      patch_->remove(patch_->form_of(id));  // nothing half made is left in the patch
      state_->by_id_stale = true;
      throw;
    }
    return record;
  }

  bool remove(const py::object& what) {
    loadorder::FormKey form;
    if (py::isinstance<PyRecord>(what)) {
      const PyRecord& r = what.cast<const PyRecord&>();
      if (r.plugin_ref() != state_) {
        const auto version = origin_.version_of(r);
        if (!version) return false;
        const auto key = origin_.order->key(version->plugin, version->entry.id);
        if (!key) return false;
        form = *key;
      } else {
        form = patch_->form_of(r.form_id());
      }
    } else {
      form = form_arg(what);
    }
    const bool removed = patch_->remove(form);
    state_->by_id_stale = true;
    return removed;
  }

  py::object get(const py::object& what) {
    const loadorder::FormKey form = form_arg(what);
    Record* r = patch_->find(form);
    return r ? handle(*r) : py::object(py::none());
  }
  bool contains(const py::object& what) { return !get(what).is_none(); }

  PyRecords records(const std::optional<std::string>& type) const {
    return PyRecords(state_, type ? std::optional<Signature>(signature_arg(*type)) : std::nullopt);
  }

  py::dict save(const std::optional<std::string>& path) {
    const std::filesystem::path target = path ? std::filesystem::path(*path) : origin_.data / patch_->name();
    patch::PatchPluginSaved saved;
    {
      py::gil_scoped_release unlocked;
      saved = patch_->save(target);
    }
    py::dict d;
    d["path"] = target.string();
    d["masters"] = saved.masters;
    d["records"] = saved.records;
    d["overrides"] = saved.overrides;
    d["new_records"] = saved.new_records;
    d["next_object_id"] = saved.next_object_id;
    d["light"] = saved.light;
    py::list itpo;
    for (const auto& u : saved.unchanged) {
      py::dict e;
      e["form_key"] = PyFormKey{patch_->plugin_name(u.form.plugin), u.form.object_id};
      e["type"] = u.type.str();
      e["editor_id"] = u.editor_id.empty() ? py::object(py::none()) : py::object(decode(u.editor_id));
      e["same_as"] = origin_.order->plugin(u.copied_from).name;
      itpo.append(e);
    }
    d["itpo"] = itpo;
    d["warnings"] = patch_->warnings();
    if (!saved.unchanged.empty())
      PyErr_WarnEx(PyExc_UserWarning,
                   fmt::format("{}: {} override(s) identical to the version they were copied from (ITPO), e.g. {} "
                               "(see the 'itpo' list save() returns; patch.remove() takes one out)",
                               patch_->name(), saved.unchanged.size(),
                               py::str(itpo[0]["form_key"]).cast<std::string>())
                       .c_str(),
                   1);
    return d;
  }

  std::string repr() const {
    return fmt::format("<tesmod.PatchPlugin '{}' {}, {} records>", name(), game(), size());
  }

 private:
  // Adds a record through add, the handles' FormID index kept current (OpenPlugin::track_add).
  template <class Add>
  py::object added(Signature type, Add&& add) {
    Record& r = state_->track_add(type, std::forward<Add>(add));
    return py::cast(PyRecord(state_, r.type(), r.form_id()));
  }
  py::object handle(Record& r) {  // a record the patch holds already
    return py::cast(PyRecord(state_, r.type(), r.form_id()));
  }
  loadorder::FormKey form_arg(const py::object& what) const {
    PyFormKey key;
    if (py::isinstance<PyFormKey>(what)) key = what.cast<PyFormKey>();
    else if (py::isinstance<py::str>(what)) key = PyFormKey::parse(what.cast<std::string>());
    else throw py::type_error("a form is a tesmod.FormKey or 'Plugin.esp:00ABCD'");
    if (ascii::iequals(key.plugin, patch_->name())) return {patch_->own_position(), key.object_id};
    const auto position = origin_.order->find(key.plugin);
    if (!position) throw py::key_error(fmt::format("{}: '{}' is not in the load order", key.text(), key.plugin));
    return {*position, key.object_id};
  }

  PatchOrigin origin_;
  std::shared_ptr<patch::PatchPlugin> patch_;
  PluginRef state_;
  Inflater inflater_;
};

}  // namespace

py::object new_patch_plugin(PatchOrigin origin, const std::string& name) {
  return py::cast(std::make_shared<PyPatchPlugin>(std::move(origin), name));
}

void bind_patch_plugin(py::module_& m) {
  py::class_<PyPatchPlugin, std::shared_ptr<PyPatchPlugin>>(m, "PatchPlugin",
                            "A new plugin made on top of a load order (LoadOrder.new_plugin): overrides of its "
                            "records and records of its own, saved with exactly the masters they name, in load order.")
      .def_property_readonly("name", &PyPatchPlugin::name)
      .def_property_readonly("game", &PyPatchPlugin::game)
      .def("add_override", &PyPatchPlugin::add_override, py::arg("record"),
           "Copies a record into the patch and returns the patch's copy to edit: a Record of the load order "
           "(that version), or a FormKey (its winning version). FormIDs inside are kept as the forms they name; "
           "their plugins become masters as needed. A form the patch has already is returned as it is.")
      .def("add_record", &PyPatchPlugin::add_record, py::arg("type"), py::arg("fields") = py::none(),
           py::arg("flags") = 0,
           "A new record with the patch's next FormID (from 0x800); fields: {signature: value} set as record[sig] = "
           "value sets them, in order.")
      .def("remove", &PyPatchPlugin::remove, py::arg("record"),
           "Takes a record (a Record or FormKey) out of the patch; False when it is not in it.")
      .def("get", &PyPatchPlugin::get, py::arg("form"), "The patch's record of a form (FormKey), or None.")
      .def("__getitem__",
           [](PyPatchPlugin& p, const py::object& form) {
             py::object r = p.get(form);
             if (r.is_none()) throw py::key_error("the patch has no record " + py::str(form).cast<std::string>());
             return r;
           })
      .def("__contains__", &PyPatchPlugin::contains)
      .def("__len__", &PyPatchPlugin::size)
      .def("records", &PyPatchPlugin::records, py::arg("type") = py::none(),
           "The patch's records (of one type when given).")
      .def("__iter__", [](const PyPatchPlugin& p) { return p.records(std::nullopt); })
      .def("save", &PyPatchPlugin::save, py::arg("path") = py::none(),
           "Writes the plugin atomically (default: into the load order's Data folder) and returns what it wrote: "
           "path, masters, records, overrides, new_records, next_object_id, light (Skyrim SE: flagged ESL), itpo "
           "(overrides left identical to what they override; a UserWarning says so too), warnings. Refuses a path "
           "that is a plugin of the load order.")
      .def("__repr__", &PyPatchPlugin::repr);
}

}  // namespace tesmod::python
