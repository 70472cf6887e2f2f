// `tesmod esl check [PLUGIN...]`: which plugins of a Skyrim SE load order can be light (ESL), and
// why not (light/esl_check.hpp): per plugin the verdict, its reasons, the warnings and where
// esplugin, Wrye Bash and xEdit would answer otherwise. Exit 1 when a plugin that is light already
// is not valid (LOOT's "irreversible damage to your game saves") or a checked plugin does not
// read; else 0, whatever the verdicts (they are advice, not errors). A load order of another game
// is a usage error (exit 2).
#include <cstdio>
#include <iostream>
#include <memory>

#include "cmd_esl.hpp"
#include "load_order_args.hpp"
#include "tesmod/light/esl_check.hpp"
#include "tesmod/text/esl_check_text.hpp"

namespace tesmod::cli {

Command add_esl_check(CLI::App& esl, Common& common) {
  struct Args {
    LoadOrderArgs order;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = esl.add_subcommand(
      "check",
      "Which plugins of a Skyrim SE load order can be flagged light (ESL) as they are, with HEDR 1.71, "
      "after compaction, or not at all, and why; warnings for the engine's light-plugin bugs (new cells, "
      "worldspaces, weathers); exit 1 when a plugin that is light already is not valid");
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
            if (order.game() != Game::SkyrimSE)
              throw UsageError(
                  std::string("esl check: only Skyrim SE load orders have light (ESL) plugins; this one is ") +
                  std::string(game_title(order.game())) + " (--game skyrimse reads the plugins as Skyrim SE's)");
            const std::vector<light::EslReport> reports = light::esl_check(order, selection.positions(order));
            if (args->json) {
              const std::string out = text::esl_check_json(order, reports, codec);
              std::fwrite(out.data(), 1, out.size(), stdout);
            } else {
              std::cout << text::esl_check_text(reports, codec);
              for (const loadorder::Problem& p : order.problems())
                std::cerr << "note: " << p.file << ": " << p.message << "\n";
            }
            for (const light::EslReport& r : reports)
              if (light::is_error(r)) return kExitError;
            return kExitOk;
          }};
}

}  // namespace tesmod::cli
