#include "dump_unmatched.hpp"

#include <fmt/format.h>

#include "tesmod/io/ascii.hpp"

namespace tesmod::cli {

std::vector<std::string> unmatched_filters(const PluginFile& file, const text::DumpOptions& o,
                                           std::span<const std::string> edid_args, std::size_t shown) {
  std::vector<std::string> lines;
  if (o.form_ids.empty() && o.editor_ids.empty()) return lines;  // a type alone may well have no record
  std::vector<bool> id_found(o.form_ids.size()), edid_found(o.editor_ids.size());
  for (const IndexEntry& e : file.entries()) {
    if (e.is_group()) continue;
    for (std::size_t i = 0; i < o.form_ids.size(); ++i) id_found[i] = id_found[i] || o.form_ids[i] == e.id;
    if (o.editor_ids.empty()) continue;
    const auto edid = file.editor_id(e);
    if (!edid) continue;
    for (std::size_t i = 0; i < o.editor_ids.size(); ++i)
      edid_found[i] = edid_found[i] || ascii::iequals(o.editor_ids[i], *edid);
  }
  for (std::size_t i = 0; i < o.form_ids.size(); ++i)
    if (!id_found[i]) lines.push_back(fmt::format("no record with FormID {:08X}", o.form_ids[i]));
  for (std::size_t i = 0; i < o.editor_ids.size(); ++i)
    if (!edid_found[i]) lines.push_back("no record with EditorID " + edid_args[i]);
  // Each value is there, but on other records than the rest of the filters select.
  if (lines.empty() && shown == 0) lines.push_back("no record matches all the filters together");
  return lines;
}

}  // namespace tesmod::cli
