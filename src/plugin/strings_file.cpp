#include "tesmod/plugin/strings_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "tesmod/error.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/counted.hpp"
#include "tesmod/io/file_bytes.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod {

std::string_view strings_extension(StringsKind kind) {
  switch (kind) {
    case StringsKind::Strings: return "STRINGS";
    case StringsKind::DLStrings: return "DLSTRINGS";
    case StringsKind::ILStrings: return "ILSTRINGS";
  }
  return "STRINGS";
}

StringsFile StringsFile::parse(std::span<const std::uint8_t> bytes, StringsKind kind, const std::string& name) {
  auto fail = [&](std::uint64_t at, const std::string& what) { throw Error(name, at, std::nullopt, what); };
  if (bytes.size() < 8) fail(0, fmt::format("{}; expected at least the 8-byte string table header", counted(bytes.size(), "byte")));
  const std::uint32_t count = le::u32(bytes.data());
  const std::uint32_t data_size = le::u32(bytes.data() + 4);
  const std::uint64_t directory_end = 8 + std::uint64_t(count) * 8;
  if (directory_end > bytes.size()) {
    fail(0, fmt::format("string table lists {} entries, needing {} bytes of directory; the file has {}", count,
                        directory_end, bytes.size()));
  }
  if (directory_end + data_size != bytes.size()) {
    fail(4, fmt::format("string data size {} does not match the file: expected {} bytes after the directory",
                        data_size, bytes.size() - directory_end));
  }
  const std::uint8_t* data = bytes.data() + directory_end;
  StringsFile out(kind);
  out.order_.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t at = 8 + std::uint64_t(i) * 8;
    const std::uint32_t id = le::u32(bytes.data() + at);
    const std::uint32_t offset = le::u32(bytes.data() + at + 4);
    if (offset >= data_size) {
      fail(at + 4, fmt::format("string id {} points at offset {} past the {}-byte string data", id, offset, data_size));
    }
    const std::uint8_t* s = data + offset;
    std::size_t left = data_size - offset;
    std::size_t len;
    if (kind == StringsKind::Strings) {
      const void* nul = std::memchr(s, 0, left);
      if (!nul) fail(directory_end + offset, fmt::format("string id {} has no terminating zero before the end of the file", id));
      len = std::size_t(static_cast<const std::uint8_t*>(nul) - s);
    } else {
      if (left < 4) fail(directory_end + offset, fmt::format("string id {}: expected a 4-byte length", id));
      const std::uint32_t n = le::u32(s);
      if (n == 0 || n > left - 4) {
        fail(directory_end + offset,
             fmt::format("string id {} has length {}; expected 1 to {} (the terminator counted)", id, n, left - 4));
      }
      s += 4;
      len = n - 1;  // the stored length counts the terminator
      if (s[len] != 0) {
        fail(directory_end + offset, fmt::format("string id {} of length {} does not end with a zero", id, n));
      }
    }
    if (!out.strings_.emplace(id, std::string(reinterpret_cast<const char*>(s), len)).second) {
      fail(at, fmt::format("string id {} appears twice in the table", id));
    }
    out.order_.push_back(id);
  }
  out.original_.assign(bytes.begin(), bytes.end());
  return out;
}

StringsFile StringsFile::load(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  if (!ext.empty()) ext.erase(0, 1);
  StringsKind kind;
  if (ascii::iequals(ext, "STRINGS")) kind = StringsKind::Strings;
  else if (ascii::iequals(ext, "DLSTRINGS")) kind = StringsKind::DLStrings;
  else if (ascii::iequals(ext, "ILSTRINGS")) kind = StringsKind::ILStrings;
  else throw Error(path.string(), Error::kNoOffset, std::nullopt, "expected a .STRINGS, .DLSTRINGS or .ILSTRINGS file");
  auto bytes = FileBytes::map(path);
  return parse(bytes->span(), kind, path.string());
}

std::optional<std::string_view> StringsFile::get(std::uint32_t id) const {
  auto it = strings_.find(id);
  if (it == strings_.end()) return std::nullopt;
  return std::string_view(it->second);
}

void StringsFile::set(std::uint32_t id, std::string text) {
  auto [it, added] = strings_.insert_or_assign(id, std::move(text));
  if (added) order_.push_back(id);
  original_.clear();
}

bool StringsFile::erase(std::uint32_t id) {
  if (!strings_.erase(id)) return false;
  std::erase(order_, id);
  original_.clear();
  return true;
}

std::vector<std::uint8_t> StringsFile::serialize() const {
  if (!original_.empty()) return original_;
  std::vector<std::uint8_t> data;
  std::vector<std::uint32_t> offsets;
  std::unordered_map<std::string_view, std::uint32_t> placed;
  for (std::uint32_t id : order_) {
    const std::string& s = strings_.at(id);
    auto [it, fresh] = placed.emplace(s, std::uint32_t(data.size()));
    offsets.push_back(it->second);
    if (!fresh) continue;
    if (kind_ != StringsKind::Strings) {
      std::uint8_t n[4];
      le::store(n, std::uint32_t(s.size() + 1));
      data.insert(data.end(), n, n + 4);
    }
    data.insert(data.end(), s.begin(), s.end());
    data.push_back(0);
  }
  std::vector<std::uint8_t> out(8 + order_.size() * 8);
  le::store(out.data(), std::uint32_t(order_.size()));
  le::store(out.data() + 4, std::uint32_t(data.size()));
  for (std::size_t i = 0; i < order_.size(); ++i) {
    le::store(out.data() + 8 + i * 8, order_[i]);
    le::store(out.data() + 12 + i * 8, offsets[i]);
  }
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

void StringsFile::save(const std::filesystem::path& path) const { write_file_atomic(path, serialize()); }

std::optional<std::filesystem::path> find_file_nocase(const std::filesystem::path& dir, std::string_view name) {
  std::error_code ec;
  if (std::filesystem::exists(dir / name, ec)) return dir / name;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (ascii::iequals(entry.path().filename().string(), name)) return entry.path();
  }
  return std::nullopt;
}

LocalizedStrings LocalizedStrings::load(const std::filesystem::path& plugin, std::string_view language) {
  LocalizedStrings out;
  std::filesystem::path dir = plugin.parent_path();
  if (dir.empty()) dir = ".";
  auto strings_dir = find_file_nocase(dir, "Strings");
  if (!strings_dir) return out;
  const std::string base = plugin.stem().string();
  for (StringsKind kind : {StringsKind::Strings, StringsKind::DLStrings, StringsKind::ILStrings}) {
    const std::string file = fmt::format("{}_{}.{}", base, language, strings_extension(kind));
    if (auto path = find_file_nocase(*strings_dir, file)) {
      out.tables_[int(kind)] = StringsFile::load(*path);
      out.paths_[int(kind)] = *path;
    }
  }
  return out;
}

std::optional<std::string_view> LocalizedStrings::lookup(std::uint32_t id, StringsKind preferred) const {
  if (auto s = tables_[int(preferred)].get(id)) return s;
  for (const StringsFile& t : tables_)
    if (auto s = t.get(id)) return s;
  return std::nullopt;
}

void LocalizedStrings::save(const std::filesystem::path& plugin, std::string_view language) const {
  std::filesystem::path dir = plugin.parent_path();
  if (dir.empty()) dir = ".";
  std::filesystem::path strings_dir = find_file_nocase(dir, "Strings").value_or(dir / "Strings");
  std::filesystem::create_directories(strings_dir);
  const std::string base = plugin.stem().string();
  for (StringsKind kind : {StringsKind::Strings, StringsKind::DLStrings, StringsKind::ILStrings}) {
    const std::string file = fmt::format("{}_{}.{}", base, language, strings_extension(kind));
    tables_[int(kind)].save(find_file_nocase(strings_dir, file).value_or(strings_dir / file));
  }
}

}  // namespace tesmod
