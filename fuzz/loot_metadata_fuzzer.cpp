// libFuzzer entry: LOOT metadata text (patch/loot_metadata.hpp) and condition strings.
//
// The input is read as a masterlist. Oracle: reading either throws tesmod::Error (naming the file)
// or gives plugin entries every condition of which parses (loot_condition_error is empty); the
// tags for a few plugin names are then decided against fixed facts without throwing, each
// decision applying or not, skipped ones with a reason. The input is also evaluated as one
// condition string: a parse error and a skip come together, and version comparison is antisymmetric.
#include <cstdint>
#include <string>
#include <string_view>

#include "oracle.hpp"
#include "tesmod/error.hpp"
#include "tesmod/patch/loot_metadata.hpp"

using namespace tesmod;
using namespace tesmod::patch;

namespace {

LootFacts facts() {
  LootFacts f;
  f.file_exists = [](std::string_view p) { return p.size() % 2 == 0; };
  f.files_matching = [](std::string_view) { return std::vector<std::string>{"A.esp", "B.esm"}; };
  f.active = [](std::string_view p) { return !p.empty() && p[0] == 'A'; };
  f.active_plugins = [] { return std::vector<std::string>{"A.esp"}; };
  f.is_master = [](std::string_view p) { return p.size() > 3 && p.substr(p.size() - 3) == "esm"; };
  f.crc32 = [](std::string_view p) -> std::optional<std::uint32_t> { return std::uint32_t(p.size() * 2654435761u); };
  f.version = [](std::string_view p) -> std::optional<std::string> {
    if (p.size() % 3 == 0) return std::nullopt;
    return std::string(p.substr(0, p.size() % 5));
  };
  f.description = [](std::string_view p) -> std::optional<std::string> { return "Version: " + std::string(p); };
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const LootFacts f = facts();
  try {
    const LootMetadata m = parse_loot_metadata(text, "masterlist.yaml", LootFile::Masterlist);
    for (const LootPluginEntry& e : m.plugins)
      for (const LootTag& t : e.tags)
        if (t.condition) TESMOD_FUZZ_CHECK(loot_condition_error(*t.condition).empty());
    const std::vector<const LootMetadata*> files{&m};
    for (const char* name : {"A.esp", "Unofficial Skyrim Patch.esp", "b.ESM"})
      for (const LootTagDecision& d : loot_tags_for(name, files, f))
        TESMOD_FUZZ_CHECK(d.skipped.empty() || !d.applies);
  } catch (const Error& e) {
    TESMOD_FUZZ_CHECK(e.file() == "masterlist.yaml");
  }
  const LootConditionResult r = evaluate_loot_condition(text, f);
  if (!loot_condition_error(text).empty()) TESMOD_FUZZ_CHECK(!r.skipped.empty() && !r.holds);
  const std::size_t half = size / 2;
  const std::string_view a = text.substr(0, half), b = text.substr(half);
  const auto sign = [](int v) { return (v > 0) - (v < 0); };
  TESMOD_FUZZ_CHECK(sign(compare_loot_versions(a, b)) == -sign(compare_loot_versions(b, a)));
  return 0;
}
