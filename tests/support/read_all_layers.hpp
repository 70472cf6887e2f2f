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

}  // namespace tesmod::test
