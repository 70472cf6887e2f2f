#include "tesmod/fields/package_check.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tesmod/fields/package_codec.hpp"
#include "tesmod/fields/package_oblivion.hpp"

namespace tesmod::fields {

FieldCheck check_packages(const PluginFile& file) {
  FieldCheck check;
  const bool oblivion = file.game() == Game::Oblivion;
  Inflater inflater;
  for (const IndexEntry& e : file.entries()) {
    if (e.is_group() || e.type != Signature("PACK")) continue;
    ++check.total;
    const ErrorContext where = file.context(e);
    try {
      const RecordFields r = read_record_fields(file, e, inflater);
      std::vector<std::uint8_t> again;
      if (oblivion) encode_fields(encode_oblivion_package(decode_oblivion_package(r.fields, r.where, r.locations)), again);
      else encode_fields(encode_package(decode_package(r.fields, r.where, r.locations)), again);
      const std::span<const std::uint8_t> stored = file.body(e, inflater);
      if (std::equal(again.begin(), again.end(), stored.begin(), stored.end())) {
        ++check.identical;
        continue;
      }
      const auto [a, b] = std::mismatch(again.begin(), again.end(), stored.begin(), stored.end());
      const auto at = std::uint64_t(b - stored.begin());
      FieldFailure f{*where.record, e.offset, {}};
      if (!e.is_compressed()) f.offset = e.offset + file.header_size() + at;
      f.message = fmt::format("re-encoded PACK differs from byte {} of the {}-byte body ({} bytes re-encoded)", at,
                              stored.size(), again.size());
      check.failures.push_back(std::move(f));
    } catch (const Error& error) {
      check.failures.push_back(FieldFailure{*where.record, error.offset(), error.detail()});
    }
  }
  return check;
}

}  // namespace tesmod::fields
