// `tesmod vmad`: the Papyrus scripts (VMAD fields) of a Skyrim plugin's records, as text or JSON.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "tesmod/fields/vmad.hpp"
#include "tesmod/fields/vmad_plugin.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/plugin/form_names.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/vmad_text.hpp"

namespace tesmod::cli {
namespace {

struct VmadArgs {
  std::string file;
  std::string record;
  bool json = false;
};

// The index entry of the record named by EditorID (first, as some are valid hex) or FormID.
const IndexEntry& find_record(const PluginFile& file, const std::string& which) {
  for (const IndexEntry& e : file.entries().subspan(1)) {
    if (e.is_group()) continue;
    if (auto id = file.editor_id(e); id && ascii::iequals(*id, which)) return e;
  }
  std::uint32_t form_id = 0;
  try {
    form_id = parse_form_id_arg(which, file.header(), std::filesystem::path(file.name()).filename().string());
  } catch (const UsageError&) {
    throw Error(file.name(), Error::kNoOffset, std::nullopt,
                fmt::format("no record '{}': no such EditorID, and not a FormID of the plugin or its masters", which));
  }
  if (auto i = file.find_form_id(form_id)) return file.entry(*i);
  throw Error(file.name(), Error::kNoOffset, std::nullopt, fmt::format("no record '{}'", which));
}

std::string record_label(const RecordRef& r, const TextCodec& codec) {
  std::string text = fmt::format("{} {:08X}", r.type.str(), r.form_id);
  if (!r.editor_id.empty()) text += " " + codec.to_utf8(r.editor_id);
  return text;
}

int run(const VmadArgs& a, const Common& common) {
  const TextCodec codec(common.encoding);
  OpenOptions open;
  open.threads = common.threads;
  const PluginFile file = open_plugin(a.file, open);
  if (file.game() == Game::Oblivion) {
    throw UsageError(fmt::format("vmad: {} is an Oblivion plugin; VMAD fields (Papyrus scripts) exist only in Skyrim plugins",
                                 a.file));
  }
  const IndexEntry* only = a.record.empty() ? nullptr : &find_record(file, a.record);
  // FormIDs by EditorID, from the plugin and the masters found beside it.
  PluginFormNamer::Options naming;
  naming.threads = common.threads;
  const PluginFormNamer namer = PluginFormNamer::build(file, naming);
  text::VmadTextOptions o;
  o.namer = &namer;
  o.codec = &codec;
  o.indent = "  ";

  int status = kExitOk;
  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  fields::for_each_vmad(
      file,
      [&](const fields::VmadField& f) {
        const RecordRef& r = *f.where.record;
        fields::Vmad vmad;
        try {
          vmad = fields::decode_vmad(f.data, r.type, f.where, f.data_offset);
        } catch (const Error& e) {
          // One broken VMAD does not hide the others; the exit code tells.
          std::cerr << "tesmod: error: " << e.what() << '\n';
          status = kExitError;
          return;
        }
        if (a.json) {
          nlohmann::ordered_json j;
          j["type"] = r.type.str();
          j["form_id"] = fmt::format("{:08X}", r.form_id);
          j["editor_id"] = codec.to_utf8(r.editor_id);
          j["vmad"] = text::vmad_json(vmad, o);
          records.push_back(std::move(j));
        } else {
          std::cout << record_label(r, codec) << '\n' << text::vmad_text(vmad, o);
        }
      },
      only);
  if (a.json) {
    nlohmann::ordered_json out;
    out["file"] = a.file;
    out["records"] = std::move(records);
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  }
  return status;
}

}  // namespace

Command add_vmad(CLI::App& app, Common& common) {
  auto args = std::make_shared<VmadArgs>();
  CLI::App* sub = app.add_subcommand("vmad", "Papyrus script attachments (VMAD) of a Skyrim plugin: scripts, properties, fragments, aliases");
  sub->add_option("FILE", args->file, "Skyrim plugin")->required();
  sub->add_option("--record", args->record, "Only this record: EditorID or FormID (0001ABCD or Skyrim.esm:01ABCD)");
  sub->add_flag("--json", args->json, "Print JSON");
  add_common_options(*sub, common);
  return {sub, [args, &common] { return run(*args, common); }};
}

}  // namespace tesmod::cli
