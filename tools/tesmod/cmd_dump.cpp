#include <iostream>
#include <memory>

#include "commands.hpp"
#include "dump_unmatched.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/dump.hpp"

namespace tesmod::cli {

Command add_dump(CLI::App& app, Common& common) {
  struct Args {
    std::string file;
    std::vector<std::string> types, form_ids, editor_ids;
    bool json = false;
    bool no_masters = false;
    std::string language = "English";
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("dump", "Groups, records and fields of a plugin (unknown data as hex)");
  sub->add_option("FILE", args->file, "Plugin (.esp, .esm, .esl)")->required();
  sub->add_option("--type", args->types, "Only records of this type (repeatable)");
  sub->add_option("--formid", args->form_ids, "Only the record with this FormID: 0001ABCD or File.esm:01ABCD (repeatable)");
  sub->add_option("--edid", args->editor_ids, "Only the record with this EditorID (repeatable)");
  sub->add_flag("--json", args->json, "Print JSON");
  sub->add_option("--language", args->language, "Language of the string tables of a localized plugin")
      ->capture_default_str();
  sub->add_flag("--no-masters", args->no_masters, "Do not read masters beside the plugin to name FormIDs");
  add_common_options(*sub, common);
  return {sub, [args, &common] {
            TextCodec codec(common.encoding);
            OpenOptions options;
            options.threads = common.threads;
            PluginFile file = open_plugin(args->file, options);
            text::DumpOptions o;
            o.codec = &codec;
            for (const std::string& t : args->types) {
              Signature s;
              if (!Signature::parse(t, s)) throw UsageError("--type '" + t + "': expected a four-character record type");
              o.types.push_back(s);
            }
            const std::string own_name = std::filesystem::path(args->file).filename().string();
            for (const std::string& f : args->form_ids) o.form_ids.push_back(parse_form_id_arg(f, file.header(), own_name));
            for (const std::string& e : args->editor_ids) o.editor_ids.push_back(codec.from_utf8(e));
            std::unique_ptr<LocalizedStrings> strings;
            if (file.game() != Game::Oblivion && file.header().is_localized()) {
              strings = std::make_unique<LocalizedStrings>(LocalizedStrings::load(args->file, args->language));
              o.strings = strings.get();
            }
            FormIds::Options fo;
            fo.load_masters = !args->no_masters;
            fo.threads = common.threads;
            FormIds names = FormIds::build(file, fo);
            o.form_id_names = &names;
            const std::size_t shown = args->json ? text::dump_json(file, o, std::cout) : text::dump_text(file, o, std::cout);
            // After what did match, so that one missing FormID of several still shows the rest.
            const std::vector<std::string> unmatched = unmatched_filters(file, o, args->editor_ids, shown);
            for (const std::string& line : unmatched) std::cerr << "tesmod: error: " << args->file << ": " << line << "\n";
            return unmatched.empty() ? kExitOk : kExitError;
          }};
}

}  // namespace tesmod::cli
