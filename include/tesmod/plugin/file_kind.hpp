// What kind of game file a file is, from its first bytes: so that a save given where a plugin is
// expected (or the other way round) is named as what it is, not reported as a damaged plugin.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>

namespace tesmod {

enum class FileKind : std::uint8_t {
  Plugin,         // TES4 with HEDR as its first field (Oblivion or Skyrim)
  OblivionSave,   // TES4SAVEGAME
  SkyrimSave,     // TESV_SAVEGAME (Skyrim LE and SE)
  UnrealSave,     // GVAS: an Unreal Engine save, as Oblivion Remastered writes (.sav; tesmod does not read it)
  Unknown,
};

FileKind file_kind(std::span<const std::uint8_t> start);
// Reads the first bytes of the file; Unknown when it cannot be read.
FileKind file_kind(const std::filesystem::path& path);

// "an Oblivion save", "a Skyrim save", "an Oblivion Remastered (Unreal GVAS) save", "a plugin",
// "not a game file tesmod knows".
std::string_view file_kind_text(FileKind kind);

}  // namespace tesmod
