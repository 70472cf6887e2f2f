#include "tesmod/text/check_json.hpp"

#include <fmt/format.h>

#include "tesmod/text/json_string.hpp"

namespace tesmod::text {
namespace {

// `"key": ` at the indent of an object's members.
void key(std::string& out, std::string_view name, bool first, std::string_view indent) {
  out += first ? "\n" : ",\n";
  out += indent;
  append_json_string(out, name);
  out += ": ";
}

// A list of items at two levels of indent, or `[]`.
template <class Items, class Write>
void list(std::string& out, const Items& items, Write write) {
  if (items.empty()) {
    out += "[]";
    return;
  }
  out += '[';
  bool first = true;
  for (const auto& item : items) {
    out += first ? "\n    " : ",\n    ";
    first = false;
    write(item);
  }
  out += "\n  ]";
}

}  // namespace

void append_check_json(std::string& out, const loadorder::LoadOrder& order, std::span<const std::uint32_t> checked,
                       std::span<const loadorder::CheckProblem> problems, const TextCodec& codec) {
  out.reserve(out.size() + problems.size() * 256);
  out += '{';
  key(out, "checked", true, "  ");
  list(out, checked, [&](std::uint32_t p) { append_json_string(out, order.plugin(p).name); });
  key(out, "problems", false, "  ");
  list(out, problems, [&](const loadorder::CheckProblem& p) {
    constexpr std::string_view kIndent = "      ";
    out += '{';
    key(out, "file", true, kIndent);
    append_json_string(out, p.file);
    key(out, "check", false, kIndent);
    append_json_string(out, p.check);
    if (p.record) {
      key(out, "type", false, kIndent);
      append_json_string(out, p.record->type.str());
      key(out, "form_id", false, kIndent);
      fmt::format_to(std::back_inserter(out), "\"{:08X}\"", p.record->form_id);
      key(out, "editor_id", false, kIndent);
      if (p.record->editor_id.empty()) out += "null";
      else append_json_string(out, codec.to_utf8(p.record->editor_id));
    }
    key(out, "message", false, kIndent);
    append_json_string(out, p.message);
    out += "\n    }";
  });
  key(out, "load_order_problems", false, "  ");
  list(out, order.problems(), [&](const loadorder::Problem& p) {
    constexpr std::string_view kIndent = "      ";
    out += '{';
    key(out, "file", true, kIndent);
    append_json_string(out, p.file);
    key(out, "message", false, kIndent);
    append_json_string(out, p.message);
    out += "\n    }";
  });
  out += "\n}\n";
}

}  // namespace tesmod::text
