#include "order_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "tesmod/io/ascii.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod::loadorder::detail {
namespace {

bool ends_with_ext(std::string_view name, std::string_view ext) {
  return name.size() >= ext.size() && ascii::iequals(name.substr(name.size() - ext.size()), ext);
}

// ASCII upper case (the bytes of other UTF-8 characters kept): libloadorder's tie-break key.
std::string to_upper(std::string_view name) {
  std::string out(name);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
  return out;
}

using NameIndex = std::unordered_map<std::string, std::size_t>;

NameIndex index_names(const std::vector<LoadOrderPlugin>& plugins) {
  NameIndex out;
  for (std::size_t i = 0; i < plugins.size(); ++i) out.emplace(ascii::to_lower(plugins[i].name), i);
  return out;
}

std::optional<std::size_t> lookup(const NameIndex& index, std::string_view name) {
  auto it = index.find(ascii::to_lower(name));
  if (it == index.end()) return std::nullopt;
  return it->second;
}

}  // namespace

std::vector<std::string> early_plugins(Game game, const std::vector<std::string>& ccc) {
  std::vector<std::string> out;
  if (game == Game::SkyrimLE) out = {"Skyrim.esm"};
  if (game != Game::SkyrimSE) return out;
  out = {"Skyrim.esm", "Update.esm", "Dawnguard.esm", "HearthFires.esm", "Dragonborn.esm"};
  for (const std::string& name : ccc)
    if (std::none_of(out.begin(), out.end(), [&](const std::string& n) { return ascii::iequals(n, name); }))
      out.push_back(name);
  return out;
}

bool loads_as_master(Game game, const LoadOrderPlugin& plugin) {
  if (plugin.readable() && plugin.header.is_master()) return true;
  return game == Game::SkyrimSE && (ends_with_ext(plugin.name, ".esm") || ends_with_ext(plugin.name, ".esl"));
}

bool loads_as_light(Game game, const LoadOrderPlugin& plugin) {
  if (game != Game::SkyrimSE) return false;
  return (plugin.readable() && (plugin.header.flags & record_flags::kLight)) || ends_with_ext(plugin.name, ".esl");
}

Game detect_game(const std::vector<Installed>& installed, const Lists& lists,
                 const std::vector<std::uint16_t>& first_form_version, bool load_order_file_found) {
  std::size_t oblivion = 0, skyrim = 0;
  bool header_says_se = false, form_version_says_se = false;
  for (std::size_t i = 0; i < installed.size(); ++i) {
    const LoadOrderPlugin& p = installed[i].plugin;
    if (!p.readable()) continue;
    if (p.format == Game::Oblivion) {
      ++oblivion;
      continue;
    }
    ++skyrim;
    if (std::fabs(p.header.version - 1.71f) < 0.005f || (p.header.flags & record_flags::kLight) ||
        ends_with_ext(p.name, ".esl"))
      header_says_se = true;
    if (i < first_form_version.size() && first_form_version[i] >= 44) form_version_says_se = true;
  }
  if (oblivion > skyrim) return Game::Oblivion;
  if (skyrim == 0 && !(lists.plugins && lists.plugins->has_asterisks) && !load_order_file_found) return Game::Oblivion;
  if (header_says_se || (lists.plugins && lists.plugins->has_asterisks)) return Game::SkyrimSE;
  if (load_order_file_found) return Game::SkyrimLE;
  return form_version_says_se ? Game::SkyrimSE : Game::SkyrimLE;
}

bool is_oblivion_remastered_data(const std::filesystem::path& folder) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(folder, ec);
  if (ec) p = folder;
  p = p.lexically_normal();
  if (!p.has_filename()) p = p.parent_path();  // a trailing separator
  return ascii::iequals(p.filename().string(), "Data") &&
         ascii::iequals(p.parent_path().filename().string(), "ObvData");
}

std::vector<LoadOrderPlugin> arrange(Game game, OrderRules rules, std::vector<Installed> installed, const Lists& lists,
                                     std::vector<Problem>& problems) {
  const bool remastered = rules == OrderRules::OblivionRemastered;
  // The base order: modification time, then name (the order of anything the lists leave out).
  // Oblivion Remastered breaks ties as libloadorder does there: by upper-cased name, Z to A.
  std::vector<std::size_t> base(installed.size());
  for (std::size_t i = 0; i < base.size(); ++i) base[i] = i;
  std::vector<std::string> lower(installed.size()), upper;
  for (std::size_t i = 0; i < installed.size(); ++i) lower[i] = ascii::to_lower(installed[i].plugin.name);
  if (remastered)
    for (const Installed& i : installed) upper.push_back(to_upper(i.plugin.name));
  std::stable_sort(base.begin(), base.end(), [&](std::size_t a, std::size_t b) {
    if (installed[a].mtime != installed[b].mtime) return installed[a].mtime < installed[b].mtime;
    return remastered ? upper[a] > upper[b] : lower[a] < lower[b];
  });
  NameIndex by_name;
  for (std::size_t i = 0; i < installed.size(); ++i) by_name.emplace(lower[i], i);

  std::vector<std::size_t> seq;
  std::vector<bool> placed(installed.size(), false), active(installed.size(), false);
  auto place = [&](std::size_t i) {
    if (!placed[i]) {
      placed[i] = true;
      seq.push_back(i);
    }
  };
  auto not_installed = [&](const std::string& file, const ListEntry& e, std::string_view what) {
    problems.push_back({file, fmt::format("line {}: {} '{}' is not in the data folder", e.line, what, e.name)});
  };

  const std::vector<std::string> early = early_plugins(game, lists.ccc);
  for (const std::string& name : early)
    if (auto i = lookup(by_name, name)) {
      place(*i);
      active[*i] = true;
    }

  if (game == Game::Oblivion && !remastered) {  // the active plugins only; the order is the file times
    if (lists.plugins)
      for (const ListEntry& e : lists.plugins->entries) {
        if (auto i = lookup(by_name, e.name)) active[*i] = true;
        else not_installed(lists.plugins_name, e, "active plugin");
      }
  } else if (game == Game::SkyrimLE || remastered) {
    // The lines of plugins.txt that name plugins: every one, but in Oblivion Remastered's
    // Plugins.txt a `*` line names a file called "*Name.esp", which is never there.
    std::vector<ListEntry> listed_entries;
    if (lists.plugins)
      for (const ListEntry& e : lists.plugins->entries) {
        if (remastered && e.starred) {
          problems.push_back({lists.plugins_name,
                              fmt::format("line {}: '*{}': Oblivion Remastered's Plugins.txt has no '*' markers; the "
                                          "line names no plugin file, so '{}' is not active (as libloadorder reads it)",
                                          e.line, e.name, e.name)});
          continue;
        }
        listed_entries.push_back(e);
      }
    if (lists.load_order) {
      for (const ListEntry& e : lists.load_order->entries) {
        if (auto i = lookup(by_name, e.name)) place(*i);
        else not_installed(lists.load_order_name, e, "plugin");
      }
    }
    if (lists.plugins) {
      for (const ListEntry& e : listed_entries) {
        if (auto i = lookup(by_name, e.name)) {
          if (!lists.load_order) place(*i);
          active[*i] = true;
        } else {
          not_installed(lists.plugins_name, e, "active plugin");
        }
      }
    }
    if (lists.load_order && lists.plugins) {
      // loadorder.txt's order wins; say where plugins.txt's order of the active plugins differs.
      std::unordered_map<std::string, std::size_t> in_order;
      for (const ListEntry& e : lists.load_order->entries) in_order.emplace(ascii::to_lower(e.name), e.line);
      std::vector<const ListEntry*> listed;
      for (const ListEntry& e : listed_entries) {
        if (in_order.count(ascii::to_lower(e.name))) listed.push_back(&e);
        else
          problems.push_back({lists.plugins_name,
                              fmt::format("line {}: '{}' is active but {} does not list it; it loads after the plugins "
                                          "{} lists",
                                          e.line, e.name, lists.load_order_name, lists.load_order_name)});
      }
      std::vector<const ListEntry*> by_load_order = listed;
      std::stable_sort(by_load_order.begin(), by_load_order.end(), [&](const ListEntry* a, const ListEntry* b) {
        return in_order[ascii::to_lower(a->name)] < in_order[ascii::to_lower(b->name)];
      });
      for (std::size_t k = 0; k < listed.size(); ++k)
        if (listed[k] != by_load_order[k]) {
          problems.push_back(
              {lists.plugins_name,
               fmt::format("{} and {} disagree: line {} of {} has '{}' where {} (line {}) has '{}'; the order of {} is "
                           "used",
                           lists.plugins_name, lists.load_order_name, listed[k]->line, lists.plugins_name,
                           listed[k]->name, lists.load_order_name, in_order[ascii::to_lower(by_load_order[k]->name)],
                           by_load_order[k]->name, lists.load_order_name)});
          break;
        }
    }
    if (!remastered) {
      if (auto i = lookup(by_name, "Update.esm")) active[*i] = true;
    } else {
      // Nothing is active unless listed, not even the game's master.
      const auto master = lookup(by_name, "Oblivion.esm");
      const bool listed = std::any_of(listed_entries.begin(), listed_entries.end(),
                                      [](const ListEntry& e) { return ascii::iequals(e.name, "Oblivion.esm"); });
      if (master && !active[*master])
        problems.push_back(
            lists.plugins
                ? Problem{lists.plugins_name, "does not list Oblivion.esm: Oblivion Remastered loads only the plugins "
                                              "its Plugins.txt lists (none is active by itself), and the game's master "
                                              "is inactive"}
                : Problem{"Oblivion.esm", "is inactive: there is no Plugins.txt to list it, and Oblivion Remastered "
                                          "activates no plugin by itself"});
      else if (!master && !listed)
        problems.push_back({"Oblivion.esm", fmt::format("is not in the data folder{}: Oblivion Remastered needs the "
                                                        "game's master",
                                                        lists.plugins ? ", nor listed in " + lists.plugins_name : "")});
      // Listed but not in the folder: the line's own problem says so.
    }
  } else {  // Skyrim SE
    if (lists.plugins) {
      for (const ListEntry& e : lists.plugins->entries) {
        const bool is_early =
            std::any_of(early.begin(), early.end(), [&](const std::string& n) { return ascii::iequals(n, e.name); });
        if (is_early) continue;  // they load first, where the game puts them
        if (auto i = lookup(by_name, e.name)) {
          place(*i);
          active[*i] = e.active;
        } else {
          not_installed(lists.plugins_name, e, e.active ? "active plugin" : "plugin");
        }
      }
      if (!lists.plugins->entries.empty() && !lists.plugins->has_asterisks)
        problems.push_back({lists.plugins_name,
                            "no line starts with '*': Skyrim SE takes none of the plugins it lists as active"});
    }
  }
  for (std::size_t i : base) place(i);

  std::vector<LoadOrderPlugin> out;
  out.reserve(seq.size());
  for (std::size_t i : seq) {
    installed[i].plugin.active = active[i];
    out.push_back(std::move(installed[i].plugin));
  }
  // Masters load before the other plugins, each part in its order.
  std::stable_partition(out.begin(), out.end(), [&](const LoadOrderPlugin& p) { return p.master; });
  return out;
}

void hoist_masters(std::vector<LoadOrderPlugin>& plugins, std::vector<Problem>& problems) {
  // Names to positions, rebuilt only after a move (moves are rare; lookups are not).
  NameIndex index = index_names(plugins);
  // Whether `from` needs `to`, directly or through its masters (among the plugins present).
  auto needs = [&](std::size_t from, std::size_t to) {
    std::vector<bool> seen(plugins.size(), false);
    std::vector<std::size_t> stack{from};
    while (!stack.empty()) {
      const std::size_t p = stack.back();
      stack.pop_back();
      for (const std::string& m : plugins[p].masters) {
        auto q = lookup(index, m);
        if (!q || seen[*q]) continue;
        if (*q == to) return true;
        seen[*q] = true;
        stack.push_back(*q);
      }
    }
    return false;
  };
  std::unordered_set<std::string> cycles_reported;
  for (std::size_t i = 0; i < plugins.size(); ++i) {
    for (const std::string& m : plugins[i].masters) {
      auto j = lookup(index, m);
      if (!j || *j <= i) continue;
      if (needs(*j, i)) {
        const std::string key = ascii::to_lower(plugins[i].name) + "|" + ascii::to_lower(plugins[*j].name);
        if (cycles_reported.insert(key).second)
          problems.push_back({plugins[i].name, fmt::format("names '{}' as a master, which needs '{}' in turn "
                                                           "(circular masters): neither can load first",
                                                           plugins[*j].name, plugins[i].name)});
        continue;
      }
      problems.push_back({plugins[*j].name, fmt::format("is a master of '{}' but was listed after it: moved before it",
                                                        plugins[i].name)});
      LoadOrderPlugin moved = std::move(plugins[*j]);
      plugins.erase(plugins.begin() + std::ptrdiff_t(*j));
      plugins.insert(plugins.begin() + std::ptrdiff_t(i), std::move(moved));
      index = index_names(plugins);
      --i;  // look at the moved master's own masters next (wraps to 0 after ++i)
      break;
    }
  }
}

void report_late_masters(const std::vector<LoadOrderPlugin>& plugins, std::vector<Problem>& problems) {
  const NameIndex index = index_names(plugins);
  for (std::size_t i = 0; i < plugins.size(); ++i) {
    if (!plugins[i].active) continue;
    for (const std::string& m : plugins[i].masters) {
      auto j = lookup(index, m);
      if (!j || *j <= i) continue;
      problems.push_back({plugins[*j].name,
                          fmt::format("is a master of '{}' but loads after it: left there, as Oblivion Remastered "
                                      "moves no plugin for its masters",
                                      plugins[i].name)});
    }
  }
}

void assign_indices(Game game, std::vector<LoadOrderPlugin>& plugins, std::vector<Problem>& problems) {
  const NameIndex index = index_names(plugins);
  for (LoadOrderPlugin& p : plugins) {
    p.master_positions.clear();
    for (const std::string& m : p.masters) {
      auto q = lookup(index, m);
      p.master_positions.push_back(q ? std::optional<std::uint32_t>(std::uint32_t(*q)) : std::nullopt);
    }
  }
  for (LoadOrderPlugin& p : plugins) {
    if (!p.active || !p.readable()) continue;
    for (std::size_t k = 0; k < p.masters.size(); ++k) {
      const auto& q = p.master_positions[k];
      if (!q)
        problems.push_back({p.name, fmt::format("needs the master '{}', which is not in the data folder", p.masters[k])});
      else if (!plugins[*q].active)
        problems.push_back({p.name, fmt::format("needs the master '{}', which is not active", plugins[*q].name)});
      else if (!plugins[*q].readable())
        problems.push_back({p.name, fmt::format("needs the master '{}', which does not read", plugins[*q].name)});
    }
  }
  const std::uint32_t max_full = game == Game::SkyrimSE ? 0xFE : 0xFF;  // 00-FD (FE: light) or 00-FE
  std::uint32_t full = 0, light = 0;
  for (LoadOrderPlugin& p : plugins) {
    p.index.reset();
    if (!p.active || !p.readable()) continue;
    if (p.light) {
      if (light < 0x1000) {
        p.index = LoadIndex{true, std::uint16_t(light++)};
      } else {
        problems.push_back({p.name, "is past the 4,096th active light plugin: the game has no FE slot left for it"});
      }
    } else if (full < max_full) {
      p.index = LoadIndex{false, std::uint16_t(full++)};
    } else {
      problems.push_back({p.name, fmt::format("is past the {}th active full plugin: the game has no index left for it "
                                              "({})",
                                              max_full, game == Game::SkyrimSE ? "00-FD" : "00-FE")});
    }
  }
}

}  // namespace tesmod::loadorder::detail
