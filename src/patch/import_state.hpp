// What the import parts of the patch share (private to src/patch): the plugins read, the versions
// of a record type, records read with their lstrings as text, and the patch's record for a form as
// it stands (planned already, or the winning version).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/loadorder/resolved_record.hpp"
#include "tesmod/patch/leveled_list.hpp"
#include "tesmod/patch/patch.hpp"
#include "tesmod/plugin/strings_file.hpp"

namespace tesmod::patch {

class ImportState {
 public:
  ImportState(const loadorder::LoadOrder& order, PatchPlan& plan, const FormTypeLookup& type_of);

  const loadorder::LoadOrder& order;
  PatchPlan& plan;
  const FormTypeLookup& type_of;

  bool is_source(std::uint32_t plugin) const { return plugin < source_.size() && source_[plugin]; }
  // The versions of every record of this type that the patch reads (source plugins only, deleted
  // versions left out; a form whose winning version is deleted left out whole), per form in order
  // of first appearance. Read once per type.
  const std::vector<loadorder::FormVersions>& versions_of(Signature type);
  // A version read whole; in a localized plugin its lstrings become text (the patch is not
  // localized), looked up in the plugin's string tables (a missing string is a warning).
  loadorder::ResolvedRecord read(const loadorder::RecordVersion& version);
  // The versions among `versions` that plugin p's masters hold (in load order).
  std::vector<loadorder::RecordVersion> master_versions(const std::vector<loadorder::RecordVersion>& versions,
                                                        std::uint32_t p) const;
  // The patch's record for a form as it stands: the one planned already, or the winning version
  // (the last of versions) as a new PatchRecord (not yet in the plan).
  PatchRecord base(const loadorder::FormKey& form, const std::vector<loadorder::RecordVersion>& versions);
  // Puts a changed record into the plan, replacing the one planned for its form.
  void commit(PatchRecord record);
  // Records a tag's use for the report.
  void use(std::uint32_t plugin, std::string tag, bool used, std::string why);

 private:
  loadorder::RecordResolver resolver_;
  Inflater inflater_;
  std::vector<bool> source_;
  std::unordered_map<std::uint32_t, std::vector<loadorder::FormVersions>> versions_;  // by type
  std::unordered_map<loadorder::FormKey, std::size_t> planned_;  // form -> index in plan.records
  std::map<std::uint32_t, std::unique_ptr<LocalizedStrings>> strings_;  // by plugin, loaded on first use
};

}  // namespace tesmod::patch
