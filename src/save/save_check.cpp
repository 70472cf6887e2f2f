#include "tesmod/save/save_check.hpp"

#include <fmt/format.h>

#include <fstream>

#include "tesmod/save/actor_change.hpp"
#include "tesmod/save/change_type.hpp"

namespace tesmod::save {

SaveCheck check_save(const SaveFile& save) {
  SaveCheck out;
  CompareSink compare(save.input());
  save.write(compare);
  out.identical = compare.identical();
  out.written = compare.position();
  if (!out.identical) out.first_difference = compare.first_difference();

  for (const ChangeRecord& c : save.change_records) {
    if (!is_actor_change_type(c.type)) continue;
    ++out.change_records.total;
    try {
      const ActorChange change = decode_actor_change(c, save.name());
      const std::vector<std::uint8_t> again = encode_actor_change(change);
      const auto data = c.data();
      if (change.flags() == c.flags && std::equal(again.begin(), again.end(), data.begin(), data.end())) {
        ++out.change_records.identical;
        continue;
      }
      std::size_t at = 0;
      while (at < again.size() && at < data.size() && again[at] == data[at]) ++at;
      out.change_records.failures.push_back(
          {c.ref(), c.data_offset() == Error::kNoOffset ? Error::kNoOffset : c.data_offset() + at,
           change.flags() != c.flags ? fmt::format("flags 0x{:08X} encode as 0x{:08X}", c.flags, change.flags())
                                     : fmt::format("re-encoded data differs at byte {} of {}", at, data.size())});
    } catch (const Error& e) {
      out.change_records.failures.push_back({c.ref(), e.offset(), e.detail()});
    }
  }
  return out;
}

SaveCheck check_save(const std::filesystem::path& path) { return check_save(SaveFile::open(path)); }

bool is_save_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[kSaveMagic.size()] = {};
  if (!in.read(magic, sizeof magic)) return false;
  return std::string_view(magic, sizeof magic) == kSaveMagic;
}

}  // namespace tesmod::save
