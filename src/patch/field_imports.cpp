// The field imports by Bash Tag, as Wrye Bash's import patchers ("preservers") do them: for each
// tagged plugin, in load order, every attribute of the tag's record types whose value in the
// plugin's record differs from its value in any of the plugin's masters' records is taken from the
// plugin (a later tagged plugin taking it over); records new in the plugin are not looked at.
// Then each form's taken values are set into the patch's record for it (planned already, or the
// winning record), and the record is written only when that changes it.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "field_import_table.hpp"
#include "field_import_values.hpp"
#include "tag_import_parts.hpp"

namespace tesmod::patch {
namespace {

using loadorder::FormKey;
using loadorder::FormVersions;
using loadorder::RecordVersion;
using loadorder::ResolvedRecord;

// What one plugin's tag did, for the report.
struct TagCount {
  std::size_t overrides = 0;   // records of the tag's types it overrides
  std::size_t changes = 0;     // values of them that differ from its masters'
  std::size_t superseded = 0;  // of those, values a later tagged plugin took over
  std::size_t written = 0;     // values the patch took from it
  std::set<FormKey> records;   // the records they went into
  std::map<std::string, std::size_t> by_attribute;
};

// A version read, with its attribute reader.
struct Loaded {
  ResolvedRecord record;
  std::unique_ptr<AttributeReader> reader;
};

class FieldImporter {
 public:
  explicit FieldImporter(ImportState& state)
      : state_(state), game_(state.plan.game), table_(field_import_table(game_)) {}

  void run() {
    // The tags in table order, and the record types with the rows that name them.
    std::vector<std::string> tags;
    std::vector<Signature> types;
    std::unordered_map<std::uint32_t, std::vector<std::size_t>> rows_of;  // type -> rows
    for (std::size_t r = 0; r < table_.rows.size(); ++r) {
      const ImportRow& row = table_.rows[r];
      if (std::find(tags.begin(), tags.end(), row.tag) == tags.end()) tags.push_back(row.tag);
      for (Signature t : row.types) {
        auto& rows = rows_of[t.value()];
        if (rows.empty()) types.push_back(t);
        rows.push_back(r);
      }
    }
    for (Signature type : types) import_type(type, rows_of[type.value()]);
    report(tags);
  }

 private:
  bool tagged(std::uint32_t plugin, const std::string& tag) const { return state_.plan.tags[plugin].has(tag); }

  // Whether the plugin has a top group of this type (read from its index, not its records).
  bool holds(std::uint32_t plugin, Signature type) {
    auto it = top_types_.find(plugin);
    if (it == top_types_.end()) {
      std::unordered_set<std::uint32_t> labels;
      for (const IndexEntry& e : state_.order.file(plugin).entries())
        if (e.parent == kNoParent && e.is_group() && e.group_type() == 0) labels.insert(e.id);
      it = top_types_.emplace(plugin, std::move(labels)).first;
    }
    return it->second.count(type.value()) != 0;
  }

  Loaded& load(std::map<std::uint32_t, Loaded>& loaded, const RecordVersion& v, Signature type) {
    auto it = loaded.find(v.plugin);
    if (it != loaded.end()) return it->second;
    Loaded& l = loaded[v.plugin];
    l.record = state_.read(v);
    l.reader = std::make_unique<AttributeReader>(game_, type, l.record.header.form_version, l.record.fields);
    return l;
  }

  void import_type(Signature type, const std::vector<std::size_t>& rows) {
    // The rows each source plugin's tags call for; none: the type is not read.
    std::unordered_map<std::uint32_t, std::vector<std::size_t>> rows_for;
    for (std::uint32_t p : state_.plan.sources) {
      std::vector<std::size_t> mine;
      for (std::size_t r : rows)
        if (tagged(p, table_.rows[r].tag)) mine.push_back(r);
      if (!mine.empty() && holds(p, type)) rows_for[p] = std::move(mine);
    }
    if (rows_for.empty()) return;
    for (const FormVersions& fv : state_.versions_of(type)) {
      if (std::none_of(fv.versions.begin(), fv.versions.end(),
                       [&](const RecordVersion& v) { return rows_for.count(v.plugin) != 0; }))
        continue;
      import_form(type, fv, rows_for);
    }
  }

  void import_form(Signature type, const FormVersions& fv,
                   const std::unordered_map<std::uint32_t, std::vector<std::size_t>>& rows_for) {
    std::map<std::uint32_t, Loaded> loaded;
    std::map<std::pair<std::size_t, std::size_t>, TakenValue> taken;  // (row, attribute) -> value
    for (const RecordVersion& v : fv.versions) {
      const auto mine = rows_for.find(v.plugin);
      if (mine == rows_for.end()) continue;
      const std::vector<RecordVersion> masters = state_.master_versions(fv.versions, v.plugin);
      if (masters.empty()) continue;  // new in the plugin: nothing of its masters' to change
      std::set<std::string> counted;
      for (std::size_t r : mine->second)
        if (counted.insert(table_.rows[r].tag).second) ++counts_[{v.plugin, table_.rows[r].tag}].overrides;
      const Loaded& source = load(loaded, v, type);
      for (std::size_t r : mine->second) {
        const ImportRow& row = table_.rows[r];
        for (std::size_t a = 0; a < row.attributes.size(); ++a) {
          const ImportAttribute& attribute = row.attributes[a];
          const AttributeValue value = source.reader->read(attribute);
          if (!value.found) continue;  // a member the record does not have: no value to take
          bool differs = false;
          for (const RecordVersion& m : masters) {
            const Loaded& master = load(loaded, m, type);
            if (!same_value(attribute, source.record.fields, value, master.record.fields,
                            master.reader->read(attribute))) {
              differs = true;
              break;
            }
          }
          if (!differs) continue;
          ++counts_[{v.plugin, row.tag}].changes;
          auto [it, fresh] = taken.try_emplace({r, a});
          if (!fresh) ++counts_[{it->second.plugin, row.tag}].superseded;
          it->second = take_value(v.plugin, *source.reader, value);
        }
      }
    }
    if (!taken.empty()) apply(type, fv, taken);
  }

  void apply(Signature type, const FormVersions& fv,
             const std::map<std::pair<std::size_t, std::size_t>, TakenValue>& taken) {
    PatchRecord record = state_.base(fv.form, fv.versions);
    const std::uint16_t form_version = record.header.form_version;
    std::vector<std::string> tags_used;
    std::map<std::uint32_t, std::vector<std::pair<std::string, std::string>>> took;  // plugin -> (tag, attribute)
    std::vector<std::string> more_notes;
    // Tag by tag, in table order: a tag changes the record when one of its values differs (by
    // Graphics' loose rule for `~` attributes), and then sets every value that differs.
    std::vector<std::string> tag_order;
    for (const auto& [key, value] : taken)
      if (std::find(tag_order.begin(), tag_order.end(), table_.rows[key.first].tag) == tag_order.end())
        tag_order.push_back(table_.rows[key.first].tag);
    for (const std::string& tag : tag_order) {
      bool changes = false;
      for (const auto& [key, value] : taken) {
        const ImportAttribute& attribute = table_.rows[key.first].attributes[key.second];
        if (table_.rows[key.first].tag != tag) continue;
        const AttributeValue now = AttributeReader(game_, type, form_version, record.fields).read(attribute);
        if (!same_value(attribute, value.fields, value.value, record.fields, now, attribute.loose)) {
          changes = true;
          break;
        }
      }
      if (!changes) continue;
      bool set_any = false;
      for (const auto& [key, value] : taken) {
        const ImportRow& row = table_.rows[key.first];
        if (row.tag != tag) continue;
        const ImportAttribute& attribute = row.attributes[key.second];
        const AttributeValue now = AttributeReader(game_, type, form_version, record.fields).read(attribute);
        if (same_value(attribute, value.fields, value.value, record.fields, now)) continue;
        for (std::string& n : set_value(attribute, value, game_, type, form_version, record.fields))
          more_notes.push_back(fmt::format("{}: {}", state_.order.plugin(value.plugin).name, n));
        took[value.plugin].push_back({tag, attribute.name});
        TagCount& c = counts_[{value.plugin, tag}];
        ++c.written;
        c.records.insert(fv.form);
        ++c.by_attribute[attribute.name];
        set_any = true;
      }
      if (set_any) tags_used.push_back(tag);
    }
    if (tags_used.empty()) return;
    record.editor_id.clear();
    for (const auto& f : record.fields)
      if (f.field.type == Signature("EDID")) {
        record.editor_id = f.field.as_zstring();
        break;
      }
    std::string part;
    for (const std::string& t : tags_used) part += (part.empty() ? "" : ", ") + t;
    record.outcome.part = record.outcome.part.empty() ? part : record.outcome.part + ", " + part;
    for (const auto& [plugin, what] : took) {
      record.outcome.sources.push_back(plugin);
      std::string line = state_.order.plugin(plugin).name + ":";
      for (std::size_t k = 0; k < what.size(); ++k) {
        if (k == 0 || what[k].first != what[k - 1].first)
          line += (k ? "; " : " ") + what[k].first + " ";
        else
          line += ", ";
        line += what[k].second;
      }
      record.outcome.notes.push_back(std::move(line));
    }
    for (std::string& n : more_notes) record.outcome.notes.push_back(std::move(n));
    std::sort(record.outcome.sources.begin(), record.outcome.sources.end());
    record.outcome.sources.erase(std::unique(record.outcome.sources.begin(), record.outcome.sources.end()),
                                 record.outcome.sources.end());
    state_.commit(std::move(record));
  }

  // One TagUse per import tag of every source plugin.
  void report(const std::vector<std::string>& tags) {
    for (const std::string& tag : tags)
      for (std::uint32_t p : state_.plan.sources) {
        if (!tagged(p, tag)) continue;
        const auto it = counts_.find({p, tag});
        const TagCount c = it == counts_.end() ? TagCount{} : it->second;
        if (c.written) {
          // The attributes it carried, the first few by name (EFSH's DATA has a hundred members).
          constexpr std::size_t kNamed = 8;
          std::string which;
          std::size_t named = 0;
          for (const auto& [name, n] : c.by_attribute)
            if (named++ < kNamed)
              which += (which.empty() ? "" : ", ") + (n > 1 ? fmt::format("{} x{}", name, n) : name);
          if (named > kNamed) which += fmt::format(" and {} more", named - kNamed);
          state_.use(p, tag, true,
                     fmt::format("carried {} field{} of {} record{} ({})", c.written, c.written == 1 ? "" : "s",
                                 c.records.size(), c.records.size() == 1 ? "" : "s", which));
        } else if (!c.overrides) {
          state_.use(p, tag, false, fmt::format("overrides no record of the types {} imports", tag));
        } else if (!c.changes) {
          state_.use(p, tag, false, fmt::format("changes no {} field of its masters' records", tag));
        } else {
          const std::string changes = fmt::format("{} {} change{}", c.changes, tag, c.changes == 1 ? "" : "s");
          state_.use(p, tag, false,
                     c.superseded == c.changes ? fmt::format("later tagged plugins take over its {}", changes)
                     : c.superseded == 0
                         ? fmt::format("the patch's records hold its {} already", changes)
                         : fmt::format("later tagged plugins take over {} of its {}, the patch's records hold the rest "
                                       "already",
                                       c.superseded, changes));
        }
      }
  }

  ImportState& state_;
  Game game_;
  const FieldImportTable& table_;
  std::unordered_map<std::uint32_t, std::unordered_set<std::uint32_t>> top_types_;
  std::map<std::pair<std::uint32_t, std::string>, TagCount> counts_;
};

}  // namespace

void import_fields(ImportState& state) { FieldImporter(state).run(); }

}  // namespace tesmod::patch
