#include "read_all_layers.hpp"

#include <sstream>

#include "tesmod/plugin/form_ids.hpp"
#include "tesmod/plugin/plugin_outline.hpp"
#include "tesmod/plugin/round_trip.hpp"
#include "tesmod/text/dump.hpp"

namespace tesmod::test {

LayersResult read_all_layers(const std::vector<std::uint8_t>& bytes, const std::string& name, std::uint32_t form_id,
                             unsigned threads) {
  OpenOptions o;
  o.count_subrecords = true;
  o.threads = threads;
  PluginFile f = PluginFile::parse(FileBytes::hold(bytes, name), o);
  const RoundTrip round_trip = write_back_and_compare(f);
  LayersResult result{round_trip.identical, round_trip.first_difference};

  FormIds::Options fo;
  fo.load_masters = false;
  fo.threads = 1;
  FormIds ids = FormIds::build(f, fo);
  TextCodec codec;
  text::DumpOptions d;
  d.codec = &codec;
  d.form_id_names = &ids;
  d.form_ids = {form_id};
  std::ostringstream out;
  text::dump_text(f, d, out);
  text::dump_json(f, d, out);
  return result;
}

std::string outline_disagreement(const std::vector<std::uint8_t>& bytes, const std::string& name) {
  const auto held = FileBytes::hold(bytes, name);
  std::optional<PluginFile> full;
  std::string full_error;
  try {
    full.emplace(PluginFile::parse(held));
  } catch (const Error& e) {
    full_error = e.what();
  }
  std::optional<PluginOutline> outline;
  try {
    outline.emplace(PluginOutline::parse(held));
  } catch (const Error& e) {
    if (full) return std::string("the outline failed to open a file the full open reads: ") + e.what();
    return "";  // the top level is damaged: the outline says so at open, its own way
  }
  std::vector<std::uint32_t> top;
  if (full) {
    for (std::uint32_t i = 1; i < full->entries().size(); ++i)
      if (full->entry(i).parent == kNoParent) top.push_back(i);
    if (top.size() != outline->top_groups().size()) return "a different number of top-level groups";
  }
  // find_records walks a group as group() indexes it: the same records kept, the same damage.
  const auto odd = [](const IndexEntry& e) { return (e.id & 1) != 0; };
  for (std::size_t g = 0; g < outline->top_groups().size(); ++g) {
    std::string found_error;
    FoundRecords found;
    try {
      found = outline->find_records(g, odd);
    } catch (const Error& e) {
      found_error = e.what();
    }
    std::span<const IndexEntry> got;
    try {
      got = outline->group(g);
    } catch (const Error& e) {
      if (found_error != e.what()) return "find_records reported '" + found_error + "', the group '" + e.what() + "'";
      if (full) return std::string("the outline failed to read a group the full open reads: ") + e.what();
      if (full_error != e.what()) return "first damage reported as '" + std::string(e.what()) + "', not '" + full_error + "'";
      return "";
    }
    if (!found_error.empty()) return "find_records failed on a group that reads: " + found_error;
    std::size_t kept = 0;
    for (std::uint32_t k = 0; k < got.size(); ++k) {
      const IndexEntry& e = got[k];
      if (e.is_group() || !odd(e)) continue;
      if (kept >= found.records.size() || found.records[kept].offset != e.offset || found.records[kept].id != e.id ||
          found.records[kept].end != k + 1)
        return "find_records kept other records, or numbered them otherwise";
      ++kept;
    }
    if (kept != found.records.size()) return "find_records kept more records";
    if (found.entries != got.size()) return "find_records counted another number of entries";
    if (!full) continue;
    const std::uint32_t base = top[g];
    if (got.size() != full->entry(base).end - base) return "a group with a different number of entries";
    for (std::uint32_t k = 0; k < got.size(); ++k) {
      const IndexEntry& a = got[k];
      const IndexEntry& b = full->entry(base + k);
      if (a.offset != b.offset || a.type != b.type || a.size != b.size || a.flags != b.flags || a.id != b.id ||
          a.end != b.end - base || a.parent != (k == 0 ? kNoParent : b.parent - base))
        return "an entry that differs from the full index's";
    }
  }
  if (!full) return "the outline read every group of a file the full open rejects: " + full_error;
  return "";
}

}  // namespace tesmod::test
