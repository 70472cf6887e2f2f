#include "tesmod/text/conflicts_json.hpp"

#include <fmt/format.h>

#include "tesmod/text/json_string.hpp"

namespace tesmod::text {

std::string conflict_form_id(const loadorder::LoadOrder& order, const loadorder::FormKey& form) {
  const auto id = order.load_order_form_id(form);
  return id ? fmt::format("{:08X}", *id) : fmt::format("{}:{:06X}", order.plugin(form.plugin).name, form.object_id);
}

void append_conflicts_json_head(std::string& out, const loadorder::LoadOrder& order) {
  out += "{\"load_order\": [";
  for (std::size_t i = 0; i < order.active().size(); ++i) {
    if (i) out += ", ";
    append_json_string(out, order.plugin(order.active()[i]).name);
  }
  out += "],\n\"records\": [";
}

void append_conflict_records_json(std::string& out, const loadorder::LoadOrder& order,
                                  const std::vector<loadorder::ConflictRecord>& records,
                                  const std::vector<std::vector<FieldDifference>>& fields, const TextCodec& codec,
                                  std::size_t from, std::size_t to) {
  auto name = [&](std::uint32_t plugin) { append_json_string(out, order.plugin(plugin).name); };
  for (std::size_t i = from; i < to; ++i) {
    const loadorder::ConflictRecord& r = records[i];
    out += i ? ",\n" : "\n";
    out += "{\"form_id\": ";
    append_json_string(out, conflict_form_id(order, r.form));
    out += ", \"file\": ";
    name(r.form.plugin);
    out += ", \"type\": ";
    append_json_string(out, r.type.str());
    out += ", \"editor_id\": ";
    if (r.editor_id.empty()) out += "null";
    else append_json_string(out, codec.to_utf8(r.editor_id));
    out += ", \"versions\": [";
    for (std::size_t k = 0; k < r.versions.size(); ++k) {
      if (k) out += ", ";
      name(r.versions[k].version.plugin);
    }
    out += "], \"states\": [";
    for (std::size_t k = 0; k < r.versions.size(); ++k) {
      if (k) out += ", ";
      append_json_string(out, loadorder::state_name(r.versions[k].state));
    }
    out += "], \"winner\": ";
    name(r.winner().version.plugin);
    out += ", \"category\": ";
    append_json_string(out, loadorder::category_name(r.category));
    out += ", \"itpo\": [";
    bool first = true;
    for (const loadorder::ConflictVersion& v : r.versions)
      if (v.itpo) {
        if (!first) out += ", ";
        first = false;
        name(v.version.plugin);
      }
    out += "], \"fields\": [";
    if (i < fields.size())
      for (std::size_t f = 0; f < fields[i].size(); ++f) {
        if (f) out += ", ";
        out += "{\"field\": ";
        append_json_string(out, fields[i][f].field);
        out += ", \"values\": [";
        for (std::size_t k = 0; k < fields[i][f].values.size(); ++k) {
          if (k) out += ", ";
          if (fields[i][f].values[k]) append_json_string(out, *fields[i][f].values[k]);
          else out += "null";
        }
        out += "]}";
      }
    out += "]}";
  }
}

void append_conflicts_json_tail(std::string& out, const std::vector<loadorder::Problem>& problems) {
  out += "\n],\n\"problems\": [";
  for (std::size_t i = 0; i < problems.size(); ++i) {
    out += i ? ",\n" : "\n";
    out += "{\"file\": ";
    append_json_string(out, problems[i].file);
    out += ", \"message\": ";
    append_json_string(out, problems[i].message);
    out += "}";
  }
  out += "]}\n";
}

void append_conflicts_json(std::string& out, const loadorder::LoadOrder& order,
                           const std::vector<loadorder::ConflictRecord>& records,
                           const std::vector<std::vector<FieldDifference>>& fields,
                           const std::vector<loadorder::Problem>& problems, const TextCodec& codec) {
  append_conflicts_json_head(out, order);
  append_conflict_records_json(out, order, records, fields, codec, 0, records.size());
  append_conflicts_json_tail(out, problems);
}

}  // namespace tesmod::text
