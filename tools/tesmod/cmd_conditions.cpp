// `tesmod conditions`: every condition (CTDA/CTDT with its CIS1/CIS2) of a plugin, or of one
// record, grouped by record, as text or JSON.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "tesmod/fields/condition.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/form_names.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/condition_text.hpp"

namespace tesmod::cli {
namespace {

struct Args {
  std::string file;
  std::string record;
  bool json = false;
};

// The entry indices of the records --record names: EditorID first (some are valid hex), then FormID.
std::vector<std::uint32_t> select_records(const PluginFile& file, const std::string& which) {
  std::vector<std::uint32_t> out;
  const auto entries = file.entries();
  for (std::uint32_t i = 1; i < entries.size(); ++i) {
    if (entries[i].is_group()) continue;
    if (auto id = file.editor_id(entries[i]); id && ascii::iequals(*id, which)) out.push_back(i);
  }
  if (!out.empty()) return out;
  const std::uint32_t form_id =
      parse_form_id_arg(which, file.header(), std::filesystem::path(file.name()).filename().string());
  for (std::uint32_t i = 1; i < entries.size(); ++i)
    if (!entries[i].is_group() && entries[i].id == form_id) out.push_back(i);
  if (out.empty()) throw UsageError(fmt::format("conditions: no record '{}' in {}", which, file.name()));
  return out;
}

int run(const Args& args, const Common& common) {
  const TextCodec codec(common.encoding);
  OpenOptions options;
  options.threads = common.threads;
  const PluginFile file = open_plugin(args.file, options);
  PluginFormNamer::Options naming;
  naming.threads = common.threads;
  const PluginFormNamer namer = PluginFormNamer::build(file, naming);

  std::vector<std::uint32_t> chosen;
  if (!args.record.empty()) {
    chosen = select_records(file, args.record);
  } else {
    for (std::uint32_t i = 1; i < file.entries().size(); ++i)
      if (!file.entry(i).is_group()) chosen.push_back(i);
  }

  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  std::uint64_t total = 0;
  Inflater inflater;
  for (const std::uint32_t i : chosen) {
    const IndexEntry& e = file.entry(i);
    const std::uint64_t body_offset = e.is_compressed() ? Error::kNoOffset : e.offset + file.header_size();
    const ErrorContext where = file.context(e);
    const std::vector<SubrecordView> fields = read_subrecords(file.body(e, inflater), where, body_offset);
    const std::vector<fields::LocatedCondition> found =
        fields::read_conditions(file.game(), fields, where, body_offset);
    if (found.empty() && args.record.empty()) continue;
    total += found.size();
    const std::string editor_id = codec.to_utf8(where.record->editor_id);
    if (args.json) {
      nlohmann::ordered_json r;
      r["type"] = e.type.str();
      r["form_id"] = fmt::format("{:08X}", e.id);
      r["editor_id"] = editor_id;
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      for (const fields::LocatedCondition& lc : found) list.push_back(text::condition_json(lc.condition, namer));
      r["conditions"] = std::move(list);
      records.push_back(std::move(r));
      continue;
    }
    std::cout << fmt::format("{} {:08X}{}\n", e.type.str(), e.id, editor_id.empty() ? "" : " " + editor_id);
    for (const fields::LocatedCondition& lc : found)
      std::cout << "  " << codec.to_utf8(text::render_condition(lc.condition, namer)) << '\n';
  }
  if (args.json) {
    nlohmann::ordered_json out;
    out["file"] = args.file;
    out["game"] = game_id(file.game());
    out["conditions"] = total;
    out["records"] = std::move(records);
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  }
  return kExitOk;
}

}  // namespace

Command add_conditions(CLI::App& app, Common& common) {
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("conditions", "Conditions (CTDA) of a plugin as text or JSON, grouped by record");
  sub->add_option("FILE", args->file, "Plugin")->required();
  sub->add_option("--record", args->record, "Only this record: EditorID or FormID (0001ABCD or File.esm:01ABCD)");
  sub->add_flag("--json", args->json, "Print JSON");
  add_common_options(*sub, common);
  return {sub, [args, &common] { return run(*args, common); }};
}

}  // namespace tesmod::cli
