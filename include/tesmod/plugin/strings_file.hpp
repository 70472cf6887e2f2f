// Skyrim's localized string tables: Strings/<Plugin>_<Language>.STRINGS, .DLSTRINGS and
// .ILSTRINGS beside a plugin whose header has the Localized flag. Their fields then hold u32
// string ids instead of text.
//
// Layout: u32 count, u32 data size, count x {u32 id, u32 offset into data}, then the data.
// A .STRINGS entry is a zero-terminated string; .DLSTRINGS and .ILSTRINGS entries are a u32
// length (terminator included) followed by the zero-terminated string.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tesmod {

enum class StringsKind : std::uint8_t { Strings, DLStrings, ILStrings };

std::string_view strings_extension(StringsKind kind);  // "STRINGS", "DLSTRINGS", "ILSTRINGS"

class StringsFile {
 public:
  explicit StringsFile(StringsKind kind = StringsKind::Strings) : kind_(kind) {}
  // Raises tesmod::Error naming the file and offset when the table is malformed.
  static StringsFile parse(std::span<const std::uint8_t> bytes, StringsKind kind, const std::string& name);
  // The kind is taken from the extension.
  static StringsFile load(const std::filesystem::path& path);

  StringsKind kind() const { return kind_; }
  std::size_t size() const { return order_.size(); }
  // Ids in file order.
  const std::vector<std::uint32_t>& ids() const { return order_; }
  // The string as stored (code-page bytes, no terminator).
  std::optional<std::string_view> get(std::uint32_t id) const;
  void set(std::uint32_t id, std::string text);
  bool erase(std::uint32_t id);

  // Unchanged tables serialize to their original bytes; changed ones are rebuilt with entries in
  // id order of first appearance and identical strings stored once.
  std::vector<std::uint8_t> serialize() const;
  void save(const std::filesystem::path& path) const;

 private:
  StringsKind kind_;
  std::vector<std::uint32_t> order_;
  std::map<std::uint32_t, std::string> strings_;
  std::vector<std::uint8_t> original_;  // empty once modified
};

// The three tables of one plugin and language.
class LocalizedStrings {
 public:
  // Looks for Strings/<base>_<language>.<EXT> beside the plugin (names matched without regard
  // to case, as on Windows). Missing tables are left empty; a malformed one raises tesmod::Error.
  static LocalizedStrings load(const std::filesystem::path& plugin, std::string_view language = "English");

  // The string for an id, looked up first in the table the field uses, then in the others.
  std::optional<std::string_view> lookup(std::uint32_t id, StringsKind preferred = StringsKind::Strings) const;
  StringsFile& table(StringsKind kind) { return tables_[int(kind)]; }
  const StringsFile& table(StringsKind kind) const { return tables_[int(kind)]; }
  // Which tables were found on disk.
  bool found(StringsKind kind) const { return !paths_[int(kind)].empty(); }
  const std::filesystem::path& path(StringsKind kind) const { return paths_[int(kind)]; }

  // Writes the tables (atomically) as Strings/<base>_<language>.<EXT> beside the plugin.
  void save(const std::filesystem::path& plugin, std::string_view language = "English") const;

 private:
  StringsFile tables_[3] = {StringsFile(StringsKind::Strings), StringsFile(StringsKind::DLStrings),
                            StringsFile(StringsKind::ILStrings)};
  std::filesystem::path paths_[3];
};

// Which table a localized field's string id points into, if the field is an lstring in Skyrim
// (FULL and DESC everywhere, plus per-record fields such as INFO NAM1 or BOOK CNAM).
std::optional<StringsKind> lstring_kind(std::string_view record_type, std::string_view field_type);

// A file in dir whose name matches name without regard to case (Windows semantics).
std::optional<std::filesystem::path> find_file_nocase(const std::filesystem::path& dir, std::string_view name);

}  // namespace tesmod
