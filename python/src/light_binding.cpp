#include "light_binding.hpp"

#include <fmt/format.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "plugin_handles.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/light/compact.hpp"

namespace py = pybind11;

namespace tesmod::python {

namespace {

namespace fs = std::filesystem;

py::dict compact(const std::string& plugin, const std::optional<std::string>& data, const std::optional<std::string>& plugins,
                 const std::optional<std::string>& hedr, bool flag, const std::optional<std::string>& output, bool in_place,
                 bool dry_run, const std::optional<std::string>& map_file, unsigned threads) {
  if (int(output.has_value()) + int(in_place) + int(dry_run) != 1)
    throw py::value_error("compact: give exactly one of output=DIR, in_place=True and dry_run=True");
  if (hedr && *hedr != "1.71") throw py::value_error("compact: hedr is '1.71' or None, not '" + *hedr + "'");
  const fs::path plugin_path(plugin);
  const fs::path folder = data ? fs::path(*data) : plugin_path.parent_path().empty() ? fs::path(".") : plugin_path.parent_path();
  light::CompactOptions options;
  options.hedr171 = hedr.has_value();
  options.flag = flag;
  light::CompactPlan plan;
  std::vector<light::CompactedFile> files;
  light::LooseFilePlan loose;
  {
    py::gil_scoped_release unlocked;
    loadorder::LoadOrderSource source;
    source.data = folder;
    source.game = Game::SkyrimSE;
    if (plugins) source.plugins_file = *plugins;
    source.threads = threads;
    const loadorder::LoadOrder order = loadorder::LoadOrder::open(source);
    const auto position = order.find(plugin_path.filename().string());
    if (!position)
      throw Error(plugin_path.filename().string(), Error::kNoOffset, std::nullopt, "not in the data folder " + folder.string());
    plan = light::plan_compaction(order, *position, options);
    if (plan.changes()) files = light::compact_files(order, plan);
    if (!plan.object_map.empty()) {
      light::LooseFileOptions loose_options;
      loose_options.own_index = plan.own_index;
      loose = light::plan_loose_files(folder, plan.plugin, plan.object_map, loose_options);
    }
    if (!dry_run) light::write_compaction(files, loose, folder, in_place ? std::nullopt : std::optional<fs::path>(*output));
  }
  const bool hedr171_after = options.hedr171 || hedr_allows_low_range(plan.hedr_before);
  py::dict map;
  for (const light::Renumbered& r : plan.renumbered) map[py::str(hex_id(r.from))] = hex_id(r.to);
  py::dict d;
  d["plugin"] = plan.plugin;
  d["hedr"] = hedr171_after ? py::object(py::str("1.71")) : py::object(py::none());
  d["map"] = map;
  if (map_file) {
    // The same three keys, the same bytes, as the CLI's --map.
    nlohmann::ordered_json j;
    j["plugin"] = plan.plugin;
    j["hedr"] = hedr171_after ? nlohmann::ordered_json("1.71") : nlohmann::ordered_json(nullptr);
    j["map"] = nlohmann::ordered_json::object();
    for (const light::Renumbered& r : plan.renumbered) j["map"][hex_id(r.from)] = hex_id(r.to);
    const std::string text = j.dump(2) + "\n";
    write_file_atomic(*map_file, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  }
  d["range"] = fmt::format("{:03X}-{:03X}", plan.range.first, plan.range.last);
  d["new_records"] = plan.new_records;
  d["next_object_id"] = fmt::format("{:06X}", plan.next_object_id);
  d["set_flag"] = plan.set_flag;
  py::list written;
  for (const light::CompactedFile& f : files) {
    py::dict w;
    w["name"] = f.name;
    w["records_changed"] = f.records_changed;
    w["references"] = f.references;
    written.append(w);
  }
  d[dry_run ? "would_write" : "written"] = written;
  py::list loose_lines;
  for (const std::string& line : light::loose_file_lines(loose)) loose_lines.append(line);
  d["loose_files"] = loose_lines;
  d["warnings"] = plan.warnings;
  return d;
}

}  // namespace

void bind_light(py::module_& m) {
  m.def("compact", &compact, py::arg("plugin"), py::kw_only(), py::arg("data") = py::none(),
        py::arg("plugins") = py::none(), py::arg("hedr") = py::none(), py::arg("flag") = false,
        py::arg("output") = py::none(), py::arg("in_place") = false, py::arg("dry_run") = false,
        py::arg("map") = py::none(), py::arg("threads") = 0,
        "Renumbers a Skyrim SE plugin's new records into the light range (tesmod esl compact): the plugin, every "
        "plugin of the data folder (default: the plugin's folder) that has it as a master, and the loose files "
        "named by its FormIDs (FaceGen, voice, SEQ). Exactly one of output=DIR, in_place=True, dry_run=True. "
        "hedr='1.71' sets HEDR 1.71 (ids below 800 when 800-FFF is full); flag sets the ESL flag; map=FILE writes "
        "{plugin, hedr, map} as JSON. Returns {plugin, hedr, map: {old: new}, range, new_records, next_object_id, "
        "set_flag, written (or would_write): [{name, records_changed, references}], loose_files: [lines], warnings}.");
}

}  // namespace tesmod::python
