// `tesmod check [PLUGIN...]`: the errors xEdit checks for, per plugin against its masters, over
// a load order (every active plugin, or the ones named). One line per problem; exit 1 when any.
#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "load_order_args.hpp"
#include "tesmod/loadorder/load_order_check.hpp"
#include "tesmod/text/check_json.hpp"

namespace tesmod::cli {

Command add_check(CLI::App& app, Common& common) {
  struct Args {
    LoadOrderArgs order;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand(
      "check", "Errors in each plugin of a load order, against its masters: missing or misordered masters, "
               "FormIDs past the master list, references to nothing or to the wrong type, duplicates, deleted "
               "records with fields, light plugin ranges, header and form versions, fields a record type does "
               "not hold, holds out of order or lacks, fields of the wrong size or with values no game writes; "
               "exit 1 when any");
  add_load_order_options(*sub, args->order,
                         "The plugins to check: with --data, names in its load order (default: every active plugin); "
                         "without, plugin files in load order (their masters are read from beside them)");
  sub->add_flag("--json", args->json, "Print JSON");
  add_common_options(*sub, common);
  return {sub, [args, &common] {
            const TextCodec codec(common.encoding);
            LoadOrderArgs order_args = args->order;
            const PluginSelection selection(order_args);
            const loadorder::LoadOrder order = open_load_order(order_args, common.threads);
            loadorder::CheckOptions options;
            options.plugins = selection.positions(order);
            const std::vector<loadorder::CheckProblem> problems = loadorder::check_load_order(order, options);
            std::vector<std::uint32_t> checked = options.plugins;
            if (checked.empty())
              for (std::uint32_t p = 0; p < order.plugins().size(); ++p)
                if (order.plugin(p).active) checked.push_back(p);
            if (args->json) {
              std::string out;
              text::append_check_json(out, order, checked, problems, codec);
              std::fwrite(out.data(), 1, out.size(), stdout);
            } else {
              std::string out;
              for (const loadorder::CheckProblem& p : problems) out += loadorder::problem_line(p, codec) + "\n";
              out += fmt::format("{} problem{} in {} plugin{}\n", problems.size(), problems.size() == 1 ? "" : "s",
                                 checked.size(), checked.size() == 1 ? "" : "s");
              std::cout << out;
              for (const loadorder::Problem& p : order.problems()) std::cerr << "note: " << p.file << ": " << p.message << "\n";
            }
            return problems.empty() ? kExitOk : kExitError;
          }};
}

}  // namespace tesmod::cli
