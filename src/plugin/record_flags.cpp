#include "tesmod/plugin/record_flags.hpp"

#include <fmt/format.h>

#include "tesmod/plugin/record_header.hpp"

namespace tesmod::record_flags {

std::vector<std::string> names(Signature record_type, std::uint32_t flags, Game game) {
  std::vector<std::string> out;
  const bool header = record_type == kHeaderRecord;
  for (int bit = 0; bit < 32; ++bit) {
    const std::uint32_t v = std::uint32_t{1} << bit;
    if (!(flags & v)) continue;
    const char* name = nullptr;
    if (header) {
      switch (v) {
        case kMaster: name = "ESM"; break;
        case kLocalized: name = game == Game::Oblivion ? nullptr : "Localized"; break;
        case kLight: name = game == Game::SkyrimSE ? "ESL" : nullptr; break;
        default: break;
      }
    } else {
      switch (v) {
        case kDeleted: name = "Deleted"; break;
        case kPersistent: name = "Persistent"; break;
        case kInitiallyDisabled: name = "InitiallyDisabled"; break;
        case kIgnored: name = "Ignored"; break;
        case kVisibleWhenDistant: name = "VisibleWhenDistant"; break;
        case kCompressed: name = "Compressed"; break;
        default: break;
      }
    }
    out.push_back(name ? std::string(name) : fmt::format("0x{:08X}", v));
  }
  return out;
}

}  // namespace tesmod::record_flags
