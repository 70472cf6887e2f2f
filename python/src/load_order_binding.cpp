// A LoadOrder in Python. Records it hands out are tesmod.Record objects of a Plugin opened over
// the load order's own mapped file (its outline: nothing is read twice), so they read as
// Plugin.records gives them. Conflicts and checks come as plain dicts, the CLI's JSON.
#include "load_order_binding.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <pybind11/stl.h>

#include "clean_binding.hpp"
#include "form_key_binding.hpp"
#include "patch_plugin_binding.hpp"
#include "plugin_handles.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/io/workers.hpp"
#include "tesmod/loadorder/conflicts.hpp"
#include "tesmod/light/esl_check.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/text/esl_check_text.hpp"
#include "tesmod/loadorder/load_order_check.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/patch/patch.hpp"
#include "tesmod/text/patch_report.hpp"
#include "tesmod/text/conflict_report.hpp"
#include "tesmod/text/conflict_text.hpp"
#include "tesmod/text/conflicts_html.hpp"

namespace py = pybind11;

namespace tesmod::python {
namespace {

class PyLoadOrder {
 public:
  PyLoadOrder(loadorder::LoadOrder order, std::filesystem::path data)
      : order_(std::move(order)), plugins_(order_.plugins().size()), data_(std::move(data)) {}

  const loadorder::LoadOrder& order() const { return order_; }

  std::string game() const { return std::string(order_.game_id()); }

  py::list plugins() const {
    py::list out;
    for (const loadorder::LoadOrderPlugin& p : order_.plugins()) {
      py::dict d;
      d["name"] = p.name;
      d["index"] = p.index ? py::object(py::str(p.index->text())) : py::object(py::none());
      d["active"] = p.active;
      d["master"] = p.master;
      d["light"] = p.light;
      d["masters"] = p.masters;
      d["ghost"] = p.ghosted;
      d["error"] = p.readable() ? py::object(py::none()) : py::object(py::str(p.error));
      out.append(d);
    }
    return out;
  }

  // The load order's problems, then those conflicts() and check() met since (damaged plugins).
  py::list problems() const {
    py::list out = problem_list(order_.problems());
    for (const auto& p : problem_list(later_problems_)) out.append(p);
    return out;
  }

  static py::list problem_list(const std::vector<loadorder::Problem>& problems) {
    py::list out;
    for (const loadorder::Problem& p : problems) {
      py::dict d;
      d["file"] = p.file;
      d["message"] = p.message;
      out.append(d);
    }
    return out;
  }

  // The form a Python argument names: a FormKey, a load-order FormID, or "File.esm:00ABCD".
  loadorder::FormKey form_arg(const py::object& form) const {
    if (py::isinstance<PyFormKey>(form)) return key_of(form.cast<const PyFormKey&>());
    if (py::isinstance<py::int_>(form)) {
      const auto id = form.cast<std::uint32_t>();
      auto key = order_.from_load_order_form_id(id);
      if (!key) throw py::key_error(fmt::format("no active plugin has the load-order index of {:08X}", id));
      return *key;
    }
    if (!py::isinstance<py::str>(form))
      throw py::type_error("a form is a FormKey, a load-order FormID (int) or 'File.esm:00ABCDEF'");
    return key_of(PyFormKey::parse(form.cast<std::string>()));
  }

  loadorder::FormKey key_of(const PyFormKey& k) const {
    const auto plugin = order_.find(k.plugin);
    if (!plugin) throw py::key_error(fmt::format("{}: '{}' is not in the load order", k.text(), k.plugin));
    return loadorder::FormKey{*plugin, k.object_id};
  }

  PyFormKey form_key_of(const loadorder::FormKey& k) const { return PyFormKey{order_.plugin(k.plugin).name, k.object_id}; }

  // The FormKey of a FormID as a plugin stores it (None when its master is not in the load order).
  py::object form_key(const std::string& plugin, std::uint32_t stored) const {
    const auto p = order_.find(plugin);
    if (!p) throw py::key_error("'" + plugin + "' is not in the load order");
    const auto key = order_.key(*p, stored);
    return key ? py::cast(form_key_of(*key)) : py::object(py::none());
  }

  // The winning record of a form, or None when no active plugin has it.
  py::object get(const py::object& form) {
    const loadorder::FormKey key = form_arg(form);
    std::optional<loadorder::RecordVersion> found;
    {
      py::gil_scoped_release release;
      found = order_.winner(key);
    }
    return found ? record(*found) : py::object(py::none());
  }

  py::object at(const py::object& form) {
    py::object r = get(form);
    if (r.is_none()) throw py::key_error(fmt::format("no active plugin has {}", py::str(form).cast<std::string>()));
    return r;
  }

  // A Record handle over the plugin's bytes, as Plugin.records gives them.
  py::object record(const loadorder::RecordVersion& v) {
    PluginRef& ref = plugins_[v.plugin];
    if (!ref) {
      const PluginBytes& bytes = order_.bytes(v.plugin);
      OpenOptions options;
      options.game = bytes.game();
      ref = std::make_shared<OpenPlugin>(PluginOutline::parse(bytes.file_bytes(), options));
    }
    return py::cast(PyRecord(ref, v.entry));
  }

  // A new plugin on top of the order (patch_plugin_binding.cpp). self: this LoadOrder's Python object.
  py::object new_plugin(py::object self, const std::string& name) {
    PatchOrigin origin;
    origin.owner = self;
    origin.order = &order_;
    origin.data = data_;
    origin.version_of = [this](const PyRecord& r) -> std::optional<loadorder::RecordVersion> {
      const IndexEntry* entry = r.index_entry();
      for (std::uint32_t p = 0; p < plugins_.size(); ++p) {
        if (plugins_[p] != r.plugin_ref()) continue;
        if (plugins_[p]->model)
          throw py::value_error(order_.plugin(p).name + " was edited through this load order's records: a patch "
                                "copies records as the plugins store them (edit the patch's copy instead)");
        if (entry) return loadorder::RecordVersion{p, *entry};
      }
      return std::nullopt;
    };
    origin.record = [this](const loadorder::RecordVersion& v) { return record(v); };
    return new_patch_plugin(std::move(origin), name);
  }

  py::list winning(const std::string& type, bool with_plugin) {
    std::vector<loadorder::RecordVersion> found;
    {
      py::gil_scoped_release release;
      found = order_.winning(signature_arg(type));
    }
    py::list out(found.size());  // filled in place: tens of thousands of records for some types
    for (std::size_t i = 0; i < found.size(); ++i) {
      const auto& v = found[i];
      if (with_plugin) out[i] = py::make_tuple(order_.plugin(v.plugin).name, record(v));
      else out[i] = record(v);
    }
    return out;
  }

  py::list versions(const py::object& form) {
    const loadorder::FormKey key = form_arg(form);
    std::vector<loadorder::RecordVersion> found;
    {
      py::gil_scoped_release release;
      found = order_.versions(key);
    }
    py::list out;
    for (const auto& v : found) {
      py::dict d;
      d["plugin"] = order_.plugin(v.plugin).name;
      d["record"] = record(v);
      out.append(d);
    }
    return out;
  }

  py::object load_order_form_id(const std::string& plugin, std::uint32_t stored) const {
    const auto p = order_.find(plugin);
    if (!p) throw py::key_error("'" + plugin + "' is not in the load order");
    const auto key = order_.key(*p, stored);
    const auto id = key ? order_.load_order_form_id(*key) : std::nullopt;
    return id ? py::object(py::int_(*id)) : py::object(py::none());
  }

  py::object stored_form_id(const std::string& plugin, const py::object& form) const {
    const auto p = order_.find(plugin);
    if (!p) throw py::key_error("'" + plugin + "' is not in the load order");
    const auto id = order_.stored_form_id(*p, form_arg(form));
    return id ? py::object(py::int_(*id)) : py::object(py::none());
  }

  // The report conflicts() and conflicts_page() give, for the same arguments.
  text::ConflictReport conflict_report(const std::optional<std::vector<std::string>>& only,
                                       const std::optional<std::vector<std::string>>& types, const py::object& form,
                                       const std::optional<std::string>& plugin, bool fields, const TextCodec& codec) {
    text::ConflictReportOptions options;
    options.fields = fields;
    for (const std::string& c : only.value_or(std::vector<std::string>{})) {
      auto cat = loadorder::parse_category(c);
      if (!cat) throw py::value_error("a category is conflict, override or no_conflict, not '" + c + "'");
      options.categories.push_back(*cat);
    }
    for (const std::string& t : types.value_or(std::vector<std::string>{})) options.find.types.push_back(signature_arg(t));
    if (plugin) {
      options.find.plugin = order_.find(*plugin);
      if (!options.find.plugin) throw py::key_error("'" + *plugin + "' is not in the load order");
    }
    if (!form.is_none()) {
      if (py::isinstance<py::str>(form) && form.cast<std::string>().find(':') == std::string::npos)
        options.editor_id = form.cast<std::string>();
      else options.find.forms.push_back(form_arg(form));
    }
    text::ConflictReport report;
    {
      py::gil_scoped_release release;
      report = text::conflict_report(order_, options, codec);
    }
    // Those met here, after the load order's own.
    for (std::size_t i = order_.problems().size(); i < report.problems.size(); ++i) {
      const loadorder::Problem& p = report.problems[i];
      if (std::find_if(later_problems_.begin(), later_problems_.end(), [&](const loadorder::Problem& q) {
            return q.file == p.file && q.message == p.message;
          }) == later_problems_.end())
        later_problems_.push_back(p);
    }
    return report;
  }

  // tesmod conflicts --html: the same report as one page, written atomically.
  py::dict conflicts_page(const std::string& path, const std::optional<std::vector<std::string>>& only,
                          const std::optional<std::vector<std::string>>& types, const py::object& form,
                          const std::optional<std::string>& plugin, const std::optional<std::string>& title,
                          const std::string& encoding) {
    const TextCodec codec(encoding == "cp1252" ? "WINDOWS-1252" : encoding);
    const text::ConflictReport report = conflict_report(only, types, form, plugin, true, codec);
    std::size_t counts[3] = {0, 0, 0};
    {
      py::gil_scoped_release release;
      std::string page;
      const std::string heading = title ? *title
                                  : order_.plugins().empty() ? std::string("an empty load order")
                                                             : std::filesystem::absolute(order_.plugin(0).path).parent_path().string();
      text::append_conflicts_html(page, order_, heading, report.records, report.fields, report.problems, codec);
      write_file_atomic(path, {reinterpret_cast<const std::uint8_t*>(page.data()), page.size()});
      for (const loadorder::ConflictRecord& r : report.records) ++counts[std::size_t(r.category)];
    }
    py::dict out;
    out["path"] = path;
    out["records"] = report.records.size();
    out["conflict"] = counts[2];
    out["override"] = counts[1];
    out["no_conflict"] = counts[0];
    return out;
  }

  py::list conflicts(const std::optional<std::vector<std::string>>& only, const std::optional<std::vector<std::string>>& types,
                     const py::object& form, const std::optional<std::string>& plugin, bool fields,
                     const std::string& encoding) {
    const TextCodec codec(encoding == "cp1252" ? "WINDOWS-1252" : encoding);
    const text::ConflictReport report = conflict_report(only, types, form, plugin, fields, codec);
    const std::vector<loadorder::ConflictRecord>& records = report.records;
    const std::vector<std::vector<text::FieldDifference>>& diffs = report.fields;
    py::list out;
    for (std::size_t i = 0; i < records.size(); ++i) {
      const loadorder::ConflictRecord& r = records[i];
      py::dict d;
      const auto id = order_.load_order_form_id(r.form);
      d["form_id"] = id ? py::object(py::int_(*id)) : py::object(py::none());
      d["file"] = order_.plugin(r.form.plugin).name;
      d["type"] = r.type.str();
      d["editor_id"] = r.editor_id.empty() ? py::object(py::none()) : py::object(py::str(codec.to_utf8(r.editor_id)));
      py::list versions, states, itpo;
      for (const loadorder::ConflictVersion& v : r.versions) {
        versions.append(order_.plugin(v.version.plugin).name);
        states.append(std::string(loadorder::state_name(v.state)));
        if (v.itpo) itpo.append(order_.plugin(v.version.plugin).name);
      }
      d["versions"] = versions;
      d["states"] = states;
      d["winner"] = order_.plugin(r.winner().version.plugin).name;
      d["category"] = std::string(loadorder::category_name(r.category));
      d["itpo"] = itpo;
      if (fields) {
        py::list fs;
        for (const text::FieldDifference& f : diffs[i]) {
          py::dict fd;
          fd["field"] = f.field;
          fd["values"] = f.values;
          fs.append(fd);
        }
        d["fields"] = fs;
      }
      out.append(d);
    }
    return out;
  }

  py::list check(const std::optional<std::vector<std::string>>& plugins, const std::string& encoding) {
    loadorder::CheckOptions options;
    for (const std::string& name : plugins.value_or(std::vector<std::string>{})) {
      const auto p = order_.find(name);
      if (!p) throw py::key_error("'" + name + "' is not in the load order");
      options.plugins.push_back(*p);
    }
    std::vector<loadorder::CheckProblem> problems;
    {
      py::gil_scoped_release release;
      problems = loadorder::check_load_order(order_, options);
    }
    const TextCodec codec(encoding == "cp1252" ? "WINDOWS-1252" : encoding);
    py::list out;
    for (const loadorder::CheckProblem& p : problems) {
      py::dict d;
      d["file"] = p.file;
      d["check"] = p.check;
      d["type"] = p.record ? py::object(py::str(p.record->type.str())) : py::object(py::none());
      d["form_id"] = p.record ? py::object(py::int_(p.record->form_id)) : py::object(py::none());
      d["editor_id"] = p.record && !p.record->editor_id.empty() ? py::object(py::str(codec.to_utf8(p.record->editor_id)))
                                                                 : py::object(py::none());
      d["message"] = p.message;
      out.append(d);
    }
    return out;
  }

  // `tesmod esl check --json`'s plugins, as dicts (the same keys, from the same writer).
  py::list esl_check(const std::optional<std::vector<std::string>>& plugins, const std::string& encoding) {
    std::vector<std::uint32_t> positions;
    for (const std::string& name : plugins.value_or(std::vector<std::string>{})) {
      const auto p = order_.find(name);
      if (!p) throw py::key_error("'" + name + "' is not in the load order");
      positions.push_back(*p);
    }
    const TextCodec codec(encoding == "cp1252" ? "WINDOWS-1252" : encoding);
    std::string json;
    {
      py::gil_scoped_release release;
      const std::vector<light::EslReport> reports = light::esl_check(order_, positions);
      json = text::esl_check_json(order_, reports, codec);
    }
    return py::module_::import("json").attr("loads")(json)["plugins"];
  }

  // `tesmod clean --all --dry-run`: a report per active plugin (a dict with plugin and error for
  // one that cannot be cleaned).
  py::list clean_report(bool itm, bool udr) {
    clean::CleanOptions options;
    options.itm = itm;
    options.udr = udr;
    std::vector<clean::PluginCleanPlan> plans;
    {
      py::gil_scoped_release release;
      plans = clean::plan_cleaning_all(order_, options);
    }
    py::list out;
    for (const clean::PluginCleanPlan& plan : plans) {
      if (plan.report) {
        out.append(clean_report_dict(*plan.report));
      } else {
        py::dict d;
        d["plugin"] = order_.plugin(plan.position).name;
        d["error"] = plan.error;
        out.append(d);
      }
    }
    return out;
  }

  // `tesmod patch`: plans the Bashed Patch, writes it to path (unless dry_run) and returns the
  // report as the CLI's --json gives it.
  py::object patch(const std::optional<std::string>& path, const std::string& mode, const std::string& remove_empty,
                   const std::optional<std::string>& only, const std::optional<std::string>& masterlist,
                   const std::optional<std::string>& userlist, const std::optional<py::dict>& tags, bool dry_run,
                   const std::string& encoding) {
    if (!path && !dry_run) throw py::value_error("patch: give the path to write, or dry_run=True");
    patch::PatchOptions options;
    if (path) options.name = std::filesystem::path(*path).filename().string();
    const auto list_mode = patch::parse_list_mode(mode);
    if (!list_mode) throw py::value_error("mode is 'wryebash' or 'merge', not '" + mode + "'");
    options.mode = *list_mode;
    const auto empty = patch::parse_remove_empty(remove_empty);
    if (!empty) throw py::value_error("remove_empty is 'auto', 'on' or 'off', not '" + remove_empty + "'");
    options.remove_empty = *empty;
    if (only) {
      const auto parts = patch::parse_patch_parts(*only);
      if (!parts) throw py::value_error("only is 'lists' or 'imports', not '" + *only + "'");
      options.parts = *parts;
    }
    if (tags)
      for (const auto& [plugin, spec] : *tags) {
        std::string text;
        if (py::isinstance<py::str>(spec)) text = spec.cast<std::string>();
        else
          for (const auto& t : spec) text += (text.empty() ? "" : ",") + t.cast<std::string>();
        options.tags.command_line.push_back({plugin.cast<std::string>(), text});
      }
    options.tags.data = data_;
    py::object out;
    {
      std::optional<patch::LootMetadata> ml, ul;
      patch::PatchPlan plan;
      std::vector<std::uint8_t> bytes;
      {
        py::gil_scoped_release release;
        if (masterlist) {
          ml = patch::read_loot_metadata(*masterlist, patch::LootFile::Masterlist);
          options.tags.masterlist = &*ml;
        }
        if (userlist) {
          ul = patch::read_loot_metadata(*userlist, patch::LootFile::Userlist);
          options.tags.userlist = &*ul;
        }
        plan = patch::plan_patch(order_, options);
        if (!dry_run) {
          bytes = patch::patch_bytes(order_, plan);
          write_file_atomic(*path, bytes);
        }
      }
      const TextCodec codec(encoding == "cp1252" ? "WINDOWS-1252" : encoding);
      nlohmann::ordered_json j = text::patch_report_json(order_, plan, codec);
      j["written"] = dry_run ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(*path);
      out = py::module_::import("json").attr("loads")(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    return out;
  }

 private:
  loadorder::LoadOrder order_;
  std::vector<PluginRef> plugins_;  // per plugin, made when a record of it is first handed out
  std::filesystem::path data_;      // the Data folder (BashTags/ is looked for there)
  std::vector<loadorder::Problem> later_problems_;
};

}  // namespace

void bind_load_order(py::module_& m) {
  py::class_<PyLoadOrder>(m, "LoadOrder",
                          "A game's load order: its plugins in order, read on demand (see tesmod.load_order).")
      .def_property_readonly("game", &PyLoadOrder::game, "'oblivion', 'skyrim' (LE), 'skyrimse' or 'oblivionremastered'.")
      .def_property_readonly("plugins", &PyLoadOrder::plugins,
                             "Every plugin found, in load order, as dicts: name, index ('0A', 'FE 001' or None), "
                             "active, master, light, masters, ghost, error (None when its header reads).")
      .def_property_readonly("problems", &PyLoadOrder::problems,
                             "What was found wrong while making the order, as dicts: file, message.")
      .def(
          "new_plugin", [](py::object self, const std::string& name) { return self.cast<PyLoadOrder&>().new_plugin(self, name); },
          py::arg("name"),
          "A new, empty plugin that loads after every plugin of the order (tesmod.PatchPlugin): add_override, "
          "add_record, save. The order must not hold a plugin of that name.")
      .def("winning", &PyLoadOrder::winning, py::arg("type"), py::arg("with_plugin") = false,
           "The winning version of every record of this type among the active plugins, as Records (in order of "
           "each record's first appearance); with_plugin=True: (plugin name, Record) pairs. Reads only the groups "
           "that hold the type.")
      .def("versions", &PyLoadOrder::versions, py::arg("form_id"),
           "Every active plugin's version of a form (a load-order FormID, or 'File.esm:00ABCD'), in load order, as "
           "dicts: plugin, record. The last one wins.")
      .def("load_order_form_id", &PyLoadOrder::load_order_form_id, py::arg("plugin"), py::arg("form_id"),
           "The load-order FormID of a FormID as the plugin stores it, or None (its master is missing or inactive).")
      .def("stored_form_id", &PyLoadOrder::stored_form_id, py::arg("plugin"), py::arg("form_id"),
           "The FormID the plugin stores for a form (a load-order FormID, or 'File.esm:00ABCD'), or None when the "
           "plugin cannot name it.")
      .def("conflicts", &PyLoadOrder::conflicts, py::kw_only(), py::arg("only") = py::none(), py::arg("types") = py::none(),
           py::arg("form") = py::none(), py::arg("plugin") = py::none(), py::arg("fields") = false,
           py::arg("encoding") = "cp1252",
           "Records more than one active plugin has, as tesmod conflicts --json gives them: form_id (load order), "
           "file, type, editor_id, versions, states, winner, category, itpo, and with fields=True the fields that "
           "differ (field, values per version). only: categories; types: record types; form: a FormID, "
           "'File.esm:ID' or an EditorID; plugin: only records it has.")
      .def("conflicts_page", &PyLoadOrder::conflicts_page, py::arg("path"), py::kw_only(), py::arg("only") = py::none(),
           py::arg("types") = py::none(), py::arg("form") = py::none(), py::arg("plugin") = py::none(),
           py::arg("title") = py::none(), py::arg("encoding") = "cp1252",
           "Writes the conflicts of conflicts() (same filters) as the page tesmod conflicts --html writes: one "
           "self-contained HTML file in xEdit's colours. title: shown in the page (default: the data folder). "
           "Returns {path, records, conflict, override, no_conflict}.")
      .def("check", &PyLoadOrder::check, py::kw_only(), py::arg("plugins") = py::none(), py::arg("encoding") = "cp1252",
           "The problems tesmod check finds (every active plugin, or the ones named), as dicts: file, check, type, "
           "form_id (as the plugin stores it), editor_id, message.")
      .def("esl_check", &PyLoadOrder::esl_check, py::kw_only(), py::arg("plugins") = py::none(),
           py::arg("encoding") = "cp1252",
           "Which plugins can be light (tesmod esl check; Skyrim SE only): a dict per plugin (every active one, or "
           "the ones named) with the keys of esl check --json: name, verdict (light_ok, light_ok_hedr171, "
           "needs_compaction, too_many_records, unreadable), new_records, out_of_range, hedr, dependants, "
           "warnings, others, reasons ...")
      .def("clean_report", &PyLoadOrder::clean_report, py::kw_only(), py::arg("itm") = true, py::arg("udr") = true,
           "What tesmod clean --all --dry-run reports: a dict per active plugin, shaped as Plugin.clean() returns "
           "it (or {plugin, error} for one that cannot be cleaned, e.g. a master missing). Writes nothing.")
      .def("patch", &PyLoadOrder::patch, py::arg("path") = py::none(), py::kw_only(), py::arg("mode") = "wryebash",
           py::arg("remove_empty") = "auto", py::arg("only") = py::none(), py::arg("masterlist") = py::none(),
           py::arg("userlist") = py::none(), py::arg("tags") = py::none(), py::arg("dry_run") = false,
           py::arg("encoding") = "cp1252",
           "Builds the Bashed Patch (tesmod patch) and writes it to path (its file name is the patch's name), "
           "atomically, unless dry_run. mode: 'wryebash' or 'merge'; remove_empty: 'auto', 'on', 'off'; only: "
           "'lists' or 'imports'; masterlist/userlist: LOOT's files; tags: {plugin: 'Tag,-Tag' or [tags]}. "
           "Returns the report as tesmod patch --json prints it: patch, game, mode, sources, masters, counts, "
           "tags (per plugin: tags, changes, uses), records (form, type, editor_id, part, winner, sources, notes), "
           "warnings, written.")
      .def("get", &PyLoadOrder::get, py::arg("form"),
           "The winning record of a form (a FormKey, a load-order FormID or 'File.esm:00ABCD'), or None.")
      .def("__getitem__", &PyLoadOrder::at, py::arg("form"), "The winning record of a form; KeyError if none.")
      .def("form_key", &PyLoadOrder::form_key, py::arg("plugin"), py::arg("form_id"),
           "The FormKey of a FormID as the plugin stores it, or None (its master is not in the load order).")
      .def("__len__", [](const PyLoadOrder& o) { return o.order().plugins().size(); })
      .def("__repr__", [](const PyLoadOrder& o) {
        return fmt::format("<tesmod.LoadOrder {} with {} plugins, {} active>", o.order().game_id(),
                           o.order().plugins().size(), o.order().active().size());
      });

  m.def(
      "load_order",
      [](const std::string& data, const std::optional<std::string>& plugins, const std::optional<std::string>& game,
         const std::optional<std::vector<std::string>>& files, unsigned threads) {
        loadorder::LoadOrderSource source;
        source.data = data;
        if (plugins) source.plugins_file = *plugins;
        if (game && !loadorder::select_game(source, *game))
          throw py::value_error("game is " + std::string(loadorder::kGameIds) + ", not '" + *game + "'");
        if (files) source.files.assign(files->begin(), files->end());
        source.threads = threads;
        py::gil_scoped_release release;
        // Plugin files given: their tags files are looked for beside the first.
        std::filesystem::path tags_data = data;
        if (files && !files->empty() && data == ".") tags_data = std::filesystem::path(files->front()).parent_path();
        return PyLoadOrder(loadorder::LoadOrder::open(source), tags_data.empty() ? "." : tags_data);
      },
      py::kw_only(), py::arg("data") = ".", py::arg("plugins") = py::none(), py::arg("game") = py::none(),
      py::arg("files") = py::none(), py::arg("threads") = 0,
      "Opens a load order: the Data folder's plugins in the game's order (plugins.txt, loadorder.txt, file times, "
      "Skyrim.ccc, as README 'Load orders' says), or the plugin files given, in order. Reads each plugin's header "
      "only; records are read when asked for. plugins: the plugins.txt (default DATA/plugins.txt); game: "
      "'oblivion', 'skyrim', 'skyrimse' or 'oblivionremastered' (default: from the headers; a data folder ending "
      "in ObvData/Data is Oblivion Remastered's).");
}

}  // namespace tesmod::python
