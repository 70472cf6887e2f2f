// `tesmod load-order`: the plugins of a load order in order, with their load-order indices,
// active or not, master and light flags and masters; the problems found on the way.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "load_order_args.hpp"

namespace tesmod::cli {

nlohmann::ordered_json problems_json(const std::vector<loadorder::Problem>& problems) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const loadorder::Problem& p : problems) out.push_back({{"file", p.file}, {"message", p.message}});
  return out;
}

Command add_load_order(CLI::App& app, Common& common) {
  struct Args {
    LoadOrderArgs order;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand(
      "load-order", "The plugins a game loads, in order: load-order index (00-FD, FE 000 for light plugins), active or "
                    "not, master/light flags and masters; problems (missing masters, bad lines, limits)");
  add_load_order_options(*sub, args->order, "Plugin files in load order, all active (instead of --data's lists)");
  sub->add_flag("--json", args->json, "Print JSON");
  add_common_options(*sub, common);
  return {sub, [args, &common] {
            const loadorder::LoadOrder order = open_load_order(args->order, common.threads);
            if (args->json) {
              nlohmann::ordered_json j;
              j["game"] = order.game_id();
              nlohmann::ordered_json plugins = nlohmann::ordered_json::array();
              for (const loadorder::LoadOrderPlugin& p : order.plugins()) {
                nlohmann::ordered_json e;
                e["name"] = p.name;
                e["index"] = p.index ? nlohmann::ordered_json(p.index->text()) : nlohmann::ordered_json(nullptr);
                e["active"] = p.active;
                e["master"] = p.master;
                e["light"] = p.light;
                e["masters"] = p.masters;
                if (p.ghosted) e["ghost"] = true;
                if (!p.readable()) e["error"] = p.error;
                plugins.push_back(std::move(e));
              }
              j["plugins"] = std::move(plugins);
              j["problems"] = problems_json(order.problems());
              std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
              return kExitOk;
            }
            std::string out = fmt::format("{} load order: {} plugins, {} active\n", order.game_title(),
                                          order.plugins().size(), order.active().size());
            for (const loadorder::LoadOrderPlugin& p : order.plugins()) {
              std::string flags;
              auto add = [&](std::string_view f) { flags += flags.empty() ? std::string(f) : ", " + std::string(f); };
              if (p.master) add("master");
              if (p.light) add("light");
              if (p.ghosted) add("ghost");
              if (p.active && !p.index) add("active, no index");
              else if (!p.active) add("inactive");
              if (!p.readable()) add("does not read");
              out += fmt::format("{:<7} {}{}\n", p.index ? p.index->text() : std::string("--"), p.name,
                                 flags.empty() ? std::string() : "  [" + flags + "]");
              if (!p.masters.empty()) {
                std::string masters;
                for (const std::string& m : p.masters) masters += (masters.empty() ? "" : ", ") + m;
                out += fmt::format("        masters: {}\n", masters);
              }
            }
            if (!order.problems().empty()) out += "problems:\n" + problems_text(order.problems());
            std::cout << out;
            return kExitOk;
          }};
}

}  // namespace tesmod::cli
