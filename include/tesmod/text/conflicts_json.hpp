// `tesmod conflicts --json`, written straight into a buffer (a load order of a hundred plugins
// over a large master has tens of thousands of records):
//   {"load_order": [active names in order],
//    "records": [{"form_id", "file", "type", "editor_id", "versions", "states", "winner",
//                 "category", "itpo", "fields": [{"field", "values"}]}],
//    "problems": [{"file", "message"}]}
// one record a line.
#pragma once

#include <string>
#include <vector>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/loadorder/conflicts.hpp"
#include "tesmod/text/conflict_text.hpp"

namespace tesmod::text {

// The record's load-order FormID in eight hex digits, or `File.esm:00ABCD` when its plugin has no index.
std::string conflict_form_id(const loadorder::LoadOrder& order, const loadorder::FormKey& form);

// fields: per record, its differing fields (conflict_fields), or empty.
void append_conflicts_json(std::string& out, const loadorder::LoadOrder& order,
                           const std::vector<loadorder::ConflictRecord>& records,
                           const std::vector<std::vector<FieldDifference>>& fields,
                           const std::vector<loadorder::Problem>& problems, const TextCodec& codec);

// The same in three parts, so that ranges of records can be written on several threads and
// joined: the opening (load order), the records [from, to) (each after its separator), the close.
void append_conflicts_json_head(std::string& out, const loadorder::LoadOrder& order);
void append_conflict_records_json(std::string& out, const loadorder::LoadOrder& order,
                                  const std::vector<loadorder::ConflictRecord>& records,
                                  const std::vector<std::vector<FieldDifference>>& fields, const TextCodec& codec,
                                  std::size_t from, std::size_t to);
void append_conflicts_json_tail(std::string& out, const std::vector<loadorder::Problem>& problems);

}  // namespace tesmod::text
