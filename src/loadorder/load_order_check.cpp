#include "tesmod/loadorder/load_order_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "tesmod/fields/form_references.hpp"
#include "tesmod/io/workers.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace tesmod::loadorder {
namespace {

// Placed references: deleting one is how plugins remove it (cleaning undeletes and disables it).
constexpr std::array kReferenceTypes{Signature("REFR"), Signature("ACHR"), Signature("ACRE"), Signature("PGRE"),
                                     Signature("PMIS"), Signature("PARW"), Signature("PBAR"), Signature("PBEA"),
                                     Signature("PCON"), Signature("PFLA"), Signature("PHZD")};

bool near(float v, double x) { return std::fabs(double(v) - x) < 0.005; }

std::string join_types(std::span<const Signature> types) {
  std::string out;
  for (Signature t : types) out += (out.empty() ? "" : " or ") + t.str();
  return out;
}

// Records of a plugin whose form version does not fit the game: counted, reported once.
struct FormVersionTally {
  std::uint64_t count = 0;
  std::optional<RecordRef> first;
  std::uint16_t version = 0;
};

// One piece of work: a plugin's header, or a range of its records.
struct Task {
  std::uint32_t position;
  std::size_t from = 0, to = 0;  // entries; from == to: the header checks
};

// The forms the active plugins hold as overrides (a FormID naming a master): with the defining
// plugins' own records, every form of the load order.
using OverrideKeys = std::unordered_set<std::uint64_t>;

class PluginChecker {
 public:
  PluginChecker(const LoadOrder& order, std::uint32_t position, const OverrideKeys& overrides)
      : order_(order), position_(position), plugin_(order.plugin(position)), overrides_(overrides) {}

  void header(std::vector<CheckProblem>& out) const {
    const Game game = order_.game();
    auto add = [&](std::string check, std::string message) {
      out.push_back({plugin_.name, std::move(check), std::nullopt, std::move(message)});
    };
    if (!plugin_.readable()) {
      add("unreadable", plugin_.error);
      return;
    }
    std::optional<std::uint32_t> previous;
    std::string previous_name;
    for (std::size_t k = 0; k < plugin_.masters.size(); ++k) {
      const auto& m = plugin_.master_positions[k];
      if (!m) {
        add("missing_master", fmt::format("master '{}' is not in the data folder", plugin_.masters[k]));
        continue;
      }
      const LoadOrderPlugin& master = order_.plugin(*m);
      if (!master.readable()) add("missing_master", fmt::format("master '{}' does not read", master.name));
      else if (!master.active) add("missing_master", fmt::format("master '{}' is not active", master.name));
      if (*m > position_) add("master_order", fmt::format("master '{}' loads after this plugin", master.name));
      if (previous && *m < *previous)
        add("master_order", fmt::format("masters out of order: '{}' is listed before '{}' but loads after it",
                                        previous_name, master.name));
      previous = *m;
      previous_name = master.name;
    }
    const float v = plugin_.header.version;
    const bool fits = game == Game::Oblivion   ? near(v, 0.8) || near(v, 1.0)
                      : game == Game::SkyrimLE ? near(v, 0.94) || near(v, 1.7)
                                               : near(v, 1.7) || near(v, 1.71);
    if (!fits)
      add("header_version", fmt::format("HEDR version {:.2f} does not fit {} (expected {})", v, game_title(game),
                                        game == Game::Oblivion   ? "0.80 or 1.00"
                                        : game == Game::SkyrimLE ? "0.94 or 1.70"
                                                                 : "1.70 or 1.71"));
  }

  // The records at entries [from, to) of the plugin's index.
  void records(const PluginFile& file, const std::unordered_map<std::uint32_t, std::uint32_t>& first_of_id,
               std::size_t from, std::size_t to, std::vector<CheckProblem>& out, Inflater& inflater,
               FormVersionTally& tally) const {
    const Game game = order_.game();
    const std::uint32_t own = std::uint32_t(plugin_.masters.size());
    const auto entries = file.entries();
    for (std::size_t i = from; i < to; ++i) {
      const IndexEntry& e = entries[i];
      if (e.is_group()) continue;
      RecordRef ref{e.type, e.id, {}};
      // The body, read once (a compressed one inflated once); the EditorID from it.
      std::span<const std::uint8_t> body;
      std::string unreadable;
      try {
        if (e.size > 0) body = file.body(e, inflater);
        if (auto edid = find_editor_id(body)) ref.editor_id = *edid;
      } catch (const Error& err) {
        unreadable = err.what();
        if (auto edid = file.editor_id(e)) ref.editor_id = *edid;
      }
      auto add = [&](std::string check, std::string message) {
        out.push_back({plugin_.name, std::move(check), ref, std::move(message)});
      };
      const std::uint32_t index = e.id >> 24;
      if (auto it = first_of_id.find(e.id); it != first_of_id.end() && it->second != i)
        add("duplicate_form_id", fmt::format("FormID {:08X} is used again (first by {} at offset 0x{:X})", e.id,
                                             entries[it->second].type.str(), entries[it->second].offset));
      if (index > own)
        add("hitme", fmt::format("FormID's file index {:02X} is past the master list ({} masters): the game reads it "
                                 "as this plugin's own",
                                 index, own));
      if (plugin_.light && index >= own) {
        const std::uint32_t object = e.id & 0xFFFFFF;
        const bool wide = plugin_.header.version >= 1.705f;
        if (object > 0xFFF || (!wide && object < 0x800))
          add("light_form_id_range", fmt::format("a new record of a light plugin with object id {:06X}, outside {}",
                                                 object, wide ? "000-FFF" : "800-FFF (000-FFF needs HEDR 1.71)"));
      }
      if (game != Game::Oblivion) {
        const std::uint16_t v = file.record_header(e).form_version;
        // Skyrim SE's own masters keep records of older form versions, and the game reads them;
        // a version past what the game writes (44 for SE, 43 for LE) it cannot.
        const bool fits = v <= (game == Game::SkyrimSE ? 44 : 43);
        if (!fits) {
          if (!tally.count) {
            tally.first = ref;
            tally.version = v;
          }
          ++tally.count;
        }
      }
      const bool deleted = e.flags & record_flags::kDeleted;
      if (deleted && e.size > 0 &&
          std::find(kReferenceTypes.begin(), kReferenceTypes.end(), e.type) == kReferenceTypes.end())
        add("deleted_with_fields", fmt::format("deleted, but keeps {} bytes of fields (only placed references are "
                                               "deleted; another record is removed, or kept undeleted)",
                                               e.size));
      if (!unreadable.empty()) {
        add("unreadable", unreadable);
        continue;
      }
      try {
        references(file, e, body, ref, out);
      } catch (const Error& err) {
        add("unreadable", err.what());
      }
    }
  }

 private:
  void references(const PluginFile& file, const IndexEntry& e, std::span<const std::uint8_t> body, const RecordRef& ref,
                  std::vector<CheckProblem>& out) const {
    if (body.empty()) return;
    const ErrorContext where{file.name(), e.offset, ref};
    std::vector<Field> fields;
    const std::uint64_t body_offset = e.is_compressed() ? Error::kNoOffset : e.offset + file.header_size();
    for (const SubrecordView& v : read_subrecords(body, where, body_offset)) fields.push_back(Field::from_view(v));
    fields::FormReferenceOptions options;
    options.localized = order_.game() != Game::Oblivion && plugin_.header.is_localized();
    const std::uint32_t own = std::uint32_t(plugin_.masters.size());
    fields::visit_form_references(
        order_.game(), e.type, fields,
        [&](std::uint32_t& form_id, const fields::FormReference& at) {
          auto add = [&](std::string check, std::string message) {
            out.push_back({plugin_.name, std::move(check), ref, std::move(message)});
          };
          const auto place = [&] { return fmt::format("{} ({})", at.field.str(), at.what); };
          const std::uint32_t index = form_id >> 24;
          if (index > own) {
            add("hitme", fmt::format("{} holds {:08X}, whose file index {:02X} is past the master list ({} masters)",
                                     place(), form_id, index, own));
            return;
          }
          // Object ids below 0x800 are the engine's own forms (the player, PlayerRef ...), which
          // every plugin names whatever its masters.
          if ((form_id & 0xFFFFFF) < 0x800) return;
          const auto key = order_.key(position_, form_id);
          if (!key || !order_.plugin(key->plugin).readable()) return;  // the master is missing: reported once
          const LoadOrderPlugin& definer = order_.plugin(key->plugin);
          const auto named = [&] { return fmt::format("{:08X} ({}:{:06X})", form_id, definer.name, key->object_id); };
          std::optional<IndexEntry> target;
          try {
            target = order_.find_record(key->plugin, *order_.stored_form_id(key->plugin, *key));
            if (!target && overrides_.count(key->packed())) {
              const auto versions = order_.versions(*key);  // a form injected by another plugin
              if (!versions.empty()) target = versions.front().entry;
            }
          } catch (const Error&) {
            return;  // the plugin defining it does not read: reported as unreadable
          }
          if (!target) {
            add("unresolved_reference",
                fmt::format("{} refers to {}, which no plugin of the load order has", place(), named()));
            return;
          }
          if (!at.types.empty() && std::find(at.types.begin(), at.types.end(), target->type) == at.types.end())
            add("wrong_reference_type", fmt::format("{} refers to {} {}, expected {}", place(), target->type.str(),
                                                    named(), join_types(at.types)));
        },
        options);
  }

  const LoadOrder& order_;
  std::uint32_t position_;
  const LoadOrderPlugin& plugin_;
  const OverrideKeys& overrides_;
};

}  // namespace

std::vector<CheckProblem> check_load_order(const LoadOrder& order, const CheckOptions& options) {
  std::vector<std::uint32_t> plugins = options.plugins;
  if (plugins.empty()) {
    for (std::uint32_t p = 0; p < order.plugins().size(); ++p)
      if (order.plugin(p).active) plugins.push_back(p);
  }
  std::vector<std::uint32_t> readable;
  for (std::uint32_t p : plugins)
    if (order.plugin(p).readable()) readable.push_back(p);
  // Every active plugin is read: its overrides tell which forms exist besides the masters' own.
  for (std::uint32_t p : order.active())
    if (std::find(readable.begin(), readable.end(), p) == readable.end()) readable.push_back(p);
  order.read_files(readable);

  // The work: each plugin's header, then its records in ranges.
  constexpr std::size_t kChunk = 8192;
  std::vector<Task> tasks;
  std::vector<std::unordered_map<std::uint32_t, std::uint32_t>> first_of_id(order.plugins().size());
  std::vector<std::string> unreadable(order.plugins().size());
  for (std::uint32_t p : plugins) {
    tasks.push_back({p, 0, 0});
    if (!order.plugin(p).readable()) continue;
    try {
      const PluginFile& file = order.file(p);
      const auto entries = file.entries();
      auto& first = first_of_id[p];
      for (std::uint32_t i = 1; i < entries.size(); ++i)
        if (!entries[i].is_group()) first.emplace(entries[i].id, i);
      for (std::size_t from = 1; from < entries.size(); from += kChunk)
        tasks.push_back({p, from, std::min(entries.size(), from + kChunk)});
    } catch (const Error& e) {
      unreadable[p] = e.what();
    }
  }
  OverrideKeys overrides;
  for (std::uint32_t p : order.active()) {
    if (!order.plugin(p).readable() || order.plugin(p).masters.empty()) continue;
    try {
      for (const IndexEntry& e : order.file(p).entries())
        if (!e.is_group() && (e.id >> 24) < order.plugin(p).masters.size())
          if (const auto key = order.key(p, e.id)) overrides.insert(key->packed());
    } catch (const Error&) {
    }
  }
  std::vector<std::vector<CheckProblem>> results(tasks.size());
  std::vector<FormVersionTally> tallies(tasks.size());
  run_workers(tasks.size(), order.threads(), [&](auto claim) {
    Inflater inflater;
    for (std::size_t t = claim(); t < tasks.size(); t = claim()) {
      const Task& task = tasks[t];
      const PluginChecker checker(order, task.position, overrides);
      if (task.from == task.to) {
        checker.header(results[t]);
        if (!unreadable[task.position].empty())
          results[t].push_back({order.plugin(task.position).name, "unreadable", std::nullopt, unreadable[task.position]});
        continue;
      }
      checker.records(order.file(task.position), first_of_id[task.position], task.from, task.to, results[t], inflater,
                      tallies[t]);
    }
  });
  std::vector<CheckProblem> out;
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    out.insert(out.end(), std::make_move_iterator(results[t].begin()), std::make_move_iterator(results[t].end()));
    // After a plugin's last range, its form versions.
    const bool last = t + 1 == tasks.size() || tasks[t + 1].position != tasks[t].position;
    if (!last) continue;
    FormVersionTally total;
    for (std::size_t k = t + 1; k-- > 0 && tasks[k].position == tasks[t].position;) {
      if (tallies[k].count && tallies[k].first) {
        total.first = tallies[k].first;
        total.version = tallies[k].version;
      }
      total.count += tallies[k].count;
    }
    if (total.count) {
      const bool se = order.game() == Game::SkyrimSE;
      out.push_back({order.plugin(tasks[t].position).name, "form_version", total.first,
                     fmt::format("{} record{} with form version {}{} (the first named here): {} reads {}", total.count,
                                 total.count == 1 ? "" : "s", total.version, total.count == 1 ? "" : " or another",
                                 game_title(order.game()), se ? "44 or lower" : "43 or lower (44 is Skyrim SE's)")});
    }
  }
  return out;
}

std::string problem_line(const CheckProblem& problem, const TextCodec& codec) {
  std::string out = problem.file + ": ";
  if (problem.record) {
    out += fmt::format("{} {:08X}", problem.record->type.str(), problem.record->form_id);
    if (!problem.record->editor_id.empty()) out += " " + codec.to_utf8(problem.record->editor_id);
    out += ": ";
  }
  return out + problem.message;
}

}  // namespace tesmod::loadorder
