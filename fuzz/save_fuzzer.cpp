// libFuzzer entry: Oblivion saves (.ess) and the NPC_/CREA change records in them.
//
// Oracle. An input that starts with TES4SAVEGAME is a whole save: it either parses or raises
// tesmod::Error with a file offset; a parsed save writes back byte for byte; every NPC_/CREA
// change record either decodes or raises an Error with an offset, and a decoded one encodes to
// its data again, calls for the record's flags, and, put back as edited data, leaves the written
// save unchanged. Any other input is one actor change record alone (u32 flags, then its data),
// held to the same decode/encode identity: real saves are megabytes, so most mutations of a whole
// save never reach the records; this form fuzzes their decoder directly.
#include <cstdint>
#include <optional>
#include <vector>

#include "oracle.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/file_bytes.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/save/actor_change.hpp"
#include "tesmod/save/change_type.hpp"
#include "tesmod/save/save_file.hpp"

using namespace tesmod;
using namespace tesmod::save;

namespace {

// Decodes one actor change record's data; fails the oracle unless it is an Error with an offset or
// encodes back to the same bytes and flags. Returns the model when it decoded.
std::optional<ActorChange> check_actor_change(std::span<const std::uint8_t> data, std::uint32_t flags,
                                              const ErrorContext& where, std::uint64_t data_offset) {
  std::optional<ActorChange> change;
  try {
    change = decode_actor_change(data, flags, where, data_offset);
  } catch (const Error& e) {
    TESMOD_FUZZ_CHECK(e.offset() != Error::kNoOffset);  // errors about input must say where
    return std::nullopt;
  }
  const std::vector<std::uint8_t> encoded = encode_actor_change(*change);
  TESMOD_FUZZ_CHECK(std::equal(encoded.begin(), encoded.end(), data.begin(), data.end()));
  TESMOD_FUZZ_CHECK(change->flags() == flags);  // the blocks must call for the flags they came from
  return change;
}

void fuzz_save(const std::vector<std::uint8_t>& bytes) {
  std::optional<SaveFile> save;
  try {
    save.emplace(SaveFile::parse(FileBytes::hold(bytes, "fuzz.ess")));
  } catch (const Error& e) {
    TESMOD_FUZZ_CHECK(e.offset() != Error::kNoOffset);
    return;
  }
  TESMOD_FUZZ_CHECK(save->to_bytes() == bytes);  // parsed, so written back as read
  bool any_actor = false;
  for (ChangeRecord& record : save->change_records) {
    if (!is_actor_change_type(record.type)) continue;
    const ErrorContext where{save->name(), record.offset, record.ref()};
    const auto change = check_actor_change(record.data(), record.flags, where, record.data_offset());
    if (!change) continue;
    // The edit path: the same data as an edited record must not change the written save.
    record.set_data(encode_actor_change(*change), save->name());
    any_actor = true;
  }
  if (any_actor) TESMOD_FUZZ_CHECK(save->to_bytes() == bytes);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> input(data, size);
  if (looks_like_save(input)) {
    fuzz_save(std::vector<std::uint8_t>(data, data + size));
    return 0;
  }
  if (size < 4) return 0;
  const ErrorContext where{"fuzz actor change", Error::kNoOffset, RecordRef{Signature("NPC_"), 7, {}}};
  check_actor_change(input.subspan(4), le::u32(data), where, 4);
  return 0;
}
