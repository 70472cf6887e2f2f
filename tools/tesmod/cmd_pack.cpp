// `tesmod pack`: the AI packages (PACK records) of a plugin as text or JSON: Skyrim's sections,
// or Oblivion's simpler layout.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "tesmod/fields/package_codec.hpp"
#include "tesmod/fields/package_oblivion.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/fields/condition.hpp"
#include "tesmod/plugin/form_names.hpp"
#include "tesmod/text/condition_text.hpp"
#include "tesmod/text/hex.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/package_text.hpp"

namespace tesmod::cli {
namespace {

struct PackArgs {
  std::string file;
  std::string record;
  bool json = false;
};

// The PACK records the command shows: all, or the one --record names (EditorID first, as some
// EditorIDs are valid hex).
std::vector<const IndexEntry*> select_packages(const PluginFile& file, const std::string& which) {
  std::vector<const IndexEntry*> all;
  for (const IndexEntry& e : file.entries())
    if (!e.is_group() && e.type == Signature("PACK")) all.push_back(&e);
  if (which.empty()) return all;
  std::vector<const IndexEntry*> chosen;
  for (const IndexEntry* e : all)
    if (ascii::iequals(file.editor_id(*e).value_or(std::string()), which)) chosen.push_back(e);
  if (chosen.empty()) {
    std::optional<std::uint32_t> id;
    try {
      id = parse_form_id_arg(which, file.header(), std::filesystem::path(file.name()).filename().string());
    } catch (const UsageError&) {
      // Neither an EditorID of the plugin nor a FormID: reported below as not found.
    }
    for (const IndexEntry* e : all)
      if (id && e->id == *id) chosen.push_back(e);
  }
  if (chosen.empty()) {
    throw Error(file.name(), Error::kNoOffset, std::nullopt, fmt::format("no PACK record with EditorID or FormID '{}'", which));
  }
  return chosen;
}

// The data input names of the template packages the plugin and the masters beside it define, by
// FormID as the plugin stores it, so that a package's public inputs can be named after its
// template's inputs. Masters that are missing or do not read are skipped: names are a help only.
class TemplateInputNames {
 public:
  TemplateInputNames(const PluginFile& plugin, unsigned threads) {
    const std::vector<MasterFile>& masters = plugin.header().masters;
    add(plugin, [&](std::uint32_t id) { return remap(plugin, id, masters, masters.size()); });
    const std::filesystem::path folder = std::filesystem::path(plugin.name()).parent_path();
    for (std::size_t i = 0; i < masters.size(); ++i) {
      const std::optional<std::filesystem::path> path = find_file(folder, masters[i].name);
      if (!path) continue;
      try {
        OpenOptions o;
        o.threads = threads;
        const PluginFile master = open_plugin(*path, o);
        add(master, [&](std::uint32_t id) { return remap(master, id, masters, i); });
      } catch (const Error&) {
      }
    }
  }

  std::optional<std::string> name(std::uint32_t template_package, std::uint8_t id) const {
    const auto it = names_.find(template_package);
    if (it == names_.end()) return std::nullopt;
    for (const fields::DataInputName& n : it->second)
      if (n.id == id) return n.name;
    return std::nullopt;
  }

 private:
  // A FormID as file stores it, as the plugin stores it: file's own forms are the plugin's file
  // index `self`, its masters' forms the plugin's index of the same master.
  static std::optional<std::uint32_t> remap(const PluginFile& file, std::uint32_t id,
                                            const std::vector<MasterFile>& plugin_masters, std::size_t self) {
    const std::size_t top = id >> 24;
    const std::vector<MasterFile>& own = file.header().masters;
    std::size_t index = self;
    if (top < own.size()) {
      const auto it = std::find_if(plugin_masters.begin(), plugin_masters.end(),
                                   [&](const MasterFile& m) { return ascii::iequals(m.name, own[top].name); });
      if (it == plugin_masters.end()) return std::nullopt;
      index = std::size_t(it - plugin_masters.begin());
    }
    if (index > 0xFF) return std::nullopt;
    return std::uint32_t(index) << 24 | (id & 0xFFFFFF);
  }

  template <class Remap>
  void add(const PluginFile& file, Remap remap_id) {
    Inflater inflater;
    for (const IndexEntry& e : file.entries()) {
      if (e.is_group() || e.type != Signature("PACK")) continue;
      try {
        fields::Package p = fields::read_package(file, e, inflater);
        if (!p.header.data.is_template()) continue;
        if (const auto id = remap_id(e.id); id && !names_.contains(*id)) names_.emplace(*id, std::move(p.input_names));
      } catch (const Error&) {
      }
    }
  }

  static std::optional<std::filesystem::path> find_file(const std::filesystem::path& folder, const std::string& name) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder.empty() ? "." : folder, ec))
      if (ascii::iequals(entry.path().filename().string(), name)) return entry.path();
    return std::nullopt;
  }

  std::map<std::uint32_t, std::vector<fields::DataInputName>> names_;
};

// The package at e as text (after its heading line) or JSON, whichever game it is from.
struct Rendered {
  std::optional<std::string> editor_id;
  std::string text;
  nlohmann::ordered_json json;
};

Rendered render(const PluginFile& file, const IndexEntry& e, Inflater& inflater, const text::PackageTextOptions& options,
                bool json) {
  Rendered r;
  if (file.game() == Game::Oblivion) {
    const fields::OblivionPackage p = fields::read_oblivion_package(file, e, inflater);
    r.editor_id = p.editor_id;
    if (json) r.json = text::oblivion_package_json(p, options);
    else r.text = text::oblivion_package_text(p, options, 1);
  } else {
    const fields::Package p = fields::read_package(file, e, inflater);
    r.editor_id = p.editor_id;
    if (json) r.json = text::package_json(p, options);
    else r.text = text::package_text(p, options, 1);
  }
  return r;
}

int run(const PackArgs& a, const Common& common) {
  OpenOptions open_options;
  open_options.threads = common.threads;
  const PluginFile file = open_plugin(a.file, open_options);
  const std::vector<const IndexEntry*> chosen = select_packages(file, a.record);
  const TextCodec codec(common.encoding);
  const PluginFormNamer names = PluginFormNamer::build(file, {.load_masters = true, .threads = common.threads});
  std::optional<TemplateInputNames> templates;  // Oblivion packages have no templates
  if (file.game() != Game::Oblivion) templates.emplace(file, common.threads);
  text::PackageTextOptions options;
  options.names = &names;
  options.codec = &codec;
  options.input_name = [&](std::uint32_t template_package, std::uint8_t id) -> std::optional<std::string> {
    if (templates)
      if (auto n = templates->name(template_package, id)) return codec.to_utf8(*n);
    return std::nullopt;
  };
  // Conditions as the `conditions` command shows them; one that does not decode stays hex.
  const ErrorContext where{file.name(), Error::kNoOffset, std::nullopt};
  options.condition_text = [&](std::span<const Field> f) {
    try {
      return text::render_condition(fields::decode_condition_fields(file.game(), f, where), names);
    } catch (const Error&) {
      return text::hex_bytes(f[0].data);
    }
  };
  options.condition_json = [&](std::span<const Field> f) -> nlohmann::ordered_json {
    try {
      return text::condition_json(fields::decode_condition_fields(file.game(), f, where), names);
    } catch (const Error&) {
      return text::hex_bytes(f[0].data);
    }
  };

  Inflater inflater;
  int status = kExitOk;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  bool first = true;
  for (const IndexEntry* e : chosen) {
    Rendered r;
    try {
      r = render(file, *e, inflater, options, a.json);
    } catch (const Error& error) {
      // One broken record does not hide the others; the exit code tells.
      if (chosen.size() == 1) throw;
      status = kExitError;
      std::cerr << "tesmod: error: " << error.what() << '\n';
      if (a.json) list.push_back({{"form_id", fmt::format("{:08X}", e->id)}, {"error", error.what()}});
      continue;
    }
    if (a.json) {
      nlohmann::ordered_json j;
      j["form_id"] = fmt::format("{:08X}", e->id);
      j["name"] = names.name(e->id);
      j.update(r.json);
      list.push_back(std::move(j));
      continue;
    }
    if (!first) std::cout << '\n';
    first = false;
    std::cout << fmt::format("PACK {:08X}", e->id) << (r.editor_id ? " " + codec.to_utf8(*r.editor_id) : std::string())
              << '\n'
              << r.text;
  }
  if (a.json) {
    nlohmann::ordered_json out;
    out["file"] = a.file;
    out["game"] = game_id(file.game());
    out["packages"] = std::move(list);
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  }
  return status;
}

}  // namespace

Command add_pack(CLI::App& app, Common& common) {
  auto args = std::make_shared<PackArgs>();
  CLI::App* sub = app.add_subcommand("pack", "AI packages (PACK) of a Skyrim or Oblivion plugin as text or JSON");
  sub->add_option("FILE", args->file, "Plugin")->required();
  sub->add_option("--record", args->record, "Only this PACK: EditorID, FormID (0001ABCD) or File.esm:01ABCD");
  sub->add_flag("--json", args->json, "Print JSON");
  add_common_options(*sub, common);
  return {sub, [args, &common] { return run(*args, common); }};
}

}  // namespace tesmod::cli
