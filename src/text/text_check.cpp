#include "tesmod/text/text_check.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "tesmod/io/thread_count.hpp"
#include "tesmod/io/workers.hpp"

namespace tesmod::text {

std::uint16_t common_form_version(const PluginFile& file) {
  if (file.game() == Game::Oblivion) return 0;
  std::uint16_t best = 0;
  std::uint64_t count = 0;
  for (const auto& [version, n] : file.stats().form_versions)
    if (n > count) {
      best = version;
      count = n;
    }
  return best;
}

RecordTextOptions record_text_options(const PluginFile& file, const TextNamer& namer, const TextCodec& codec) {
  RecordTextOptions o;
  o.game = file.game();
  o.namer = &namer;
  o.codec = &codec;
  o.localized = file.game() != Game::Oblivion && file.header().is_localized();
  o.default_form_version = common_form_version(file);
  // The plugin's own records by FormID, made on the first question (only layouts that depend on
  // the type of a named record ask).
  struct Types {
    std::once_flag once;
    std::unordered_map<std::uint32_t, Signature> by_id;
  };
  auto types = std::make_shared<Types>();
  o.record_type_of = [types, &file](std::uint32_t form_id) -> std::optional<Signature> {
    std::call_once(types->once, [&] {
      for (const IndexEntry& e : file.entries())
        if (!e.is_group()) types->by_id.emplace(e.id, e.type);
    });
    const auto it = types->by_id.find(form_id);
    if (it == types->by_id.end()) return std::nullopt;
    return it->second;
  };
  return o;
}

fields::FieldCheck check_text_round_trip(const PluginFile& file, const TextNamer& namer, const TextCodec& codec,
                                      unsigned threads, TextCoverage* coverage) {
  const RecordTextOptions shared = record_text_options(file, namer, codec);
  const auto entries = file.entries();
  constexpr std::size_t kChunk = 1024;
  const std::size_t chunks = (entries.size() + kChunk - 1) / kChunk;
  std::mutex lock;
  fields::FieldCheck result;
  run_workers(chunks, thread_count(threads), [&](auto claim) {
    Inflater inflater;
    std::string text;
    fields::FieldCheck part;
    TextCoverage counts;
    RecordTextOptions options = shared;
    options.coverage = coverage ? &counts : nullptr;
    for (std::size_t c = claim(); c < chunks; c = claim()) {
      for (std::size_t i = c * kChunk; i < std::min(entries.size(), (c + 1) * kChunk); ++i) {
        const IndexEntry& e = entries[i];
        if (e.is_group()) continue;
        ++part.total;
        const RecordHeader header = file.record_header(e);
        const auto stored = file.stored_body(e);
        text.clear();
        append_record_text(text, header, stored, options, inflater);
        std::string why;
        if (record_text_reads_back(text, header, stored, options, &why)) {
          ++part.identical;
        } else {
          const ErrorContext where = file.context(e);
          part.failures.push_back({where.record.value_or(RecordRef{header.type, header.form_id, {}}), e.offset, why});
        }
      }
    }
    std::lock_guard guard(lock);
    if (coverage) coverage->add(counts);
    result.total += part.total;
    result.identical += part.identical;
    for (auto& f : part.failures) result.failures.push_back(std::move(f));
  });
  std::ranges::sort(result.failures, {}, &fields::FieldFailure::offset);
  if (coverage)
    std::ranges::sort(coverage->hex_fields, {}, [](const auto& h) {
      return std::pair(h.first.first.str(), h.first.second.str());
    });
  return result;
}

}  // namespace tesmod::text
