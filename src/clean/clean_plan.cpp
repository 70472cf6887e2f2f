// Classifying a plugin's records against its masters and planning what cleaning drops.
#include <fmt/format.h>

#include <algorithm>

#include "tesmod/clean/clean.hpp"
#include "tesmod/clean/udr_edit.hpp"
#include "tesmod/error.hpp"
#include "tesmod/loadorder/record_equality.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace tesmod::clean {

std::string_view kind_key(CleanKind kind) {
  switch (kind) {
    case CleanKind::Itm: return "itm";
    case CleanKind::ItmKept: return "itm_kept";
    case CleanKind::Itpo: return "itpo";
    case CleanKind::Udr: return "udr";
    case CleanKind::Nav: return "nav";
    case CleanKind::DeletedOther: return "deleted_other";
    case CleanKind::Skipped: return "skipped";
  }
  return "unknown";
}

std::string_view kind_reason(CleanKind kind) {
  switch (kind) {
    case CleanKind::Itm: return "ITM";
    case CleanKind::ItmKept: return "ITM kept: conflict winner";
    case CleanKind::Itpo: return "ITPO";
    case CleanKind::Udr: return "UDR";
    case CleanKind::Nav: return "NAV";
    case CleanKind::DeletedOther: return "deleted record";
    case CleanKind::Skipped: return "skipped";
  }
  return "unknown";
}

std::size_t CleanReport::count(CleanKind kind) const {
  return std::size_t(std::count_if(decisions.begin(), decisions.end(), [&](const CleanDecision& d) { return d.kind == kind; }));
}

namespace {

using loadorder::LoadedRecord;
using loadorder::LoadOrder;
using loadorder::RecordComparer;
using loadorder::RecordVersion;

// A record whose children follow it in a group of their own, and that group's type.
bool is_wrapper(Signature type) {
  return type == Signature("CELL") || type == Signature("WRLD") || type == Signature("DIAL");
}
bool is_children_group(std::int32_t group_type) { return group_type == 1 || group_type == 6 || group_type == 7; }

// The first field in which two versions differ, for the report ("record flags" when the header
// flags do; "FormIDs" when only how the two plugins number their masters does).
std::string first_difference(const LoadedRecord& a, const LoadedRecord& b) {
  if ((a.flags & ~record_flags::kCompressed) != (b.flags & ~record_flags::kCompressed)) return "record flags";
  try {
    const ErrorContext none;
    const auto fa = read_subrecords(a.fields(), none);
    const auto fb = read_subrecords(b.fields(), none);
    for (std::size_t i = 0; i < std::max(fa.size(), fb.size()); ++i) {
      if (i >= fa.size()) return fb[i].type.str() + " (only in one)";
      if (i >= fb.size()) return fa[i].type.str() + " (only in one)";
      if (fa[i].type != fb[i].type) return fa[i].type.str();
      if (!std::ranges::equal(fa[i].data, fb[i].data)) return fa[i].type.str();
    }
  } catch (const Error&) {
    return "fields that do not read";
  }
  return "FormIDs";
}

// The EditorID for the report: read from the start of the record (a compressed one inflated only
// as far as EDID); none when the body does not read.
std::string editor_id_of(const PluginBytes& bytes, const IndexEntry& e) {
  try {
    return bytes.editor_id(e).value_or(std::string());
  } catch (const Error&) {
    return {};
  }
}

std::vector<Field> fields_of(const LoadedRecord& r, const std::string& file) {
  const ErrorContext where{file, Error::kNoOffset, RecordRef{r.type, r.form_id, {}}};
  std::vector<Field> out;
  for (const SubrecordView& v : read_subrecords(r.fields(), where)) out.push_back(Field::from_view(v));
  return out;
}

// A plugin without masters has nothing to compare with: its plan is its deleted records (every
// one its own), reported as below, found by a walk that keeps only them (a game master is not
// indexed for that) or taken from the masters' walk that kept them already.
CleanReport plan_without_masters(const LoadOrder& order, std::uint32_t position, const MasterRecords& masters,
                                 CleanReport report) {
  const PluginBytes& bytes = order.bytes(position);
  report.crc_before = crc32_of(bytes.bytes());
  std::vector<IndexEntry> deleted;
  if (const MasterRecords::OwnDeleted* walked = masters.own_deleted(position)) {
    deleted = walked->records;
    report.entry_count = walked->entry_count;
  } else {
    std::uint32_t entries = 0;
    deleted = order.find_records(position, [](const IndexEntry& e) { return (e.flags & record_flags::kDeleted) != 0; },
                                 &entries);
    report.entry_count = entries;
  }
  for (const IndexEntry& e : deleted) {
    const bool nav = e.type == Signature("NAVM");
    report.decisions.push_back({nav ? CleanKind::Nav : CleanKind::DeletedOther, e.type, e.id, editor_id_of(bytes, e),
                                e.end - 1,
                                nav ? "deleted navmesh: left alone" : "deleted record the plugin adds: left alone"});
  }
  return report;
}

}  // namespace

CleanReport plan_cleaning(const LoadOrder& order, std::uint32_t position, const CleanOptions& options,
                          const MasterRecords* masters) {
  const loadorder::LoadOrderPlugin& plugin = order.plugin(position);
  if (!plugin.readable()) throw Error(plugin.name, Error::kNoOffset, std::nullopt, plugin.error);
  CleanReport report;
  report.plugin = plugin.name;
  report.masters = plugin.masters;
  for (std::size_t k = 0; k < plugin.masters.size(); ++k) {
    const auto& m = plugin.master_positions[k];
    if (!m) {
      throw Error(plugin.name, Error::kNoOffset, std::nullopt,
                  fmt::format("master '{}' is missing: cleaning compares every record with its masters' versions",
                              plugin.masters[k]));
    }
    if (!order.plugin(*m).readable()) order.file(*m);  // throws, naming the master
  }
  std::optional<MasterRecords> own;
  if (!masters) masters = &own.emplace(MasterRecords::collect(order, std::span<const std::uint32_t>(&position, 1)));
  for (const auto& m : plugin.master_positions)
    if (const std::exception_ptr e = masters->error(*m)) std::rethrow_exception(e);  // a master that does not read
  if (plugin.masters.empty()) return plan_without_masters(order, position, *masters, std::move(report));
  const PluginFile& file = order.file(position);
  report.crc_before = crc32_of(file.bytes());
  const auto entries = file.entries();
  report.entry_count = entries.size();
  const std::size_t master_count = plugin.masters.size();
  const RecordComparer comparer(order);
  Inflater inflater;

  std::vector<bool> removed(entries.size(), false);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> itm_wrappers;  // (record, its children group)
  auto decide = [&](CleanKind kind, const IndexEntry& e, std::uint32_t i, std::string detail) {
    report.decisions.push_back({kind, e.type, e.id, editor_id_of(file, e), i, std::move(detail)});
  };

  for (std::uint32_t i = 1; i < entries.size(); ++i) {
    const IndexEntry& e = entries[i];
    if (e.is_group()) continue;
    const bool deleted = e.flags & record_flags::kDeleted;
    // The masters' versions, in master order; the defining plugin's is the base.
    std::vector<RecordVersion> versions;
    if ((e.id >> 24) < master_count) {
      const auto key = order.key(position, e.id);
      for (std::size_t k = 0; key && k < master_count; ++k) {
        const std::uint32_t m = *plugin.master_positions[k];
        const auto stored = order.stored_form_id(m, *key);
        if (!stored) continue;
        if (const auto found = masters->find(m, *stored)) versions.push_back({m, *found});
      }
    }
    if (versions.empty()) {  // the plugin's own record (or one no master has)
      if (!deleted) continue;
      if (e.type == Signature("NAVM")) decide(CleanKind::Nav, e, i, "deleted navmesh: left alone");
      else decide(CleanKind::DeletedOther, e, i, "deleted record the plugin adds: left alone");
      continue;
    }
    const LoadedRecord self = comparer.load({position, e}, inflater);
    const RecordVersion* base = &versions.front();
    const auto key = order.key(position, e.id);
    for (const RecordVersion& v : versions)
      if (v.plugin == key->plugin) base = &v;
    const RecordVersion& last = versions.back();
    const LoadedRecord last_record = comparer.load(last, inflater);
    const bool equal_last = comparer.equal(self, last_record);
    const LoadedRecord base_record = comparer.load(*base, inflater);
    const bool equal_base = &last == base ? equal_last : comparer.equal(self, base_record);
    const std::string& last_name = order.plugin(last.plugin).name;
    const std::string& base_name = order.plugin(base->plugin).name;

    if (equal_last && equal_base) {
      if (is_wrapper(e.type) && i + 1 < entries.size() && entries[i + 1].is_group() &&
          is_children_group(entries[i + 1].group_type()) && entries[i + 1].id == e.id && entries[i + 1].parent == e.parent) {
        itm_wrappers.emplace_back(i, i + 1);  // decided once its children are
        continue;
      }
      removed[i] = true;
      decide(CleanKind::Itm, e, i, "identical to " + last_name);
      continue;
    }
    if (deleted) {
      if (e.type == Signature("NAVM")) {
        decide(CleanKind::Nav, e, i, "deleted navmesh: left alone");
      } else if (is_placed_reference(e.type)) {
        std::vector<Field> fields;
        std::string source;
        std::string skipped;
        try {
          // The latest master version that is not deleted gives the fields, as xEdit's undelete
          // does (a deleted reference keeps at most its base); the record's own when none can.
          for (auto v = versions.rbegin(); source.empty() && v != versions.rend(); ++v) {
            if (v->entry.flags & record_flags::kDeleted) continue;
            fields = fields_of(comparer.load(*v, inflater), order.plugin(v->plugin).name);
            source = order.plugin(v->plugin).name;
          }
          if (source.empty()) fields = fields_of(self, plugin.name);
        } catch (const Error& err) {
          skipped = err.what();
        }
        UdrResult udr;
        if (skipped.empty()) {
          udr = undelete_reference(order.game(), e.type, e.flags, std::move(fields));
          skipped = udr.skipped;
        }
        if (!skipped.empty()) {
          decide(CleanKind::Skipped, e, i, "deleted reference not undeleted: " + skipped);
          continue;
        }
        std::string detail = "undeleted and disabled (enable parent: the player, opposite)";
        if (!(udr.flags & record_flags::kPersistent)) detail += ", moved to z = -30000";
        if (!source.empty()) detail += ", fields from " + source;
        decide(CleanKind::Udr, e, i, detail);
        if (options.udr) report.undeleted.push_back({i, e.id, udr.flags, std::move(udr.fields)});
      } else {
        decide(CleanKind::DeletedOther, e, i, "deleted record: left alone");
      }
      continue;
    }
    if (equal_base) {
      decide(CleanKind::ItmKept, e, i,
             fmt::format("identical to {}, but {} changes it (first difference: {})", base_name, last_name,
                         first_difference(self, last_record)));
    } else if (equal_last) {
      decide(CleanKind::Itpo, e, i,
             fmt::format("identical to {}'s change (first difference from {}: {})", last_name, base_name,
                         first_difference(self, base_record)));
    }
  }

  // A wrapper identical to its masters' goes once everything under it goes; inner ones first (they
  // come later in the file), again until nothing changes.
  std::vector<bool> wrapper_done(itm_wrappers.size(), false);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t w = itm_wrappers.size(); w-- > 0;) {
      if (wrapper_done[w]) continue;
      const auto [record, group] = itm_wrappers[w];
      bool all_gone = true;
      for (std::uint32_t j = group + 1; j < entries[group].end && all_gone; ++j)
        if (!entries[j].is_group() && !removed[j]) all_gone = false;
      if (!all_gone) continue;
      removed[record] = true;
      for (std::uint32_t j = group; j < entries[group].end; ++j) removed[j] = true;
      wrapper_done[w] = changed = true;
      const IndexEntry& e = entries[record];
      decide(CleanKind::Itm, e, record, "identical to its masters' version, and nothing is left under it");
    }
  }
  std::stable_sort(report.decisions.begin(), report.decisions.end(),
                   [](const CleanDecision& a, const CleanDecision& b) { return a.entry < b.entry; });

  // Groups left empty go too (a group that was empty already stays).
  for (std::uint32_t i = std::uint32_t(entries.size()); i-- > 1;) {
    const IndexEntry& g = entries[i];
    if (!g.is_group() || removed[i] || g.end == i + 1) continue;
    bool all_gone = true;
    for (std::uint32_t j = i + 1; j < g.end && all_gone; j = entries[j].end) all_gone = removed[j];
    removed[i] = all_gone;
  }
  if (options.itm)
    for (std::uint32_t i = 1; i < entries.size(); ++i)
      if (removed[i]) report.removed.push_back(i);
  return report;
}

}  // namespace tesmod::clean
