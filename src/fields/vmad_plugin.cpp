#include "tesmod/fields/vmad_plugin.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tesmod/fields/vmad.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace tesmod::fields {

void for_each_vmad(const PluginFile& file, const std::function<void(const VmadField&)>& visit, const IndexEntry* only) {
  if (file.game() == Game::Oblivion) return;
  Inflater inflater;
  const std::span<const IndexEntry> all = file.entries();
  const std::span<const IndexEntry> entries = only ? std::span<const IndexEntry>(only, 1) : all.subspan(1);
  for (const IndexEntry& e : entries) {
    if (e.is_group() || e.type == Signature("TES4")) continue;
    const std::span<const std::uint8_t> body = file.body(e, inflater);
    // Only stored bodies have file offsets; errors in inflated ones name the byte within the field.
    const std::uint64_t body_offset = e.is_compressed() ? Error::kNoOffset : e.offset + file.header_size();
    // The EditorID is looked up only for records that have a VMAD (or a malformed body).
    const ErrorContext cheap{file.name(), e.offset, RecordRef{e.type, e.id, {}}};
    const auto full = [&] {
      return ErrorContext{file.name(), e.offset, RecordRef{e.type, e.id, find_editor_id(body).value_or("")}};
    };
    std::vector<SubrecordView> vmads;
    try {
      SubrecordCursor fields(body, cheap, body_offset);
      for (SubrecordView v; fields.next(v);)
        if (v.type == kVmadSignature) vmads.push_back(v);
    } catch (const Error& error) {
      throw Error(error.file(), error.offset(), full().record, error.detail());
    }
    if (vmads.empty()) continue;
    VmadField f;
    f.entry = &e;
    f.where = full();
    for (const SubrecordView& v : vmads) {
      f.data = v.data;
      if (body_offset != Error::kNoOffset) f.data_offset = body_offset + std::uint64_t(v.data.data() - body.data());
      visit(f);
    }
  }
}

FieldCheck check_vmad(const PluginFile& file) {
  FieldCheck check;
  for_each_vmad(file, [&](const VmadField& f) {
    ++check.total;
    const std::uint64_t at = f.data_offset != Error::kNoOffset ? f.data_offset : f.where.offset;
    try {
      const std::vector<std::uint8_t> again = encode_vmad(decode_vmad(f.data, f.entry->type, f.where, f.data_offset), f.where);
      if (std::equal(again.begin(), again.end(), f.data.begin(), f.data.end())) {
        ++check.identical;
        return;
      }
      const auto diff = std::mismatch(again.begin(), again.end(), f.data.begin(), f.data.end());
      const auto byte = static_cast<std::uint64_t>(diff.second - f.data.begin());
      const bool located = f.data_offset != Error::kNoOffset;
      check.failures.push_back(FieldFailure{
          *f.where.record, located ? f.data_offset + byte : at,
          fmt::format("VMAD re-encoded as {} bytes, stored {}; first difference at byte {} of the field", again.size(),
                      f.data.size(), byte)});
    } catch (const Error& e) {
      check.failures.push_back(FieldFailure{*f.where.record, e.offset() != Error::kNoOffset ? e.offset() : at, e.detail()});
    }
  });
  return check;
}

}  // namespace tesmod::fields
