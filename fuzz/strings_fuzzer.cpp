// libFuzzer entry: Skyrim string tables (plugin/strings_file.hpp).
//
// The first byte picks the kind (0 .STRINGS, 1 .DLSTRINGS, 2 .ILSTRINGS); the rest is the table.
//
// Oracle. A table either raises tesmod::Error naming the file and an offset inside it, or parses
// and serializes to the same bytes (an unchanged table keeps its layout). The format allows other
// layouts of the same strings (shared or overlapping data), so the rebuilt form is checked too: the
// same ids and strings set into a new table serialize to a table that parses to the same ids in
// the same order with the same strings, and serializes unchanged.
#include <cstdint>
#include <optional>
#include <vector>

#include "oracle.hpp"
#include "tesmod/error.hpp"
#include "tesmod/plugin/strings_file.hpp"

using namespace tesmod;

namespace {

bool same_strings(const StringsFile& a, const StringsFile& b) {
  if (a.ids() != b.ids()) return false;
  for (std::uint32_t id : a.ids())
    if (a.get(id) != b.get(id)) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const StringsKind kind = StringsKind(data[0] % 3);
  const std::vector<std::uint8_t> bytes(data + 1, data + size);
  const std::string name = "fuzz.STRINGS";
  std::optional<StringsFile> table;
  try {
    table = StringsFile::parse(bytes, kind, name);
  } catch (const Error& e) {
    TESMOD_FUZZ_CHECK(e.file() == name && e.offset() <= bytes.size());  // errors must say where
    return 0;
  }
  TESMOD_FUZZ_CHECK(table->serialize() == bytes);
  StringsFile rebuilt(kind);
  for (std::uint32_t id : table->ids()) rebuilt.set(id, std::string(*table->get(id)));
  const std::vector<std::uint8_t> rebuilt_bytes = rebuilt.serialize();
  const StringsFile reparsed = StringsFile::parse(rebuilt_bytes, kind, name);  // must parse: throws out otherwise
  TESMOD_FUZZ_CHECK(same_strings(*table, reparsed) && same_strings(rebuilt, reparsed));
  TESMOD_FUZZ_CHECK(reparsed.serialize() == rebuilt_bytes);
  return 0;
}
