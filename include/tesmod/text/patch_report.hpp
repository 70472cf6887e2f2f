// What `tesmod patch` says about the patch it planned: per record, the plugins it took from and
// why; per plugin, its Bash Tags, where each came from and whether the patch used it. As text and
// as JSON (the CLI's --json and the Python API's dict):
//   {"patch", "game", "mode", "remove_empty_sublists", "sources": [names], "skipped": name|null,
//    "masters": [names], "counts": {"records", "leveled_lists", "imports", "lists_read"},
//    "tags": [{"plugin", "active", "tags": [..], "changes": [{"tag", "removed", "source", "detail"}],
//              "uses": [{"tag", "used", "why"}]}],
//    "records": [{"form", "type", "editor_id", "part", "winner", "sources": [names], "notes": [..]}],
//    "warnings": [..]}
// A form is written "File.esm:00ABCD" (the plugin that defines it and the object id).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/patch/patch.hpp"

namespace tesmod::text {

nlohmann::ordered_json patch_report_json(const loadorder::LoadOrder& order, const patch::PatchPlan& plan,
                                         const TextCodec& codec);
std::string patch_report_text(const loadorder::LoadOrder& order, const patch::PatchPlan& plan, const TextCodec& codec);
// Only the tags: per plugin, each tag with its source (the --tags-only listing).
std::string patch_tags_text(const loadorder::LoadOrder& order, const patch::PatchPlan& plan,
                            std::string_view indent = "");

}  // namespace tesmod::text
