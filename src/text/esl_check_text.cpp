#include "tesmod/text/esl_check_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

namespace tesmod::text {
namespace {

using light::EslReport;
using light::EslVerdict;

constexpr std::array kVerdicts{EslVerdict::light_ok, EslVerdict::light_ok_hedr171, EslVerdict::needs_compaction,
                               EslVerdict::too_many_records, EslVerdict::unreadable};

std::string range_text(const LightRange& r) { return fmt::format("{:03X}-{:03X}", r.first, r.last); }
std::string hedr_text(float v) { return fmt::format("{:.2f}", v); }

bool uses_low_range(const EslReport& r) {
  return r.range.first == kLightFirst171 &&
         (r.verdict == EslVerdict::light_ok_hedr171 || r.verdict == EslVerdict::needs_compaction);
}

std::string headline(const EslReport& r) {
  std::string what;
  const std::uint64_t n = r.new_records;
  const std::string records = fmt::format("{} new record{}", n, n == 1 ? "" : "s");
  switch (r.verdict) {
    case EslVerdict::light_ok:
      what = n ? records + " in 800-FFF" : "no new records";
      break;
    case EslVerdict::light_ok_hedr171:
      what = fmt::format("{} in 000-FFF, {} below 800", records, r.below_800);
      break;
    case EslVerdict::needs_compaction:
      what = fmt::format("{}, {} outside {}", records, r.out_of_range.size(), range_text(r.range));
      break;
    case EslVerdict::too_many_records:
      what = fmt::format("{}, more than {}", records, n > 4096 ? std::uint64_t(4096) : std::uint64_t(r.range.size()));
      break;
    case EslVerdict::unreadable:
      what = "does not read";
      break;
  }
  if (r.light) what += r.valid_light ? "; light already" : "; light already, NOT VALID";
  return fmt::format("{}: {} ({})", r.name, light::verdict_name(r.verdict), what);
}

// The counts both reports end with: plugins per verdict, light already, invalid light.
struct Summary {
  std::array<std::size_t, kVerdicts.size()> counts{};
  std::size_t light = 0, invalid = 0;
};

Summary summarize(std::span<const EslReport> reports) {
  Summary s;
  for (const EslReport& r : reports) {
    ++s.counts[std::size_t(r.verdict)];
    s.light += r.light;
    s.invalid += light::is_error(r) && r.verdict != EslVerdict::unreadable;
  }
  return s;
}

}  // namespace

std::string esl_check_text(std::span<const EslReport> reports, const TextCodec& codec) {
  std::string out;
  const Summary summary = summarize(reports);
  for (const EslReport& r : reports) {
    out += headline(r) + "\n";
    if (r.verdict != EslVerdict::unreadable) {
      std::string facts = "HEDR " + hedr_text(r.hedr);
      if (r.masters == 0)
        facts += ", no masters";
      else if (r.game_master_first)
        facts += ", first master Skyrim.esm";
      else
        facts += ", Skyrim.esm not its first master";
      out += "  " + facts + "\n";
    }
    for (const std::string& reason : r.reasons) out += "  reason: " + reason + "\n";
    for (std::size_t k = 0; k < r.out_of_range.size(); k += 8) {
      out += "  out of range:";
      for (std::size_t i = k; i < std::min(r.out_of_range.size(), k + 8); ++i)
        out += fmt::format(" {:08X}", r.out_of_range[i]);
      out += "\n";
    }
    if (!r.dependants.empty()) {
      // Named when their HEDR matters (the low range is used, or already used) or when one
      // naming the plugin first keeps the verdict from using it; else counted.
      const bool detail = uses_low_range(r) || (r.light && r.below_800 > 0) ||
                          (r.masters > 0 && !r.low_range_usable && r.verdict != EslVerdict::light_ok &&
                           (r.below_800 > 0 || r.new_records > 2048));
      if (detail) {
        out += "  dependants:";
        bool first = true;
        for (const light::EslDependant& d : r.dependants) {
          out += first ? " " : ", ";
          first = false;
          out += fmt::format("{} (HEDR {}{}{})", d.name, hedr_text(d.hedr), d.needs_171 ? ", needs 1.71" : "",
                             d.first_master ? ", names it first" : "");
        }
        out += "\n";
      } else {
        out += fmt::format("  dependants: {} (none needs to change)\n", r.dependants.size());
      }
    }
    for (const light::EslWarning& w : r.warnings) {
      out += "  warning " + w.kind + ": ";
      if (w.record) {
        out += fmt::format("{} {:08X}", w.record->type.str(), w.record->form_id);
        if (!w.record->editor_id.empty()) out += " " + codec.to_utf8(w.record->editor_id);
        out += ": ";
      }
      out += w.message + "\n";
    }
    for (const light::EslOtherTool& o : r.others) out += "  other " + o.tool + ": " + o.says + "\n";
  }
  out += fmt::format("summary: {} plugin{}:", reports.size(), reports.size() == 1 ? "" : "s");
  for (std::size_t k = 0; k < kVerdicts.size(); ++k) {
    if (kVerdicts[k] == EslVerdict::unreadable && summary.counts[k] == 0) continue;
    out += fmt::format("{} {} {}", k ? "," : "", summary.counts[k], light::verdict_name(kVerdicts[k]));
  }
  out += fmt::format("; {} light already, {} invalid\n", summary.light, summary.invalid);
  return out;
}

std::string esl_check_json(const loadorder::LoadOrder& order, std::span<const EslReport> reports,
                           const TextCodec& codec) {
  using Json = nlohmann::ordered_json;
  Json plugins = Json::array();
  const Summary counted = summarize(reports);
  for (const EslReport& r : reports) {
    const bool readable = r.verdict != EslVerdict::unreadable;
    Json p;
    p["name"] = r.name;
    p["verdict"] = light::verdict_name(r.verdict);
    p["light"] = r.light;
    p["valid_light"] = r.light ? Json(r.valid_light) : Json(nullptr);
    p["new_records"] = r.new_records;
    p["below_800"] = r.below_800;
    p["above_fff"] = r.above_fff;
    p["range"] = readable ? Json(range_text(r.range)) : Json(nullptr);
    Json ids = Json::array();
    for (std::uint32_t id : r.out_of_range) ids.push_back(fmt::format("{:08X}", id));
    p["out_of_range"] = std::move(ids);
    p["hedr"] = readable ? Json(hedr_text(r.hedr)) : Json(nullptr);
    p["masters"] = r.masters;
    p["game_master_first"] = r.game_master_first;
    p["low_range_usable"] = r.low_range_usable;
    Json deps = Json::array();
    for (const light::EslDependant& d : r.dependants)
      deps.push_back(Json{
          {"name", d.name}, {"hedr", hedr_text(d.hedr)}, {"needs_171", d.needs_171}, {"first_master", d.first_master}});
    p["dependants"] = std::move(deps);
    p["reasons"] = r.reasons;
    Json warnings = Json::array();
    for (const light::EslWarning& w : r.warnings) {
      Json j;
      j["kind"] = w.kind;
      j["type"] = w.record ? Json(w.record->type.str()) : Json(nullptr);
      j["form_id"] = w.record ? Json(fmt::format("{:08X}", w.record->form_id)) : Json(nullptr);
      j["editor_id"] =
          w.record && !w.record->editor_id.empty() ? Json(codec.to_utf8(w.record->editor_id)) : Json(nullptr);
      j["message"] = w.message;
      warnings.push_back(std::move(j));
    }
    p["warnings"] = std::move(warnings);
    Json others = Json::array();
    for (const light::EslOtherTool& o : r.others) others.push_back(Json{{"tool", o.tool}, {"says", o.says}});
    p["others"] = std::move(others);
    if (!readable) p["error"] = r.error;
    plugins.push_back(std::move(p));
  }
  Json summary;
  for (std::size_t k = 0; k < kVerdicts.size(); ++k)
    summary[std::string(light::verdict_name(kVerdicts[k]))] = counted.counts[k];
  summary["light"] = counted.light;
  summary["invalid_light"] = counted.invalid;
  Json problems = Json::array();
  for (const loadorder::Problem& p : order.problems())
    problems.push_back(Json{{"file", p.file}, {"message", p.message}});
  Json doc;
  doc["game"] = game_id(order.game());
  doc["plugins"] = std::move(plugins);
  doc["summary"] = std::move(summary);
  doc["load_order_problems"] = std::move(problems);
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace tesmod::text
