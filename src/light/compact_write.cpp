// A compaction plan applied: the new bytes of the plugin and of every dependant it changes.
#include <fmt/format.h>

#include <memory>

#include "reference_rewrite.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/workers.hpp"
#include "tesmod/light/compact.hpp"

namespace tesmod::light {

std::vector<CompactedFile> compact_files(const loadorder::LoadOrder& order, const CompactPlan& plan) {
  const detail::ObjectMap objects(plan.object_map);
  // The plugin first, then its dependants.
  std::vector<std::uint32_t> files{plan.position};
  files.insert(files.end(), plan.dependants.begin(), plan.dependants.end());
  order.read_files(files);
  std::vector<std::optional<CompactedFile>> out(files.size());
  run_workers(files.size(), order.threads(), [&](auto claim) {
    Inflater inflater;
    for (std::size_t k = claim(); k < files.size(); k = claim()) {
      const std::uint32_t p = files[k];
      const loadorder::LoadOrderPlugin& plugin = order.plugin(p);
      detail::FileNaming naming;
      naming.objects = &objects;
      naming.plugin = plan.plugin;
      detail::HeaderEdit header;
      if (p == plan.position) {
        // Its own records: every index from its master count up (past the list, the game reads
        // an index as the plugin's own); its references: by its master count.
        for (std::uint32_t i = plan.own_index; i < 256; ++i) naming.records[i] = true;
        naming.index = plan.own_index;
        if (plan.set_hedr171) header.version = kHedr171;
        if (plan.next_object_id != plan.next_object_id_before) header.next_object_id = plan.next_object_id;
        header.set_light_flag = plan.set_flag;
      } else {
        for (std::size_t m = 0; m < plugin.master_positions.size() && m < 256; ++m)
          if (plugin.master_positions[m] == plan.position) {
            naming.records[m] = true;
            naming.index = std::uint32_t(m);
          }
        if (std::find(plan.dependants_to_171.begin(), plan.dependants_to_171.end(), p) != plan.dependants_to_171.end())
          header.version = kHedr171;
      }
      if (plan.object_map.empty() && !header.version && !header.next_object_id && !header.set_light_flag) continue;
      detail::RewriteResult r = detail::rewrite_file(order.file(p), naming, header, inflater);
      if (!r.changed) continue;
      CompactedFile f;
      f.position = p;
      f.name = plugin.name;
      f.source = plugin.path;
      f.bytes = std::move(r.bytes);
      f.records_changed = r.records_changed;
      f.references = r.references;
      out[k] = std::move(f);
    }
  });
  std::vector<CompactedFile> changed;
  for (auto& f : out)
    if (f) changed.push_back(std::move(*f));
  return changed;
}

void write_compaction(std::span<const CompactedFile> files, const LooseFilePlan& loose, const std::filesystem::path& data,
                      const std::optional<std::filesystem::path>& output) {
  if (loose.has_errors()) {
    std::string why;
    for (const LooseFileProblem& p : loose.problems)
      if (p.error) why += "\n  " + p.message;
    throw Error(data.string(), Error::kNoOffset, std::nullopt, "the loose files cannot follow the renumbering; nothing was written:" + why);
  }
  if (output) std::filesystem::create_directories(*output);
  std::vector<std::unique_ptr<AtomicFile>> pending;
  for (const CompactedFile& f : files) {
    pending.push_back(std::make_unique<AtomicFile>(output ? *output / f.name : f.source));
    pending.back()->write(f.bytes);
  }
  // Each commit waits for its file to reach the disk: four wait at once.
  run_workers(pending.size(), unsigned(std::min<std::size_t>(pending.size(), 4)), [&](auto claim) {
    for (std::size_t k = claim(); k < pending.size(); k = claim()) pending[k]->commit();
  });
  apply_loose_files(loose, data, output);
}

}  // namespace tesmod::light
