#include "tesmod/text/conflicts_html.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "conflicts_page_asset.hpp"
#include "tesmod/text/conflicts_json.hpp"
#include "tesmod/text/json_string.hpp"

namespace tesmod::text {
namespace {

constexpr std::string_view kDataMarker = "@DATA@";
constexpr std::string_view kTitleMarker = "@TITLE@";

// The shell around the data: [0, data) before it, [data + marker, end) after it.
std::size_t data_at() {
  const std::size_t at = assets::kConflictsPage.find(kDataMarker);
  if (at == std::string_view::npos) throw std::logic_error("the embedded conflicts page has no " + std::string(kDataMarker));
  return at;
}

void quoted(std::string& out, std::string_view text) { append_json_string_for_html(out, text); }

// What the page says of a plugin besides its name.
std::string flags(const loadorder::LoadOrderPlugin& p) {
  std::string f;
  auto add = [&](std::string_view s) {
    if (!f.empty()) f += ' ';
    f += s;
  };
  if (!p.readable()) add("unreadable");
  else {
    if (p.header.is_master()) add("ESM");
    if (p.light) add("ESL");
  }
  if (p.ghosted) add("ghosted");
  return f;
}

char state_letter(const loadorder::ConflictVersion& v) {
  char c = 'M';
  switch (v.state) {
    case loadorder::VersionState::Master: c = 'M'; break;
    case loadorder::VersionState::IdenticalToMaster: c = 'I'; break;
    case loadorder::VersionState::Wins: c = 'W'; break;
    case loadorder::VersionState::Loses: c = 'L'; break;
  }
  return v.itpo ? char(c - 'A' + 'a') : c;
}

}  // namespace

void append_html_escaped(std::string& out, std::string_view text) {
  for (char c : text) switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
}

void append_conflicts_html_head(std::string& out, const loadorder::LoadOrder& order, std::string_view title) {
  const std::string_view shell = assets::kConflictsPage.substr(0, data_at());
  const std::size_t t = shell.find(kTitleMarker);
  if (t == std::string_view::npos) throw std::logic_error("the embedded conflicts page has no " + std::string(kTitleMarker));
  out.append(shell.substr(0, t));
  append_html_escaped(out, title);
  out.append(shell.substr(t + kTitleMarker.size()));
  out += "{\"game\": ";
  quoted(out, order.game_id());
  out += ", \"title\": ";
  quoted(out, title);
  out += ",\n\"plugins\": [";
  for (std::size_t i = 0; i < order.plugins().size(); ++i) {
    const loadorder::LoadOrderPlugin& p = order.plugin(std::uint32_t(i));
    out += i ? ",\n{\"name\": " : "\n{\"name\": ";
    quoted(out, p.name);
    out += ", \"index\": ";
    if (p.index) quoted(out, p.index->text());
    else out += "null";
    out += p.active ? ", \"active\": true" : ", \"active\": false";
    out += ", \"flags\": ";
    quoted(out, flags(p));
    out += ", \"masters\": [";
    for (std::size_t m = 0; m < p.masters.size(); ++m) {
      if (m) out += ", ";
      quoted(out, p.masters[m]);
    }
    out += "], \"missing\": [";  // masters not in the load order
    bool first = true;
    for (std::size_t m = 0; m < p.masters.size(); ++m)
      if (m >= p.master_positions.size() || !p.master_positions[m]) {
        if (!first) out += ", ";
        first = false;
        quoted(out, p.masters[m]);
      }
    out += "]}";
  }
  out += "],\n\"records\": [";
}

void append_conflict_records_html(std::string& out, const loadorder::LoadOrder& order,
                                  const std::vector<loadorder::ConflictRecord>& records,
                                  const std::vector<std::vector<FieldDifference>>& fields, const TextCodec& codec,
                                  std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to; ++i) {
    const loadorder::ConflictRecord& r = records[i];
    out += i ? ",\n[" : "\n[";
    quoted(out, r.type.str());
    out += ',';
    quoted(out, conflict_form_id(order, r.form));
    fmt::format_to(std::back_inserter(out), ",{},\"{:06X}\",", r.form.plugin, r.form.object_id);
    if (r.editor_id.empty()) out += "null";
    else quoted(out, codec.to_utf8(r.editor_id));
    fmt::format_to(std::back_inserter(out), ",{},[", int(r.category));
    for (std::size_t k = 0; k < r.versions.size(); ++k) {
      if (k) out += ',';
      fmt::format_to(std::back_inserter(out), "{}", r.versions[k].version.plugin);
    }
    out += "],\"";
    for (const loadorder::ConflictVersion& v : r.versions) out += state_letter(v);
    out += "\",";
    if (i >= fields.size() || fields[i].empty()) {
      out += "0]";
      continue;
    }
    out += '[';
    for (std::size_t f = 0; f < fields[i].size(); ++f) {
      out += f ? ",[" : "[";
      quoted(out, fields[i][f].field);
      out += ",[";
      for (std::size_t k = 0; k < fields[i][f].values.size(); ++k) {
        if (k) out += ',';
        if (fields[i][f].values[k]) quoted(out, *fields[i][f].values[k]);
        else out += "null";
      }
      out += "]]";
    }
    out += "]]";
  }
}

void append_conflicts_html_tail(std::string& out, const std::vector<loadorder::Problem>& problems) {
  out += "\n],\n\"problems\": [";
  for (std::size_t i = 0; i < problems.size(); ++i) {
    out += i ? ",\n[" : "\n[";
    quoted(out, problems[i].file);
    out += ", ";
    quoted(out, problems[i].message);
    out += ']';
  }
  out += "]}";
  out.append(assets::kConflictsPage.substr(data_at() + kDataMarker.size()));
}

void append_conflicts_html(std::string& out, const loadorder::LoadOrder& order, std::string_view title,
                           const std::vector<loadorder::ConflictRecord>& records,
                           const std::vector<std::vector<FieldDifference>>& fields,
                           const std::vector<loadorder::Problem>& problems, const TextCodec& codec) {
  append_conflicts_html_head(out, order, title);
  append_conflict_records_html(out, order, records, fields, codec, 0, records.size());
  append_conflicts_html_tail(out, problems);
}

}  // namespace tesmod::text
