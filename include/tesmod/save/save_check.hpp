// The check behind `tesmod verify --deep` for a save: the whole file written back and compared
// with the input, and every NPC_ and CREA change record decoded and encoded again.
#pragma once

#include <cstdint>
#include <filesystem>

#include "tesmod/fields/field_check.hpp"
#include "tesmod/save/save_file.hpp"

namespace tesmod::save {

struct SaveCheck {
  bool identical = false;              // the whole file written back byte for byte
  std::uint64_t written = 0;           // bytes the writer produced
  std::uint64_t first_difference = 0;  // when not identical
  // save_change_records: NPC_ and CREA change records whose data decodes and encodes identically.
  fields::FieldCheck change_records;
};

SaveCheck check_save(const SaveFile& save);
// Opens and checks; a save that does not parse throws tesmod::Error.
SaveCheck check_save(const std::filesystem::path& path);

// True when the file starts like an Oblivion save (TES4SAVEGAME); false when it cannot be read.
bool is_save_file(const std::filesystem::path& path);

}  // namespace tesmod::save
