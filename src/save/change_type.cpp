#include "tesmod/save/change_type.hpp"

#include <array>
#include <string>

namespace tesmod::save {
namespace {

// Oblivion form type codes 0-67 (reference notes, table 4.4); 0 and 2 are not forms.
constexpr std::array<Signature, 68> kTypes = {
    "NONE", "TES4", "GRUP", "GMST", "GLOB", "CLAS", "FACT", "HAIR", "EYES", "RACE", "SOUN", "SKIL",
    "MGEF", "SCPT", "LTEX", "ENCH", "SPEL", "BSGN", "ACTI", "APPA", "ARMO", "BOOK", "CLOT", "CONT",
    "DOOR", "INGR", "LIGH", "MISC", "STAT", "GRAS", "TREE", "FLOR", "FURN", "WEAP", "AMMO", "NPC_",
    "CREA", "LVLC", "SLGM", "KEYM", "ALCH", "SBSP", "SGST", "LVLI", "SNDG", "WTHR", "CLMT", "REGN",
    "CELL", "REFR", "ACHR", "ACRE", "PGRD", "WRLD", "LAND", "TLOD", "ROAD", "DIAL", "INFO", "QUST",
    "IDLE", "PACK", "CSTY", "LSCR", "LVSP", "ANIO", "WATR", "EFSH"};

}  // namespace

Signature change_type_signature(std::uint8_t type) {
  if (type < kTypes.size()) return kTypes[type];
  const std::string digits = std::to_string(type);
  const std::string text = "#" + std::string(3 - digits.size(), '0') + digits;
  Signature s;
  Signature::parse(text, s);
  return s;
}

std::optional<std::uint8_t> change_type_code(Signature type) {
  for (std::size_t i = 0; i < kTypes.size(); ++i)
    if (kTypes[i] == type) return static_cast<std::uint8_t>(i);
  return std::nullopt;
}

}  // namespace tesmod::save
