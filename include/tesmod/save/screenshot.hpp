// The screenshot of a save as a PNG image (8-bit RGB, written with libpng).
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "tesmod/save/save_file.hpp"

namespace tesmod::save {

// Throws tesmod::Error (naming the save) when the screenshot is empty or libpng fails.
std::vector<std::uint8_t> screenshot_png(const SaveFile& save);
// Writes screenshot_png() to path atomically.
void write_screenshot_png(const SaveFile& save, const std::filesystem::path& path);

}  // namespace tesmod::save
