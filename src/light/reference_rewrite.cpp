#include "reference_rewrite.hpp"

#include <fmt/format.h>

#include <cstring>
#include <unordered_set>

#include "interior_cells.hpp"
#include "tesmod/error.hpp"
#include "tesmod/fields/form_references.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/group_type.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod::light::detail {

namespace {

// Why an entry is visited again in the model.
enum Visit : std::uint8_t { kHeader = 1, kBody = 2, kLabel = 4 };

}  // namespace

ObjectMap::ObjectMap(const std::map<std::uint32_t, std::uint32_t>& objects) : filter_((kMask + 1) / 64) {
  for (const auto& [from, to] : objects) {
    old_.emplace(from, to);
    target_.emplace(to, from);
    for (std::uint32_t id : {from, to}) filter_[(id & kMask) >> 6] |= std::uint64_t(1) << (id & 63);
  }
}

std::uint32_t ObjectMap::source_of(std::uint32_t target) const {
  auto it = target_.find(target);
  return it == target_.end() ? 0 : it->second;
}

bool FileNaming::may_hold(std::span<const std::uint8_t> data) const {
  if (data.size() < 4) return false;
  const std::uint8_t* p = data.data();
  for (std::size_t i = 3; i < data.size(); ++i) {
    if (p[i] != index) continue;
    const std::uint32_t object = std::uint32_t(p[i - 3]) | std::uint32_t(p[i - 2]) << 8 | std::uint32_t(p[i - 1]) << 16;
    if (objects->may_be_either(object) && (objects->find(object) || objects->is_target(object))) return true;
  }
  return false;
}

namespace {

class Rewriter {
 public:
  Rewriter(const PluginFile& file, const FileNaming& naming, std::vector<std::uint8_t>& visit, RewriteResult& result)
      : file_(file), naming_(naming), visit_(visit), result_(result) {}

  void nodes(std::vector<Node>& nodes, std::uint32_t& index) {
    for (Node& n : nodes) {
      const std::uint32_t mine = index++;
      const std::uint8_t why = visit_[mine];
      if (n.is_group()) {
        if (why & kLabel) {
          Group& g = n.group();
          g.header.label = *naming_.map_record(g.header.label);
          ++result_.references;
        }
        nodes_or_skip(n.group(), index);
      } else if (why) {
        record(n.record(), mine, why);
      }
    }
  }

 private:
  // A group none of whose entries is visited is skipped whole.
  void nodes_or_skip(Group& g, std::uint32_t& index) {
    const IndexEntry& e = file_.entry(index - 1);
    bool any = false;
    for (std::uint32_t i = index; i < e.end && !any; ++i) any = visit_[i] != 0;
    if (!any) {
      index = e.end;
      return;
    }
    nodes(g.children, index);
  }

  void record(Record& r, std::uint32_t entry, std::uint8_t why) {
    bool changed = false;
    if (why & kHeader) {
      r.set_form_id(*naming_.map_record(r.form_id()));
      ++result_.references;
      changed = true;
    }
    if (why & kBody) {
      std::vector<Field> fields = r.fields();
      fields::FormReferenceOptions options;
      options.localized = file_.header().is_localized();
      options.form_version = r.header().form_version;
      std::size_t found = 0;
      const bool edited = fields::visit_form_references(
          file_.game(), r.type(), fields,
          [&](std::uint32_t& form_id, const fields::FormReference& where) {
            if (auto to = naming_.map(form_id)) {
              form_id = *to;
              ++found;
            } else if (naming_.names_target(form_id)) {
              const IndexEntry& e = file_.entry(entry);
              throw Error(file_.name(), e.offset, RecordRef{r.type(), r.form_id(), r.editor_id().value_or("")},
                          fmt::format("{} {} holds {:08X}, an id of {} that no record has; compaction gives that id "
                                      "to the record now at {:08X}, which this reference would then name: fix or "
                                      "remove the reference first",
                                      where.field.str(), where.what, form_id, naming_.plugin,
                                      (form_id & 0xFF000000u) | naming_.objects->source_of(form_id & 0xFFFFFF)));
            }
          },
          options);
      if (edited) {
        r.edit_fields() = std::move(fields);
        result_.references += found;
        changed = true;
      }
    }
    if (changed) ++result_.records_changed;
  }

  const PluginFile& file_;
  const FileNaming& naming_;
  std::vector<std::uint8_t>& visit_;
  RewriteResult& result_;
};

// ONAM (the records an ESM overrides), and what the header edit asks for.
bool edit_header(Plugin& model, const FileNaming& naming, const HeaderEdit& edit, RewriteResult& result) {
  Record& tes4 = model.header_record();
  bool onam = false;
  for (const Field& f : tes4.fields())
    if (f.type == Signature("ONAM"))
      for (std::size_t k = 0; k + 4 <= f.data.size(); k += 4) onam = onam || naming.map(le::u32(f.data.data() + k));
  bool changed = false;
  if (onam || edit.version || edit.next_object_id) {
    std::vector<Field>& fields = tes4.edit_fields();
    for (Field& f : fields) {
      if (f.type == Signature("ONAM")) {
        for (std::size_t k = 0; k + 4 <= f.data.size(); k += 4)
          if (auto to = naming.map(le::u32(f.data.data() + k))) {
            le::store(f.data.data() + k, *to);
            ++result.references;
          }
      } else if (f.type == Signature("HEDR") && f.data.size() == 12) {
        if (edit.version) std::memcpy(f.data.data(), &*edit.version, 4);
        if (edit.next_object_id) le::store(f.data.data() + 8, *edit.next_object_id);
      }
    }
    changed = true;
  }
  if (edit.set_light_flag && !(tes4.flags() & record_flags::kLight)) {
    tes4.set_flags(tes4.flags() | record_flags::kLight);
    changed = true;
  }
  return changed;
}

}  // namespace

RewriteResult rewrite_file(const PluginFile& file, const FileNaming& naming, const HeaderEdit& header, Inflater& inflater) {
  RewriteResult result;
  const auto entries = file.entries();
  std::vector<std::uint8_t> visit(entries.size(), 0);
  bool any = false;
  for (std::uint32_t i = 1; i < entries.size(); ++i) {
    const IndexEntry& e = entries[i];
    std::uint8_t why = 0;
    if (e.is_group()) {
      if (group_label_is_form_id(e.group_type()) && naming.map_record(e.id)) why = kLabel;
    } else {
      if (naming.map_record(e.id)) why |= kHeader;
      if (e.size > 0 && naming.may_hold(file.body(e, inflater))) why |= kBody;
    }
    visit[i] = why;
    any = any || why;
  }
  // ONAM and the header edit are looked at in the model; without them, a file no entry of which
  // is visited keeps its bytes.
  bool onam = false;
  if (file.game() != Game::Oblivion)
    for (std::uint32_t id : file.header().overridden_forms) onam = onam || naming.map(id);
  if (!any && !onam && !header.version && !header.next_object_id && !header.set_light_flag) return result;

  Plugin model = Plugin::from_file(file);
  std::uint32_t index = 1;
  Rewriter(file, naming, visit, result).nodes(model.top(), index);
  const bool header_changed = edit_header(model, naming, header, result);
  // Interior cells whose FormID changed move to the block and sub-block of their new id.
  std::unordered_set<std::uint32_t> renamed_cells;
  for (std::uint32_t i = 1; i < entries.size(); ++i)
    if ((visit[i] & kHeader) && entries[i].type == Signature("CELL")) renamed_cells.insert(*naming.map_record(entries[i].id));
  if (!renamed_cells.empty()) result.cells_moved = place_interior_cells(model, renamed_cells);
  if (result.records_changed == 0 && result.references == 0 && !header_changed) return result;
  result.changed = true;
  result.bytes = model.serialize();
  return result;
}

}  // namespace tesmod::light::detail
