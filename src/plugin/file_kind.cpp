#include "tesmod/plugin/file_kind.hpp"

#include <cstring>
#include <fstream>

namespace tesmod {
namespace {

bool starts_with(std::span<const std::uint8_t> bytes, std::string_view magic, std::size_t at = 0) {
  return bytes.size() >= at + magic.size() && std::memcmp(bytes.data() + at, magic.data(), magic.size()) == 0;
}

}  // namespace

FileKind file_kind(std::span<const std::uint8_t> start) {
  if (starts_with(start, "TES4SAVEGAME")) return FileKind::OblivionSave;
  if (starts_with(start, "TESV_SAVEGAME")) return FileKind::SkyrimSave;
  // Unreal's SaveGame container (Oblivion Remastered's .sav wraps the game state in it).
  if (starts_with(start, "GVAS")) return FileKind::UnrealSave;
  // Oblivion's record header is 20 bytes, Skyrim's 24: HEDR follows it.
  if (starts_with(start, "TES4") && (starts_with(start, "HEDR", 20) || starts_with(start, "HEDR", 24)))
    return FileKind::Plugin;
  return FileKind::Unknown;
}

FileKind file_kind(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::uint8_t start[28] = {};
  in.read(reinterpret_cast<char*>(start), sizeof start);
  return file_kind(std::span<const std::uint8_t>(start, std::size_t(in.gcount())));
}

std::string_view file_kind_text(FileKind kind) {
  switch (kind) {
    case FileKind::Plugin: return "a plugin";
    case FileKind::OblivionSave: return "an Oblivion save";
    case FileKind::SkyrimSave: return "a Skyrim save";
    case FileKind::UnrealSave: return "an Oblivion Remastered (Unreal GVAS) save";
    case FileKind::Unknown: break;
  }
  return "not a game file tesmod knows";
}

}  // namespace tesmod
