// Record and group headers: the fixed-size prefix of every record and group.
#pragma once

#include <cstdint>

#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod {

inline constexpr Signature kGroupSignature{"GRUP"};
inline constexpr Signature kHeaderRecord{"TES4"};

struct RecordHeader {
  Signature type;
  std::uint32_t data_size = 0;  // bytes after the header (as stored: compressed size when compressed)
  std::uint32_t flags = 0;
  std::uint32_t form_id = 0;
  std::uint32_t version_control = 0;  // TES4: u32 stamp; TES5: u16 timestamp + u16 VC info
  std::uint16_t form_version = 0;     // TES5 only
  std::uint16_t version_control_2 = 0;  // TES5 only

  // p must hold header_size(game) bytes.
  static RecordHeader read(const std::uint8_t* p, Game game);
  void write(std::uint8_t* p, Game game) const;

  friend bool operator==(const RecordHeader&, const RecordHeader&) = default;
};

struct GroupHeader {
  std::uint32_t size = 0;  // whole group, header included
  std::uint32_t label = 0;
  std::int32_t type = 0;
  std::uint32_t stamp = 0;    // TES4: u32 stamp; TES5: u16 timestamp + u16 VC info
  std::uint32_t unknown = 0;  // TES5 only

  static GroupHeader read(const std::uint8_t* p, Game game);
  void write(std::uint8_t* p, Game game) const;

  friend bool operator==(const GroupHeader&, const GroupHeader&) = default;
};

}  // namespace tesmod
