#include "tesmod/text/info.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "tesmod/io/counted.hpp"
#include "tesmod/plugin/group_type.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod::text {
namespace {

double rounded_version(float v) { return std::round(double(v) * 100.0) / 100.0; }

}  // namespace

nlohmann::ordered_json info_json(const PluginFile& file, const TextCodec& codec) {
  const FileHeader& h = file.header();
  const PluginStats& st = file.stats();
  nlohmann::ordered_json j;
  j["file"] = file.name();
  j["bytes"] = file.bytes().size();
  j["game"] = game_id(file.game());
  j["game_title"] = game_title(file.game());
  j["header_size"] = file.header_size();
  j["format_version"] = rounded_version(h.version);
  j["flags"] = record_flags::names(kHeaderRecord, h.flags, file.game());
  j["flags_value"] = h.flags;
  j["author"] = h.author ? nlohmann::ordered_json(codec.to_utf8(*h.author)) : nlohmann::ordered_json(nullptr);
  j["description"] =
      h.description ? nlohmann::ordered_json(codec.to_utf8(*h.description)) : nlohmann::ordered_json(nullptr);
  auto masters = nlohmann::ordered_json::array();
  for (const MasterFile& m : h.masters) masters.push_back(codec.to_utf8(m.name));
  j["masters"] = masters;
  j["next_object_id"] = h.next_object_id;
  if (file.game() != Game::Oblivion) {
    j["overridden_forms"] = h.overridden_forms.size();  // ONAM
    j["intv"] = h.intv ? nlohmann::ordered_json(*h.intv) : nlohmann::ordered_json(nullptr);
    j["incc"] = h.incc ? nlohmann::ordered_json(*h.incc) : nlohmann::ordered_json(nullptr);
  }
  j["hedr_records"] = h.record_count;
  j["groups"] = st.groups;
  j["records"] = st.records;
  j["compressed"] = st.compressed;
  auto by_type = nlohmann::ordered_json::object();
  for (const auto& [type, n] : st.records_by_type) by_type[type.str()] = n;
  j["records_by_type"] = by_type;
  auto groups = nlohmann::ordered_json::object();
  for (const auto& [type, n] : st.groups_by_type) groups[std::string(group_type_name(type))] = n;
  j["groups_by_type"] = groups;
  if (file.game() != Game::Oblivion) {
    auto fv = nlohmann::ordered_json::object();
    for (const auto& [v, n] : st.form_versions) fv[std::to_string(v)] = n;
    j["form_versions"] = fv;
  }
  if (st.subrecords) {
    j["subrecords"] = st.subrecords->fields;
    j["oversize_subrecords"] = st.subrecords->oversize;
    j["inflated_bytes"] = st.subrecords->inflated_bytes;
  }
  return j;
}

std::string info_text(const PluginFile& file, const TextCodec& codec) {
  const FileHeader& h = file.header();
  const PluginStats& st = file.stats();
  std::string out;
  auto line = [&](std::string_view key, const std::string& value) { out += fmt::format("{:<14}{}\n", key, value); };
  line("file", file.name());
  line("bytes", std::to_string(file.bytes().size()));
  line("game", fmt::format("{} ({}-byte headers, HEDR {})", game_title(file.game()), file.header_size(), h.version_text()));
  const auto flags = record_flags::names(kHeaderRecord, h.flags, file.game());
  line("flags", flags.empty() ? std::string("none") : fmt::format("{}", fmt::join(flags, ", ")));
  if (h.author) line("author", codec.to_utf8(*h.author));
  if (h.description) line("description", codec.to_utf8(*h.description));
  if (h.masters.empty()) line("masters", "none");
  for (std::size_t i = 0; i < h.masters.size(); ++i)
    line(i == 0 ? "masters" : "", fmt::format("[{:02X}] {}", i, codec.to_utf8(h.masters[i].name)));
  line("next id", fmt::format("0x{:06X}", h.next_object_id));
  if (!h.overridden_forms.empty()) line("overrides", fmt::format("{} listed in ONAM", counted(h.overridden_forms.size(), "form")));
  if (h.intv) line("INTV", std::to_string(*h.intv));
  if (h.incc) line("INCC", std::to_string(*h.incc));
  const std::uint64_t items = st.groups + st.records;
  line("groups", std::to_string(st.groups));
  line("records", fmt::format("{} ({} compressed; the TES4 header not counted)", st.records, st.compressed));
  if (std::uint64_t(std::int64_t(h.record_count)) != items)
    line("warning", fmt::format("HEDR counts {} records and groups; the file has {}", h.record_count, items));
  if (st.subrecords) {
    line("subrecords", fmt::format("{} ({} with an XXXX size prefix); {} inflated", st.subrecords->fields,
                                   st.subrecords->oversize, counted(st.subrecords->inflated_bytes, "byte")));
  }
  out += "records by type:\n";
  for (const auto& [type, n] : st.records_by_type) out += fmt::format("  {} {:>10}\n", type.str(), n);
  out += "groups by type:\n";
  for (const auto& [type, n] : st.groups_by_type) out += fmt::format("  {:<24} {:>10}\n", group_type_name(type), n);
  if (file.game() != Game::Oblivion) {
    out += "records by form version (the TES4 header included):\n";
    for (const auto& [v, n] : st.form_versions) out += fmt::format("  {:<4} {:>10}\n", v, n);
  }
  return out;
}

}  // namespace tesmod::text
