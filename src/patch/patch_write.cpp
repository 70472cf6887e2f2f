// Writing a planned patch: the masters the plan found, every FormID mapped to them, the records in
// the game's group order, uncompressed (so that the bytes depend on nothing but the input).
#include <fmt/format.h>

#include <algorithm>

#include "tesmod/error.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/patch/patch.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod::patch {

std::vector<std::uint8_t> patch_bytes(const loadorder::LoadOrder& order, const PatchPlan& plan) {
  Plugin patch = Plugin::create(order.game(), plan.name);
  std::vector<MasterFile> masters;
  const TextCodec codec("WINDOWS-1252");
  for (std::uint32_t p : plan.masters) masters.push_back({codec.from_utf8(order.plugin(p).name), std::uint64_t{0}});
  const std::uint32_t own[] = {std::uint32_t(masters.size())};
  patch.set_masters(masters, own);
  patch.set_author("tesmod");
  std::size_t lists = 0;
  for (const PatchRecord& r : plan.records) lists += r.outcome.part == "leveled list";
  patch.set_description(fmt::format("Bashed Patch made by tesmod ({} mode): {} records, {} of them leveled lists",
                                    plan.mode == ListMode::WryeBash ? "wryebash" : "merge", plan.records.size(),
                                    lists));
  // The patch defines no forms of its own: Skyrim SE can load it as a light plugin.
  if (order.game() == Game::SkyrimSE) patch.set_header_flags(record_flags::kLight);
  std::vector<std::int64_t> index_of(order.plugins().size(), -1);
  for (std::size_t i = 0; i < plan.masters.size(); ++i) index_of[plan.masters[i]] = std::int64_t(i);
  const auto stored = [&](const loadorder::FormKey& k) -> std::uint32_t {
    const std::int64_t i = index_of[k.plugin];
    if (i < 0)
      throw Error(plan.name, Error::kNoOffset, std::nullopt,
                  fmt::format("a record names {}:{:06X}, whose plugin is not among the patch's masters",
                              order.plugin(k.plugin).name, k.object_id));
    return std::uint32_t(i) << 24 | k.object_id;
  };
  for (const PatchRecord& r : plan.records) {
    Record record(r.header.type, stored(r.form), write_fields(order.game(), r.header.type, r.fields, stored),
                  r.header.flags & ~record_flags::kCompressed);
    record.set_version_control(r.header.version_control, r.header.version_control_2);
    record.set_form_version(r.header.form_version);
    patch.add(std::move(record));
  }
  return patch.serialize();
}

void write_patch(const loadorder::LoadOrder& order, const PatchPlan& plan, const std::filesystem::path& path) {
  write_file_atomic(path, patch_bytes(order, plan));
}

}  // namespace tesmod::patch
