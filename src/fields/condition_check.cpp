#include "tesmod/fields/condition_check.hpp"

#include <fmt/format.h>

#include "tesmod/fields/condition.hpp"
#include "tesmod/io/counted.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "tesmod/text/condition_text.hpp"

namespace tesmod::fields {
namespace {

bool holds_condition(std::span<const SubrecordView> fields, Game game) {
  for (const SubrecordView& f : fields)
    if (f.type == kCTDA || (f.type == kCTDT && game == Game::Oblivion)) return true;
  return false;
}

// Where the encoded fields first differ from the stored ones: nullopt when identical, else the
// byte's file offset (kNoOffset in inflated records) and what differs.
std::optional<std::pair<std::uint64_t, std::string>> compare(std::span<const SubrecordView> stored,
                                                             std::span<const Field> encoded,
                                                             std::uint64_t body_offset) {
  for (std::size_t i = 0; i < std::max(stored.size(), encoded.size()); ++i) {
    if (i >= stored.size() || i >= encoded.size()) {
      return std::pair{Error::kNoOffset, fmt::format("{} stored, {} encoded", counted(stored.size(), "field"), encoded.size())};
    }
    const SubrecordView& s = stored[i];
    const Field& e = encoded[i];
    const std::uint64_t field_at = body_offset == Error::kNoOffset ? Error::kNoOffset : body_offset + s.offset;
    if (s.type != e.type) return std::pair{field_at, fmt::format("field {} encoded as {}", s.type.str(), e.type.str())};
    const std::size_t n = std::min(s.data.size(), e.data.size());
    for (std::size_t k = 0; k < n; ++k) {
      if (s.data[k] != e.data[k]) {
        return std::pair{
            field_at == Error::kNoOffset ? field_at : field_at + 6 + k,
            fmt::format("{} byte {}: stored {:02X}, encoded {:02X}", s.type.str(), k, s.data[k], e.data[k])};
      }
    }
    if (s.data.size() != e.data.size())
      return std::pair{field_at,
                       fmt::format("{} of {} bytes encoded as {}", s.type.str(), s.data.size(), e.data.size())};
  }
  return std::nullopt;
}

}  // namespace

ConditionChecks check_conditions(const PluginFile& file, const text::FormNamer& namer) {
  ConditionChecks out;
  Inflater inflater;
  const Game game = file.game();
  for (const IndexEntry& e : file.entries().subspan(1)) {
    if (e.is_group()) continue;
    const std::uint64_t body_offset = e.is_compressed() ? Error::kNoOffset : e.offset + file.header_size();
    std::vector<SubrecordView> fields;
    std::optional<ErrorContext> where;
    try {
      fields = read_subrecords(file.body(e, inflater), ErrorContext{file.name(), e.offset, RecordRef{e.type, e.id, {}}},
                               body_offset);
      if (!holds_condition(fields, game)) continue;
      where = file.context(e);
    } catch (const Error& err) {
      out.ctda.failures.push_back({RecordRef{e.type, e.id, {}}, err.offset(), err.detail()});
      continue;
    }
    std::vector<LocatedCondition> found;
    try {
      found = read_conditions(game, fields, *where, body_offset);
    } catch (const Error& err) {
      // One undecodable condition: count the record's conditions as failed in both checks.
      std::uint64_t count = 0;
      for (const SubrecordView& f : fields) count += f.type == kCTDA || (f.type == kCTDT && game == Game::Oblivion);
      out.ctda.total += count;
      out.ctda_text.total += count;
      out.ctda.failures.push_back({*where->record, err.offset(), err.detail()});
      out.ctda_text.failures.push_back({*where->record, err.offset(), err.detail()});
      continue;
    }
    for (const LocatedCondition& lc : found) {
      const auto stored = std::span(fields).subspan(lc.first, lc.last - lc.first);
      const std::uint64_t field_at =
          body_offset == Error::kNoOffset ? Error::kNoOffset : body_offset + stored[0].offset;
      ++out.ctda.total;
      ++out.ctda_text.total;
      if (auto diff = compare(stored, encode_condition(lc.condition), body_offset)) {
        out.ctda.failures.push_back({*where->record, diff->first, diff->second});
      } else {
        ++out.ctda.identical;
      }
      const std::string line = text::render_condition(lc.condition, namer);
      try {
        const Condition back = text::parse_condition(line, game, namer);
        if (auto diff = compare(stored, encode_condition(back), body_offset)) {
          out.ctda_text.failures.push_back(
              {*where->record, diff->first, fmt::format("{} (text: {})", diff->second, line)});
        } else {
          ++out.ctda_text.identical;
        }
      } catch (const text::ConditionSyntaxError& err) {
        out.ctda_text.failures.push_back({*where->record, field_at, fmt::format("{} (text: {})", err.what(), line)});
      }
    }
  }
  return out;
}

}  // namespace tesmod::fields
