#include "tesmod/text/text_check.hpp"

#include <algorithm>
#include <mutex>

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
  return o;
}

fields::FieldCheck check_text_round_trip(const PluginFile& file, const TextNamer& namer, const TextCodec& codec,
                                      unsigned threads) {
  const RecordTextOptions options = record_text_options(file, namer, codec);
  const auto entries = file.entries();
  constexpr std::size_t kChunk = 1024;
  const std::size_t chunks = (entries.size() + kChunk - 1) / kChunk;
  std::mutex lock;
  fields::FieldCheck result;
  run_workers(chunks, thread_count(threads), [&](auto claim) {
    Inflater inflater;
    std::string text;
    fields::FieldCheck part;
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
    result.total += part.total;
    result.identical += part.identical;
    for (auto& f : part.failures) result.failures.push_back(std::move(f));
  });
  std::ranges::sort(result.failures, {}, &fields::FieldFailure::offset);
  return result;
}

}  // namespace tesmod::text
