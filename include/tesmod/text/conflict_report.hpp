// The report `tesmod conflicts` prints (text, --json, --html) and LoadOrder.conflicts() returns
// in Python: the records find_conflicts finds, narrowed by category and EditorID, with the fields
// that differ, found on the load order's threads. One place, so that every form of the report
// holds the same records.
#pragma once

#include <string>
#include <vector>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/loadorder/conflicts.hpp"
#include "tesmod/text/conflict_text.hpp"

namespace tesmod::text {

struct ConflictReportOptions {
  loadorder::ConflictOptions find;                    // types, plugin, forms
  std::vector<loadorder::ConflictCategory> categories;  // only these (empty: every category)
  std::string editor_id;  // only records with this EditorID (UTF-8, any case; empty: any)
  bool fields = true;     // find the differing fields (of records that are not no_conflict)
};

struct ConflictReport {
  std::vector<loadorder::ConflictRecord> records;
  std::vector<std::vector<FieldDifference>> fields;  // per record; empty when equal or not asked
  std::vector<loadorder::Problem> problems;          // the load order's, then those met here
};

// A record whose fields do not read is kept, without fields, and its reason is a problem.
ConflictReport conflict_report(const loadorder::LoadOrder& order, const ConflictReportOptions& options,
                               const TextCodec& codec);

}  // namespace tesmod::text
