// `tesmod esl check`'s two outputs (light/esl_check.hpp): a text block per plugin and a summary
// line, or one JSON document (indented by two spaces). Both are deterministic: the reports in
// the order given, their lists in load order or file order.
//
// Text:
//   MyMod.esp: needs_compaction (312 new records, 40 outside 800-FFF)
//     HEDR 1.70, first master Skyrim.esm
//     reason: ...
//     out of range: 01001000 01001001 ...      (eight a line)
//     dependants: A.esp (HEDR 1.70, needs 1.71), ...  (named where their HEDR or master order
//                                                     matters to the verdict; else counted)
//     warning new_cell: CELL 01000D12 MyCell: ...
//     other xEdit: ...
//   summary: 5 plugins: 3 light_ok, 1 light_ok_hedr171, 1 needs_compaction, 0 too_many_records;
//            2 light already, 1 invalid        (one line)
//
// JSON: {"game", "plugins": [{"name", "verdict", "light", "valid_light" (null unless light),
// "new_records", "below_800", "above_fff", "range", "out_of_range": [FormIDs, 8 hex digits as
// stored], "hedr" ("1.70"), "masters" (how many), "game_master_first", "low_range_usable",
// "dependants": [{"name", "hedr", "needs_171", "first_master"}], "reasons": [...], "warnings":
// [{"kind", "type", "form_id", "editor_id", "message"}], "others": [{"tool", "says"}], "error"
// (unreadable only)}], "summary": {verdict: count, "light", "invalid_light"},
// "load_order_problems": [{"file", "message"}]}.
#pragma once

#include <span>
#include <string>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/light/esl_check.hpp"
#include "tesmod/loadorder/load_order.hpp"

namespace tesmod::text {

// EditorIDs converted to UTF-8 with codec.
std::string esl_check_text(std::span<const light::EslReport> reports, const TextCodec& codec);
std::string esl_check_json(const loadorder::LoadOrder& order, std::span<const light::EslReport> reports,
                           const TextCodec& codec);

}  // namespace tesmod::text
