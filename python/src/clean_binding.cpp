#include "clean_binding.hpp"

#include <fmt/format.h>
#include <pybind11/stl.h>

namespace py = pybind11;

namespace tesmod::python {

py::dict clean_report_dict(const clean::CleanReport& r) {
  py::dict d;
  d["plugin"] = r.plugin;
  py::list masters;
  for (const std::string& m : r.masters) masters.append(decode(m));
  d["masters"] = masters;
  d["crc_before"] = fmt::format("{:08X}", r.crc_before);
  d["crc_after"] = fmt::format("{:08X}", r.crc_after);
  for (clean::CleanKind kind : clean::kCleanKinds) {
    py::list ids;
    for (const clean::CleanDecision& x : r.decisions)
      if (x.kind == kind) ids.append(hex_id(x.form_id));
    d[py::str(std::string(clean::kind_key(kind)))] = ids;
  }
  py::list decisions;
  for (const clean::CleanDecision& x : r.decisions) {
    py::dict e;
    e["kind"] = std::string(clean::kind_key(x.kind));
    e["reason"] = std::string(clean::kind_reason(x.kind));
    e["type"] = x.type.str();
    e["form_id"] = hex_id(x.form_id);
    e["editor_id"] = x.editor_id.empty() ? py::object(py::none()) : py::object(decode(x.editor_id));
    e["detail"] = x.detail;
    decisions.append(e);
  }
  d["decisions"] = decisions;
  return d;
}

py::dict clean_open_plugin(OpenPlugin& plugin, const std::optional<std::string>& data, bool dry_run, bool itm, bool udr) {
  if (plugin.model)
    throw py::value_error("clean() cleans the plugin as read: call it before other edits (or save and open again)");
  const std::filesystem::path path(plugin.reader().name());
  const std::filesystem::path folder = data ? std::filesystem::path(*data)
                                       : path.parent_path().empty() ? std::filesystem::path(".")
                                                                    : path.parent_path();
  clean::CleanOptions options;
  options.itm = itm;
  options.udr = udr;
  clean::CleanReport report;
  const PluginFile& file = plugin.file();
  {
    py::gil_scoped_release unlocked;
    const loadorder::LoadOrder order = clean::open_with_masters(path, folder);
    std::optional<std::uint32_t> found;
    for (std::uint32_t p = 0; p < order.plugins().size(); ++p) {
      std::error_code ec;
      if (std::filesystem::equivalent(order.plugin(p).path, path, ec)) found = p;
    }
    if (!found) throw Error(path.string(), Error::kNoOffset, std::nullopt, "the plugin is not in the load order read for it");
    report = clean::plan_cleaning(order, *found, options);
    clean::set_crc_after(order, *found, report);
  }
  if (!dry_run && report.changes()) {
    Plugin model = Plugin::from_file(file);
    clean::apply_cleaning(model, report);
    plugin.set_model(std::move(model));
    plugin.by_id_stale = true;
  }
  return clean_report_dict(report);
}

}  // namespace tesmod::python
