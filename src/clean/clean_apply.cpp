// A cleaning plan applied to a plugin's model, and the bytes it writes.
#include <fmt/format.h>
#include <libdeflate.h>
#include <zlib.h>

#include <unordered_map>

#include "tesmod/clean/clean.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/thread_count.hpp"
#include "tesmod/io/workers.hpp"

namespace tesmod::clean {

namespace {

// Walks the model in file order (entry i + 1 is the i-th node in pre-order, as Plugin::from_file
// builds it), drops the nodes the plan removes and rewrites the references it undeletes.
void prune(std::vector<Node>& nodes, std::uint32_t& index, const std::vector<bool>& drop,
           const std::unordered_map<std::uint32_t, const UdrEdit*>& edits, const std::string& file) {
  std::vector<Node> kept;
  kept.reserve(nodes.size());
  for (Node& n : nodes) {
    const std::uint32_t mine = index++;
    if (n.is_group()) {
      prune(n.group().children, index, drop, edits, file);
    } else if (auto it = edits.find(mine); it != edits.end()) {
      Record& r = n.record();
      if (r.form_id() != it->second->form_id) {
        throw Error(file, Error::kNoOffset, RecordRef{r.type(), r.form_id(), {}},
                    fmt::format("the cleaning plan names {:08X} here: the plugin changed since it was made",
                                it->second->form_id));
      }
      r.set_flags(it->second->flags);  // clears Compressed: decodes the stored body first
      r.edit_fields() = it->second->fields;
    }
    if (mine < drop.size() && drop[mine]) continue;
    kept.push_back(std::move(n));
  }
  nodes = std::move(kept);
}

}  // namespace

std::uint32_t crc32_of(std::span<const std::uint8_t> bytes) {
  // libdeflate's CRC-32 is zlib's (the same polynomial and start), several times faster; a large
  // master is summed in pieces on several threads and the pieces joined with zlib's crc32_combine.
  constexpr std::size_t kPiece = std::size_t(32) << 20;
  const std::size_t pieces = (bytes.size() + kPiece - 1) / kPiece;
  if (pieces <= 1) return libdeflate_crc32(0, bytes.data(), bytes.size());
  std::vector<std::uint32_t> crcs(pieces);
  run_workers(pieces, thread_count(0), [&](auto claim) {
    for (std::size_t k = claim(); k < pieces; k = claim()) {
      const std::size_t from = k * kPiece, n = std::min(kPiece, bytes.size() - from);
      crcs[k] = libdeflate_crc32(0, bytes.data() + from, n);
    }
  });
  uLong crc = crcs[0];
  for (std::size_t k = 1; k < pieces; ++k)
    crc = crc32_combine(crc, crcs[k], z_off_t(std::min(kPiece, bytes.size() - k * kPiece)));
  return std::uint32_t(crc);
}

void apply_cleaning(Plugin& model, const CleanReport& report) {
  if (model.count_items() + 1 != report.entry_count) {
    throw Error(report.plugin, Error::kNoOffset, std::nullopt,
                fmt::format("the plugin has {} groups and records, the cleaning plan was made for {}: clean the "
                            "plugin as it was read, before other edits",
                            model.count_items(), report.entry_count - 1));
  }
  std::vector<bool> drop(report.entry_count, false);
  for (std::uint32_t i : report.removed) drop[i] = true;
  std::unordered_map<std::uint32_t, const UdrEdit*> edits;
  for (const UdrEdit& e : report.undeleted) edits.emplace(e.entry, &e);
  std::uint32_t index = 1;
  prune(model.top(), index, drop, edits, report.plugin);
}

std::vector<std::uint8_t> clean_bytes(const loadorder::LoadOrder& order, std::uint32_t position, CleanReport& report) {
  const PluginFile& file = order.file(position);
  if (!report.changes()) {
    report.crc_after = report.crc_before;
    return {file.bytes().begin(), file.bytes().end()};
  }
  Plugin model = Plugin::from_file(file);
  apply_cleaning(model, report);
  std::vector<std::uint8_t> out = model.serialize();
  report.crc_after = crc32_of(out);
  return out;
}

void set_crc_after(const loadorder::LoadOrder& order, std::uint32_t position, CleanReport& report) {
  if (report.changes()) clean_bytes(order, position, report);
  else report.crc_after = report.crc_before;
}

}  // namespace tesmod::clean
