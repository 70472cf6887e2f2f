#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "tesmod/plugin/plugin.hpp"

namespace tesmod::cli {

Command add_rewrite(CLI::App& app, Common& common) {
  struct Args {
    std::string file;
    std::string output;
    bool in_place = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("rewrite", "Read a plugin and write it out again through the writer (atomically)");
  sub->add_option("FILE", args->file, "Plugin to read")->required();
  auto* out = sub->add_option("-o,--output", args->output, "Where to write");
  auto* in_place = sub->add_flag("--in-place", args->in_place, "Replace FILE itself (atomically)");
  out->excludes(in_place);
  add_common_options(*sub, common);
  return {sub, [args, &common] {
            std::filesystem::path target = args->in_place ? std::filesystem::path(args->file) : std::filesystem::path(args->output);
            if (!args->in_place) {
              if (args->output.empty()) throw UsageError("rewrite: give -o OUT, or --in-place to replace the input");
              std::error_code ec;
              if (std::filesystem::equivalent(args->file, args->output, ec)) {
                throw UsageError("rewrite: the output is the input file; pass --in-place to replace it");
              }
            }
            OpenOptions options;
            options.threads = common.threads;
            expect_plugin(args->file);
            Plugin plugin = Plugin::open(args->file, options);
            plugin.save(target);
            return kExitOk;
          }};
}

}  // namespace tesmod::cli
