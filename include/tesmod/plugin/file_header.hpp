// The decoded TES4 record at the start of every plugin: HEDR, author, description, masters,
// and the Skyrim extras. Strings are kept as stored (code-page bytes); the text layer converts.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace tesmod {

struct MasterFile {
  std::string name;                  // MAST, without its terminator
  std::optional<std::uint64_t> data;  // the DATA that follows it (always 0 in practice)
};

struct FileHeader {
  std::uint32_t flags = 0;  // the TES4 record's flags (ESM, localized, ESL ...)
  float version = 0;        // HEDR: 0.8/1.0 Oblivion, 0.94/1.7 Skyrim, 1.71 Skyrim SE
  std::int32_t record_count = 0;  // HEDR: records and groups, the TES4 record excluded
  std::uint32_t next_object_id = 0;
  std::optional<std::string> author;       // CNAM
  std::optional<std::string> description;  // SNAM
  std::vector<MasterFile> masters;
  std::vector<std::uint32_t> overridden_forms;  // ONAM (Skyrim masters)
  std::optional<std::uint32_t> intv;            // INTV (Skyrim)
  std::optional<std::uint32_t> incc;            // INCC (Skyrim)
  std::vector<Signature> other_fields;  // fields kept but not decoded (OFST, DELE, SCRN ...)

  bool is_master() const;
  bool is_localized() const;  // only meaningful for Skyrim
  bool is_light() const;      // only meaningful for Skyrim SE
  // The HEDR version rounded to two decimals as the tools print it, e.g. "1.70".
  std::string version_text() const;

  // Decodes the fields of a TES4 record. Raises tesmod::Error when HEDR is missing or a known
  // field has the wrong size.
  static FileHeader decode(std::uint32_t flags, std::span<const SubrecordView> fields, const ErrorContext& context);
};

}  // namespace tesmod
