// Small plugins made to order for the load-order tests: header flags, HEDR version, masters and
// records chosen, written through the library's editable model.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tesmod/plugin/field.hpp"
#include "tesmod/plugin/game.hpp"

namespace tesmod::test {

struct TestRecord {
  TestRecord(Signature type_, std::uint32_t form_id_, std::vector<Field> fields_ = {}, std::uint32_t flags_ = 0,
             std::optional<std::uint16_t> form_version_ = {})
      : type(type_), form_id(form_id_), fields(std::move(fields_)), flags(flags_), form_version(form_version_) {}
  Signature type;
  std::uint32_t form_id = 0;
  std::vector<Field> fields;
  std::uint32_t flags = 0;
  std::optional<std::uint16_t> form_version;  // Skyrim; default 44 (SE) or 43 (LE)
  std::uint32_t version_control = 0;
};

struct TestPlugin {
  Game game = Game::SkyrimSE;
  std::uint32_t header_flags = 0;
  std::vector<std::string> masters;
  std::vector<TestRecord> records;
  std::optional<float> hedr;  // default: what the library writes for the game
  std::optional<std::string> description;  // SNAM (where Bash Tags are written)
  // Placed references (REFR, ACHR ...) go into the temporary children of an interior cell with
  // this FormID, made for them (default: the plugin's own object 0x900).
  std::optional<std::uint32_t> cell;
};

// A Skyrim SE plugin with these masters, records, HEDR version and header flags.
TestPlugin skyrim_se_plugin(std::vector<std::string> masters, std::vector<TestRecord> records, float hedr = 1.7f,
                            std::uint32_t flags = 0);

std::vector<std::uint8_t> make_plugin(const TestPlugin& plugin);
// Writes the plugin; mtime (seconds since the epoch) sets the file's modification time.
void write_plugin(const std::filesystem::path& path, const TestPlugin& plugin, std::optional<std::int64_t> mtime = {});
void set_mtime(const std::filesystem::path& path, std::int64_t seconds);
void write_text(const std::filesystem::path& path, std::string_view text);

}  // namespace tesmod::test
