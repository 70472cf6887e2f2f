#include "tesmod/text/text_check.hpp"

#include <algorithm>
#include <bit>
#include <memory>
#include <mutex>
#include <vector>

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
  // the type of a named record ask, but those ask for every reference of a master: one open-
  // addressed table of ids and types, a cache miss per question). The first record of an id wins.
  struct Types {
    std::once_flag once;
    struct Slot {
      std::uint32_t id = 0;
      Signature type;  // none: an empty slot
    };
    std::vector<Slot> slots;
  };
  const auto owned = std::make_shared<Types>();
  o.record_types = owned;
  o.record_type_of = [types = owned.get(), file = &file](std::uint32_t form_id) -> std::optional<Signature> {
    static constexpr auto kStart = [](std::uint32_t id, std::size_t mask) { return std::size_t(id * 0x9E3779B1u) & mask; };
    std::call_once(types->once, [&] {
      std::size_t records = 0;
      for (const IndexEntry& e : file->entries()) records += !e.is_group();
      types->slots.resize(std::bit_ceil(2 * records + 2));
      const std::size_t mask = types->slots.size() - 1;
      for (const IndexEntry& e : file->entries()) {
        if (e.is_group() || e.type == Signature()) continue;  // a record of no type names no layout's type
        for (std::size_t at = kStart(e.id, mask);; at = (at + 1) & mask) {
          Types::Slot& slot = types->slots[at];
          if (slot.type == Signature()) {
            slot = {e.id, e.type};
            break;
          }
          if (slot.id == e.id) break;
        }
      }
    });
    const std::size_t mask = types->slots.size() - 1;
    for (std::size_t at = kStart(form_id, mask);; at = (at + 1) & mask) {
      const Types::Slot& slot = types->slots[at];
      if (slot.type == Signature()) return std::nullopt;
      if (slot.id == form_id) return slot.type;
    }
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
