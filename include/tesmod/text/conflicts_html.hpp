// `tesmod conflicts --html FILE`: the conflict report as one self-contained page (no network,
// opened from disk). The page is a fixed shell (src/text/conflicts_page.html: styles, script)
// around the report's data as JSON; the script renders the rows lazily, so that a load order of a
// hundred plugins stays usable, and the data is smaller than `--json`'s (plugins as positions,
// states as letters).
//
// The data (one record a line), whose strings escape `<`, `>` and `&` so that nothing taken from
// a plugin can end the script element or be read as markup:
//   {"game", "title",
//    "plugins": [{"name", "index" (null when not active), "active", "flags", "masters", "missing"}]
//               (every plugin, in load order; versions name them by position here),
//    "records": [[type, form_id, plugin, object_id, editor_id|null, category (0 no_conflict,
//                 1 override, 2 conflict), [version plugins], states, fields|0]],
//    "problems": [[file, message]]}
// states: a letter a version, M master, I identical to master, W wins, L loses; lower case when
// the version is identical to the previous override (itpo). fields: [[field, [value|null...]]].
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/loadorder/conflicts.hpp"
#include "tesmod/text/conflict_text.hpp"

namespace tesmod::text {

// The page in three parts, as conflicts_json.hpp writes its JSON, so that ranges of records can
// be written on several threads and joined: everything up to the first record (title: shown in
// the page's title, e.g. the data folder), the records [from, to), the rest.
void append_conflicts_html_head(std::string& out, const loadorder::LoadOrder& order, std::string_view title);
void append_conflict_records_html(std::string& out, const loadorder::LoadOrder& order,
                                  const std::vector<loadorder::ConflictRecord>& records,
                                  const std::vector<std::vector<FieldDifference>>& fields, const TextCodec& codec,
                                  std::size_t from, std::size_t to);
void append_conflicts_html_tail(std::string& out, const std::vector<loadorder::Problem>& problems);

// The whole page at once.
void append_conflicts_html(std::string& out, const loadorder::LoadOrder& order, std::string_view title,
                           const std::vector<loadorder::ConflictRecord>& records,
                           const std::vector<std::vector<FieldDifference>>& fields,
                           const std::vector<loadorder::Problem>& problems, const TextCodec& codec);

// text with &, <, >, " and ' as character references, for text and attribute values.
void append_html_escaped(std::string& out, std::string_view text);

}  // namespace tesmod::text
