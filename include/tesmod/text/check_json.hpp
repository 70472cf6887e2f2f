// `tesmod check --json`: the checked plugins, the problems found and the load order's own
// problems, written straight into a buffer (a check of a large load order can report a hundred
// thousand problems: building them as a JSON document first took longer than finding them).
// The layout is a JSON document indented by two spaces.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/loadorder/load_order_check.hpp"

namespace tesmod::text {

// {"checked": [names], "problems": [{file, check, type, form_id, editor_id, message}],
//  "load_order_problems": [{file, message}]}; EditorIDs converted to UTF-8 with codec.
void append_check_json(std::string& out, const loadorder::LoadOrder& order, std::span<const std::uint32_t> checked,
                       std::span<const loadorder::CheckProblem> problems, const TextCodec& codec);

}  // namespace tesmod::text
