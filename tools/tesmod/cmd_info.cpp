#include <iostream>
#include <memory>

#include "commands.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/info.hpp"

namespace tesmod::cli {

void add_common_options(CLI::App& sub, Common& common) {
  sub.add_option("--encoding", common.encoding, "Code page of the plugin's strings (an iconv name)")
      ->capture_default_str();
  sub.add_option("--threads", common.threads,
                 "Worker threads for full passes such as --subrecords (default: all cores; indexing alone is\n"
                 "bound by memory latency and runs on one)");
}

Command add_info(CLI::App& app, Common& common) {
  struct Args {
    std::string file;
    bool json = false;
    bool subrecords = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("info", "Game, version, flags, masters and counts of a plugin");
  sub->add_option("FILE", args->file, "Plugin (.esp, .esm, .esl)")->required();
  sub->add_flag("--json", args->json, "Print JSON");
  sub->add_flag("--subrecords", args->subrecords,
                "Also count every subrecord, inflating every compressed record (a full pass over the file)");
  add_common_options(*sub, common);
  return {sub, [args, &common] {
            TextCodec codec(common.encoding);
            OpenOptions options;
            options.threads = common.threads;
            options.count_subrecords = args->subrecords;
            PluginFile file = open_plugin(args->file, options);
            if (args->json) {
              std::cout << text::info_json(file, codec).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                        << '\n';
            } else {
              std::cout << text::info_text(file, codec);
            }
            return kExitOk;
          }};
}

}  // namespace tesmod::cli
