#include "tesmod/plugin/record_header.hpp"

#include "tesmod/io/little_endian.hpp"

namespace tesmod {

RecordHeader RecordHeader::read(const std::uint8_t* p, Game game) {
  RecordHeader h;
  h.type = Signature::from_bytes(p);
  h.data_size = le::u32(p + 4);
  h.flags = le::u32(p + 8);
  h.form_id = le::u32(p + 12);
  h.version_control = le::u32(p + 16);
  if (game != Game::Oblivion) {
    h.form_version = le::u16(p + 20);
    h.version_control_2 = le::u16(p + 22);
  }
  return h;
}

void RecordHeader::write(std::uint8_t* p, Game game) const {
  le::store(p, type.value());
  le::store(p + 4, data_size);
  le::store(p + 8, flags);
  le::store(p + 12, form_id);
  le::store(p + 16, version_control);
  if (game != Game::Oblivion) {
    le::store(p + 20, form_version);
    le::store(p + 22, version_control_2);
  }
}

GroupHeader GroupHeader::read(const std::uint8_t* p, Game game) {
  GroupHeader h;
  h.size = le::u32(p + 4);
  h.label = le::u32(p + 8);
  h.type = le::i32(p + 12);
  h.stamp = le::u32(p + 16);
  if (game != Game::Oblivion) h.unknown = le::u32(p + 20);
  return h;
}

void GroupHeader::write(std::uint8_t* p, Game game) const {
  le::store(p, kGroupSignature.value());
  le::store(p + 4, size);
  le::store(p + 8, label);
  le::store(p + 12, type);
  le::store(p + 16, stamp);
  if (game != Game::Oblivion) le::store(p + 20, unknown);
}

}  // namespace tesmod
