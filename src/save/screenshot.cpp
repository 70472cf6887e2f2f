#include "tesmod/save/screenshot.hpp"

#include <png.h>

#include <fmt/format.h>

#include <cstring>

#include "tesmod/io/atomic_file.hpp"

namespace tesmod::save {

std::vector<std::uint8_t> screenshot_png(const SaveFile& save) {
  const Screenshot& shot = save.header.screenshot;
  if (shot.width == 0 || shot.height == 0)
    throw Error(save.name(), Error::kNoOffset, std::nullopt,
                fmt::format("the save's screenshot is {}x{}: there is no image to write", shot.width, shot.height));
  if (std::uint64_t(shot.width) * shot.height * 3 != shot.pixels.size())
    throw Error(save.name(), Error::kNoOffset, std::nullopt,
                fmt::format("the screenshot's {} pixel bytes do not fill {}x{} RGB", shot.pixels.size(), shot.width,
                            shot.height));
  // The simplified libpng API reports errors through the image instead of longjmp.
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = shot.width;
  image.height = shot.height;
  image.format = PNG_FORMAT_RGB;
  png_alloc_size_t size = 0;
  const auto fail = [&] {
    const std::string message = image.message;
    png_image_free(&image);
    throw Error(save.name(), Error::kNoOffset, std::nullopt, "libpng cannot write the screenshot: " + message);
  };
  if (!png_image_write_to_memory(&image, nullptr, &size, 0, shot.pixels.data(), 0, nullptr)) fail();
  std::vector<std::uint8_t> png(size);
  if (!png_image_write_to_memory(&image, png.data(), &size, 0, shot.pixels.data(), 0, nullptr)) fail();
  png.resize(size);
  return png;
}

void write_screenshot_png(const SaveFile& save, const std::filesystem::path& path) {
  write_file_atomic(path, screenshot_png(save));
}

}  // namespace tesmod::save
