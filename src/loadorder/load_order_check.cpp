#include "tesmod/loadorder/load_order_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_set>

#include "tesmod/fields/form_references.hpp"
#include "tesmod/fields/record_check.hpp"
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
  void records(const PluginFile& file, std::size_t from, std::size_t to, std::vector<CheckProblem>& out,
               Inflater& inflater, FormVersionTally& tally) const {
    const Game game = order_.game();
    const std::uint32_t own = std::uint32_t(plugin_.masters.size());
    const auto entries = file.entries();
    RecordState record(out, plugin_.name);
    ErrorContext where{file.name(), 0, RecordRef{}};
    std::vector<fields::FieldRef> fields;
    std::vector<fields::RecordFinding> findings;
    const auto duplicates = order_.duplicate_form_ids(position_);
    auto next_duplicate = std::lower_bound(duplicates.begin(), duplicates.end(), std::pair<std::uint32_t, std::uint32_t>(from, 0));
    for (std::size_t i = from; i < to; ++i) {
      const IndexEntry& e = entries[i];
      if (e.is_group()) continue;
      // The body, read once (a compressed one inflated once); the EditorID from its fields.
      std::span<const std::uint8_t> body;
      std::string unreadable;
      record.start(e);
      try {
        if (e.size > 0) body = file.body(e, inflater);
      } catch (const Error& err) {
        unreadable = err.what();
        if (auto edid = file.editor_id(e)) record.keep_editor_id(std::move(*edid));
      }
      fields.clear();
      if (unreadable.empty()) {
        where.offset = e.offset;
        where.record->type = e.type;
        where.record->form_id = e.id;
        where.record->editor_id.clear();
        const std::uint64_t body_offset = e.is_compressed() ? Error::kNoOffset : e.offset + file.header_size();
        try {
          read_fields(body, where, body_offset, fields);
          record.editor_id = fields::editor_id_of(fields);
        } catch (const Error& first_try) {
          unreadable = first_try.what();
          if (auto edid = find_editor_id(body)) {
            // Again with the EditorID, for a message that names it.
            where.record->editor_id = *edid;
            record.keep_editor_id(std::move(*edid));
            try {
              read_fields(body, where, body_offset, fields);
            } catch (const Error& err) {
              unreadable = err.what();
            }
          }
          fields.clear();
        }
      }
      const std::uint32_t index = e.id >> 24;
      if (next_duplicate != duplicates.end() && next_duplicate->first == i) {
        const IndexEntry& first = entries[next_duplicate->second];
        record.add("duplicate_form_id", fmt::format("FormID {:08X} is used again (first by {} at offset 0x{:X})", e.id,
                                                    first.type.str(), first.offset));
        ++next_duplicate;
      }
      if (index > own)
        record.add("hitme", fmt::format("FormID's file index {:02X} is past the master list ({} masters): the game "
                                        "reads it as this plugin's own",
                                        index, own));
      if (plugin_.light && index >= own) {
        const std::uint32_t object = e.id & 0xFFFFFF;
        const bool wide = plugin_.header.version >= 1.705f;
        if (object > 0xFFF || (!wide && object < 0x800))
          record.add("light_form_id_range", fmt::format("a new record of a light plugin with object id {:06X}, outside {}",
                                                        object, wide ? "000-FFF" : "800-FFF (000-FFF needs HEDR 1.71)"));
      }
      std::uint16_t form_version = 0;
      if (game != Game::Oblivion) {
        form_version = file.record_header(e).form_version;
        // Skyrim SE's own masters keep records of older form versions, and the game reads them;
        // a version past what the game writes (44 for SE, 43 for LE) it cannot.
        const bool fits = form_version <= (game == Game::SkyrimSE ? 44 : 43);
        if (!fits) {
          if (!tally.count) {
            tally.first = record.ref();
            tally.version = form_version;
          }
          ++tally.count;
        }
      }
      const bool deleted = e.flags & record_flags::kDeleted;
      if (deleted && e.size > 0 &&
          std::find(kReferenceTypes.begin(), kReferenceTypes.end(), e.type) == kReferenceTypes.end())
        record.add("deleted_with_fields", fmt::format("deleted, but keeps {} bytes of fields (only placed references are "
                                                      "deleted; another record is removed, or kept undeleted)",
                                                      e.size));
      if (!unreadable.empty()) {
        record.add("unreadable", unreadable);
        continue;
      }
      fields::FormReferenceOptions options;
      options.localized = game != Game::Oblivion && plugin_.header.is_localized();
      options.form_version = form_version;
      // One pass over the fields: the FormIDs, and the values of each field read by the layout
      // chosen for them there; then the fields against the record type's structure (a deleted
      // record keeps none, or only its EditorID, and is not held to it).
      findings.clear();
      FieldChecker checker(*this, record, e.type, fields, options.localized, findings);
      try {
        fields::read_form_references(game, e.type, fields, checker, options);
      } catch (const Error& err) {
        record.add("unreadable", err.what());
      }
      if (!deleted) {
        fields::RecordStructureCheck structure(game, e.type);
        if (structure.active()) {
          for (std::size_t k = 0; k < fields.size(); ++k) structure.field(k, fields[k].type, findings);
          structure.finish(findings);
        }
      }
      for (fields::RecordFinding& f : findings) record.add(std::string(f.check), std::move(f.message));
    }
  }

 private:
  // The record being checked: its problems, with the EditorID put into the record reference only
  // when there is one to report.
  struct RecordState {
    RecordState(std::vector<CheckProblem>& out, const std::string& file) : out_(out), file_(file) {}
    void start(const IndexEntry& e) {
      type = e.type;
      form_id = e.id;
      editor_id = {};
    }
    RecordRef ref() const { return RecordRef{type, form_id, std::string(editor_id)}; }
    void keep_editor_id(std::string id) {
      kept_editor_id_ = std::move(id);
      editor_id = kept_editor_id_;
    }
    void add(std::string check, std::string message) {
      out_.push_back({file_, std::move(check), ref(), std::move(message)});
    }

    Signature type;
    std::uint32_t form_id = 0;
    std::string_view editor_id;  // in the body, or in the string below

   private:
    std::vector<CheckProblem>& out_;
    const std::string& file_;
    std::string kept_editor_id_;
  };

  static void read_fields(std::span<const std::uint8_t> body, const ErrorContext& where, std::uint64_t body_offset,
                          std::vector<fields::FieldRef>& out) {
    out.clear();
    SubrecordCursor cursor(body, where, body_offset);
    SubrecordView v;
    while (cursor.next(v)) out.push_back({v.type, v.data});
  }

  // A record's FormIDs, each looked up in the load order, and its fields' values and sizes
  // against the layouts chosen for them.
  class FieldChecker final : public fields::FormReferenceReader {
   public:
    FieldChecker(const PluginChecker& plugin, RecordState& record, Signature record_type,
                 std::span<const fields::FieldRef> fields, bool localized, std::vector<fields::RecordFinding>& findings)
        : plugin_(plugin), record_(record), record_type_(record_type), fields_(fields), localized_(localized),
          findings_(findings) {}
    void form_id(std::uint32_t form_id, const fields::FormReference& at) override {
      plugin_.reference(form_id, at, record_);
    }
    void layout(std::size_t index, const fields::FieldLayout* layout, const fields::FieldSite& site) override {
      const fields::FieldRef& f = fields_[index];
      if (layout) {
        if (layout->checks_values) fields::check_field_values(*layout, f.data, localized_, index, f.type, findings_);
      } else if (auto finding = fields::check_field_size(fields::layout_table(plugin_.order_.game()), record_type_,
                                                         f.type, f.data, site, index)) {
        findings_.push_back(std::move(*finding));
      }
    }

   private:
    const PluginChecker& plugin_;
    RecordState& record_;
    Signature record_type_;
    std::span<const fields::FieldRef> fields_;
    bool localized_;
    std::vector<fields::RecordFinding>& findings_;
  };

  void reference(std::uint32_t form_id, const fields::FormReference& at, RecordState& record) const {
    const std::uint32_t own = std::uint32_t(plugin_.masters.size());
    const auto place = [&] { return fmt::format("{} ({})", at.field.str(), at.what); };
    const std::uint32_t index = form_id >> 24;
    if (index > own) {
      record.add("hitme", fmt::format("{} holds {:08X}, whose file index {:02X} is past the master list ({} masters)",
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
    std::optional<Signature> target;
    try {
      target = order_.record_type(key->plugin, *order_.stored_form_id(key->plugin, *key));
      if (!target && overrides_.count(key->packed())) {
        const auto versions = order_.versions(*key);  // a form injected by another plugin
        if (!versions.empty()) target = versions.front().entry.type;
      }
    } catch (const Error&) {
      return;  // the plugin defining it does not read: reported as unreadable
    }
    if (!target) {
      record.add("unresolved_reference",
                 fmt::format("{} refers to {}, which no plugin of the load order has", place(), named()));
      return;
    }
    if (!at.types.empty() && std::find(at.types.begin(), at.types.end(), *target) == at.types.end())
      record.add("wrong_reference_type", fmt::format("{} refers to {} {}, expected {}", place(), target->str(),
                                                     named(), join_types(at.types)));
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
  std::vector<std::string> unreadable(order.plugins().size());
  for (std::uint32_t p : plugins) {
    tasks.push_back({p, 0, 0});
    if (!order.plugin(p).readable()) continue;
    try {
      const std::size_t entries = order.file(p).entries().size();
      for (std::size_t from = 1; from < entries; from += kChunk) tasks.push_back({p, from, std::min(entries, from + kChunk)});
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
      checker.records(order.file(task.position), task.from, task.to, results[t], inflater, tallies[t]);
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
