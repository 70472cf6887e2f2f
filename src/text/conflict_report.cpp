#include "tesmod/text/conflict_report.hpp"

#include <algorithm>

#include "tesmod/io/ascii.hpp"
#include "tesmod/io/workers.hpp"

namespace tesmod::text {

ConflictReport conflict_report(const loadorder::LoadOrder& order, const ConflictReportOptions& options,
                               const TextCodec& codec) {
  ConflictReport report;
  report.problems = order.problems();
  std::vector<loadorder::ConflictRecord> all = loadorder::find_conflicts(order, options.find, report.problems);
  const std::string editor_id = options.editor_id.empty() ? std::string() : codec.from_utf8(options.editor_id);
  for (loadorder::ConflictRecord& r : all) {
    if (!options.categories.empty() &&
        std::find(options.categories.begin(), options.categories.end(), r.category) == options.categories.end())
      continue;
    if (!editor_id.empty() && !ascii::iequals(r.editor_id, editor_id)) continue;
    report.records.push_back(std::move(r));
  }
  report.fields.resize(report.records.size());
  if (!options.fields) return report;
  // In batches, on several threads: a record's fields take microseconds.
  const LoadOrderNamers namers(order);
  std::vector<std::string> failures(report.records.size());
  constexpr std::size_t kBatch = 32;
  const std::size_t batches = (report.records.size() + kBatch - 1) / kBatch;
  run_workers(batches, order.threads(), [&](auto claim) {
    Inflater inflater;
    for (std::size_t b = claim(); b < batches; b = claim())
      for (std::size_t i = b * kBatch; i < std::min(report.records.size(), (b + 1) * kBatch); ++i) {
        if (report.records[i].category == loadorder::ConflictCategory::NoConflict) continue;
        try {
          report.fields[i] = conflict_fields(order, report.records[i], namers, codec, inflater);
        } catch (const std::exception& e) {
          failures[i] = e.what();
        }
      }
  });
  for (std::size_t i = 0; i < report.records.size(); ++i)
    if (!failures[i].empty())
      report.problems.push_back({order.plugin(report.records[i].form.plugin).name, "fields not shown: " + failures[i]});
  return report;
}

}  // namespace tesmod::text
