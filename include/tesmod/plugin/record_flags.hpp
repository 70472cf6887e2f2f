// Record header flags. Most bits mean different things per record type; the ones every tool
// needs are named here, and flag_names() lists the set bits of a header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod::record_flags {

// On the TES4 file header record.
inline constexpr std::uint32_t kMaster = 0x00000001;     // ESM
inline constexpr std::uint32_t kLocalized = 0x00000080;  // Skyrim: lstrings are string ids
inline constexpr std::uint32_t kLight = 0x00000200;      // Skyrim SE: ESL

// On ordinary records.
inline constexpr std::uint32_t kDeleted = 0x00000020;
inline constexpr std::uint32_t kPersistent = 0x00000400;
inline constexpr std::uint32_t kInitiallyDisabled = 0x00000800;
inline constexpr std::uint32_t kIgnored = 0x00001000;
inline constexpr std::uint32_t kVisibleWhenDistant = 0x00008000;
inline constexpr std::uint32_t kCompressed = 0x00040000;

// Names of the set bits, e.g. {"Deleted", "Compressed"}; bits without a general meaning are
// named by value ("0x00000100").
std::vector<std::string> names(Signature record_type, std::uint32_t flags, Game game);

}  // namespace tesmod::record_flags
