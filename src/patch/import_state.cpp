#include "import_state.hpp"

#include "delocalize.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod::patch {

ImportState::ImportState(const loadorder::LoadOrder& order_, PatchPlan& plan_, const FormTypeLookup& type_of_)
    : order(order_), plan(plan_), type_of(type_of_), resolver_(order_), source_(order_.plugins().size(), false) {
  for (std::uint32_t p : plan.sources) source_[p] = true;
  for (std::size_t i = 0; i < plan.records.size(); ++i) planned_[plan.records[i].form] = i;
}

const std::vector<loadorder::FormVersions>& ImportState::versions_of(Signature type) {
  auto it = versions_.find(type.value());
  if (it != versions_.end()) return it->second;
  std::vector<loadorder::FormVersions> all = order.versions_of(type);
  std::vector<loadorder::FormVersions> kept;
  for (loadorder::FormVersions& fv : all) {
    std::erase_if(fv.versions, [this](const loadorder::RecordVersion& v) { return !is_source(v.plugin); });
    // A record the winning plugin deletes stays deleted: the patch does not bring it back.
    if (fv.versions.empty() || (fv.versions.back().entry.flags & record_flags::kDeleted) != 0) continue;
    std::erase_if(fv.versions, [](const loadorder::RecordVersion& v) { return (v.entry.flags & record_flags::kDeleted) != 0; });
    kept.push_back(std::move(fv));
  }
  return versions_.emplace(type.value(), std::move(kept)).first->second;
}

loadorder::ResolvedRecord ImportState::read(const loadorder::RecordVersion& version) {
  loadorder::ResolvedRecord r = resolver_.resolve(version, inflater_);
  if (!r.localized) return r;
  auto& strings = strings_[version.plugin];
  if (!strings) strings = std::make_unique<LocalizedStrings>(LocalizedStrings::load(order.plugin(version.plugin).path));
  delocalize(r, *strings, order.plugin(version.plugin).name, [&](std::string w) { plan.warnings.push_back(std::move(w)); });
  return r;
}

std::vector<loadorder::RecordVersion> ImportState::master_versions(const std::vector<loadorder::RecordVersion>& versions,
                                                                   std::uint32_t p) const {
  const auto& masters = order.plugin(p).master_positions;
  std::vector<loadorder::RecordVersion> out;
  for (const loadorder::RecordVersion& v : versions)
    if (std::find(masters.begin(), masters.end(), std::optional<std::uint32_t>(v.plugin)) != masters.end())
      out.push_back(v);
  return out;
}

PatchRecord ImportState::base(const loadorder::FormKey& form, const std::vector<loadorder::RecordVersion>& versions) {
  if (auto it = planned_.find(form); it != planned_.end()) return plan.records[it->second];
  const loadorder::RecordVersion& winner = versions.back();
  loadorder::ResolvedRecord r = read(winner);
  PatchRecord out;
  out.form = form;
  out.header = r.header;
  out.winner = winner.plugin;
  out.fields = std::move(r.fields);
  for (const auto& f : out.fields)
    if (f.field.type == Signature("EDID")) out.editor_id = f.field.as_zstring();
  return out;
}

void ImportState::commit(PatchRecord record) {
  if (auto it = planned_.find(record.form); it != planned_.end()) {
    plan.records[it->second] = std::move(record);
    return;
  }
  planned_[record.form] = plan.records.size();
  plan.records.push_back(std::move(record));
}

void ImportState::use(std::uint32_t plugin, std::string tag, bool used, std::string why) {
  plan.tag_uses.push_back({plugin, std::move(tag), used, std::move(why)});
}

}  // namespace tesmod::patch
