// Opening the file a command reads: a save given to a plugin command, or a plugin to a save
// command, is named as what it is, with the command that reads it.
#include <fmt/format.h>

#include "commands.hpp"
#include "tesmod/error.hpp"
#include "tesmod/plugin/file_kind.hpp"

namespace tesmod::cli {

void expect_plugin(const std::string& path) {
  switch (file_kind(path)) {
    case FileKind::OblivionSave:
      throw Error(path, Error::kNoOffset, std::nullopt,
                  "this is an Oblivion save, not a plugin: use tesmod save info (or save npc, save edit)");
    case FileKind::SkyrimSave:
      throw Error(path, Error::kNoOffset, std::nullopt,
                  "this is a Skyrim save, not a plugin (and only Oblivion saves are supported)");
    case FileKind::UnrealSave:
      throw Error(path, Error::kNoOffset, std::nullopt,
                  "this is an Oblivion Remastered (Unreal GVAS) save, not a plugin (and tesmod does not read those)");
    default: return;
  }
}

PluginFile open_plugin(const std::string& path, const OpenOptions& options) {
  expect_plugin(path);
  return PluginFile::open(path, options);
}

save::SaveFile open_save(const std::string& path) {
  switch (file_kind(path)) {
    case FileKind::SkyrimSave:
      throw Error(path, Error::kNoOffset, std::nullopt,
                  "this is a Skyrim save: only Oblivion saves are supported (Skyrim saves are not)");
    case FileKind::UnrealSave:
      throw Error(path, Error::kNoOffset, std::nullopt,
                  "this is an Oblivion Remastered (Unreal GVAS) save, which tesmod does not read: only Oblivion's "
                  ".ess saves are supported");
    case FileKind::Plugin:
      throw Error(path, Error::kNoOffset, std::nullopt, "this is a plugin, not a save: use tesmod info");
    default: return save::SaveFile::open(path);
  }
}

}  // namespace tesmod::cli
