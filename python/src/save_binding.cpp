#include "save_binding.hpp"

#include <fmt/format.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/save/actor_change.hpp"
#include "tesmod/save/actor_editor.hpp"
#include "tesmod/save/save_file.hpp"
#include "tesmod/save/save_names.hpp"
#include "tesmod/text/save_text.hpp"

namespace py = pybind11;

namespace tesmod::python {
namespace {

constexpr std::uint32_t kPlayer = 0x00000007;

py::object to_python(const nlohmann::ordered_json& j) {
  return py::module_::import("json").attr("loads")(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// A form given from Python: a FormID (int) or text the save's namer reads (`Plugin.esp:ABCDEF`,
// an EditorID with a data folder, hex digits).
using FormArg = std::variant<std::uint32_t, std::string>;

class PySave {
 public:
  PySave(const std::string& path, const std::optional<std::string>& data, const std::string& encoding)
      : save_(std::make_unique<save::SaveFile>(save::SaveFile::open(path))),
        data_dir_(data.value_or(std::string())),
        codec_(encoding) {
    names_ = std::make_unique<save::SaveFormNamer>(*save_, data_dir_);
  }

  py::object info() const { return to_python(text::save_info_json(*save_, codec_)); }
  std::string path() const { return save_->name(); }

  std::uint32_t form(const FormArg& f, const char* what) const {
    if (const auto* id = std::get_if<std::uint32_t>(&f)) return *id;
    const std::string& text = std::get<std::string>(f);
    if (auto id = names_->resolve(text)) return *id;
    throw py::value_error(std::string(what) + " '" + text + "' names no form: expected a FormID, Plugin.esp:ABCDEF" +
                          (data_dir_.empty() ? " (or an EditorID with data=)" : " or an EditorID"));
  }

  py::object actor(const FormArg& which) const {
    const std::uint32_t id = form(which, "actor");
    const save::ChangeRecord* record = save_->find_actor(id);
    if (!record)
      throw Error(save_->name(), Error::kNoOffset, std::nullopt,
                  fmt::format("the save holds no NPC_ or CREA change record for FormID {:08X}", id));
    const save::ActorChange change = save::decode_actor_change(*record, save_->name());
    return to_python(text::actor_change_json(*save_, *record, change, *names_, codec_));
  }

  // All edits are checked first and written together by commit(): any refusal changes nothing.
  void edit_actor(const FormArg& which, const std::map<std::string, std::int64_t>& attributes,
                  const std::map<std::string, std::int64_t>& skills, std::optional<std::int64_t> health,
                  const std::map<std::string, std::int64_t>& base_data, const std::optional<std::string>& name,
                  const std::vector<FormArg>& add_spells, const std::vector<FormArg>& remove_spells,
                  const std::vector<std::pair<FormArg, std::int64_t>>& join_factions,
                  const std::vector<FormArg>& leave_factions,
                  const std::vector<std::pair<FormArg, std::int64_t>>& faction_ranks) {
    save::ActorEditor editor(*save_, form(which, "actor"), names_.get());
    for (const auto& [k, v] : attributes) editor.set_attribute(k, v);
    for (const auto& [k, v] : skills) editor.set_skill(k, v);
    if (health) editor.set_base_health(*health);
    using F = save::BaseDataField;
    const std::map<std::string, F> fields{{"magicka", F::Magicka}, {"fatigue", F::Fatigue}, {"barter_gold", F::BarterGold},
                                          {"level", F::Level},     {"calc_min", F::CalcMin}, {"calc_max", F::CalcMax}};
    for (const auto& [k, v] : base_data) {
      auto it = fields.find(k);
      if (it == fields.end())
        throw py::value_error("base_data key '" + k + "': expected magicka, fatigue, barter_gold, level, calc_min or calc_max");
      editor.set_base_data(it->second, v);
    }
    if (name) editor.set_full_name(codec_.from_utf8(*name));
    for (const FormArg& f : remove_spells) editor.remove_spell(form(f, "remove_spells"));
    for (const FormArg& f : add_spells) editor.add_spell(form(f, "add_spells"));
    for (const FormArg& f : leave_factions) editor.leave_faction(form(f, "leave_factions"));
    for (const auto& [f, rank] : join_factions) editor.join_faction(form(f, "join_factions"), rank);
    for (const auto& [f, rank] : faction_ranks) editor.set_faction_rank(form(f, "faction_ranks"), rank);
    editor.commit();
  }

  void write(const std::string& path) const {
    py::gil_scoped_release unlocked;
    save_->save(path);
  }

 private:
  std::unique_ptr<save::SaveFile> save_;  // fixed address: the namer refers to it
  std::filesystem::path data_dir_;
  TextCodec codec_;
  std::unique_ptr<save::SaveFormNamer> names_;
};

}  // namespace

void bind_saves(py::module_& m) {
  py::class_<PySave>(m, "Save", "An Oblivion save game (.ess).")
      .def_property_readonly("path", &PySave::path)
      .def("info", &PySave::info,
           "The summary `tesmod save info --json` prints: header, player, plugins, change record counts ...")
      .def_property_readonly("player", [](const PySave& s) { return s.actor(FormArg(kPlayer)); },
                             "The player's NPC_ change record (FormID 00000007) as a dict.")
      .def("actor", &PySave::actor, py::arg("form"),
           "An NPC_ or CREA change record as a dict (`tesmod save npc --json`); form: FormID, "
           "'Plugin.esp:ABCDEF' or (with data=) an EditorID.")
      .def("edit_actor", &PySave::edit_actor, py::arg("form"), py::kw_only(),
           py::arg("attributes") = std::map<std::string, std::int64_t>{},
           py::arg("skills") = std::map<std::string, std::int64_t>{}, py::arg("health") = py::none(),
           py::arg("base_data") = std::map<std::string, std::int64_t>{}, py::arg("name") = py::none(),
           py::arg("add_spells") = std::vector<FormArg>{}, py::arg("remove_spells") = std::vector<FormArg>{},
           py::arg("join_factions") = std::vector<std::pair<FormArg, std::int64_t>>{},
           py::arg("leave_factions") = std::vector<FormArg>{},
           py::arg("faction_ranks") = std::vector<std::pair<FormArg, std::int64_t>>{},
           "The edits of `tesmod save edit` on one actor (form as in actor(); 7 is the player). Every value is "
           "checked before anything changes: a refused edit raises tesmod.Error and leaves the save as it was. "
           "base_data keys: magicka, fatigue, barter_gold, level, calc_min, calc_max. join_factions and "
           "faction_ranks: (faction, rank) pairs.")
      .def("save", &PySave::write, py::arg("path"), "Writes the save atomically (the GIL is released).");

  m.def("open_save",
        [](const std::string& path, const std::optional<std::string>& data, const std::string& encoding) {
          return PySave(path, data, encoding);
        },
        py::arg("path"), py::kw_only(), py::arg("data") = py::none(), py::arg("encoding") = "WINDOWS-1252",
        "Opens an Oblivion save. data: the game's Data folder, to name forms by EditorID and check added "
        "spells and factions. encoding: the code page of its strings (an iconv name).");
}

}  // namespace tesmod::python
