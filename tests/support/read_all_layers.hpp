// Reads plugin bytes through every layer — index with every subrecord and inflate, editable
// model, writer, EditorID index, text and JSON dump — as the robustness test and the fuzzer
// both do. Raises tesmod::Error for input it rejects.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tesmod::test {

struct LayersResult {
  bool written_back_identically = false;
  std::uint64_t first_difference = 0;
};

// form_id: the record to dump (0 dumps only the file header record and its groups, if any).
LayersResult read_all_layers(const std::vector<std::uint8_t>& bytes, const std::string& name, std::uint32_t form_id,
                             unsigned threads);

// Opens the bytes as a PluginOutline and reads every top-level group, comparing with a full
// open: the same entries when the full open succeeds; a failure somewhere when it fails, with
// the full open's message when the outline's top level is sound (the groups are read in file
// order, so the first damage found is the full open's). Returns what disagrees, or "".
std::string outline_disagreement(const std::vector<std::uint8_t>& bytes, const std::string& name);

}  // namespace tesmod::test
