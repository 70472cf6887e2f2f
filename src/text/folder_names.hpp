// File and folder names of an exported plugin: safe on every file system (no reserved
// characters or names, no trailing dots or blanks, bounded length) and unique within their
// folder even where names are compared without regard to case.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace tesmod::text::detail {

// An EditorID (code-page bytes) as part of a file name: ASCII letters, digits and a few marks
// kept, everything else '_', at most 64 characters.
std::string safe_name_part(std::string_view editor_id);

// `EditorID [0001ABCD]`, or `[0001ABCD]` when the record has no EditorID.
std::string record_stem(std::string_view editor_id, std::uint32_t form_id);

// The names given out in one folder, compared without regard to case.
class FolderNames {
 public:
  // name, or `stem (2)` + extension, `stem (3)` ... when it is taken.
  std::string claim(std::string_view stem, std::string_view extension);

 private:
  std::set<std::string> taken_;  // lower case
};

}  // namespace tesmod::text::detail
