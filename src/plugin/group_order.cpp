#include "tesmod/plugin/group_order.hpp"

#include <algorithm>

namespace tesmod {
namespace {

// The order of Oblivion.esm's top-level groups.
constexpr Signature kOblivion[] = {
    "GMST", "GLOB", "CLAS", "FACT", "HAIR", "EYES", "RACE", "SOUN", "SKIL", "MGEF", "SCPT", "LTEX", "ENCH", "SPEL",
    "BSGN", "ACTI", "APPA", "ARMO", "BOOK", "CLOT", "CONT", "DOOR", "INGR", "LIGH", "MISC", "STAT", "GRAS", "TREE",
    "FLOR", "FURN", "WEAP", "AMMO", "NPC_", "CREA", "LVLC", "SLGM", "KEYM", "ALCH", "SBSP", "SGST", "LVLI", "WTHR",
    "CLMT", "REGN", "CELL", "WRLD", "DIAL", "QUST", "IDLE", "PACK", "CSTY", "LSCR", "LVSP", "ANIO", "WATR", "EFSH"};

// The order of Skyrim.esm's top-level groups (Skyrim SE adds VOLI and LENS).
constexpr Signature kSkyrim[] = {
    "GMST", "KYWD", "LCRT", "AACT", "TXST", "GLOB", "CLAS", "FACT", "HDPT", "HAIR", "EYES", "RACE", "SOUN", "ASPC",
    "MGEF", "SCPT", "LTEX", "ENCH", "SPEL", "SCRL", "ACTI", "TACT", "ARMO", "BOOK", "CONT", "DOOR", "INGR", "LIGH",
    "MISC", "APPA", "STAT", "SCOL", "MSTT", "PWAT", "GRAS", "TREE", "CLDC", "FLOR", "FURN", "WEAP", "AMMO", "NPC_",
    "LVLN", "KEYM", "ALCH", "IDLM", "COBJ", "PROJ", "HAZD", "SLGM", "LVLI", "WTHR", "CLMT", "SPGD", "RFCT", "REGN",
    "NAVI", "CELL", "WRLD", "DIAL", "QUST", "IDLE", "PACK", "CSTY", "LSCR", "LVSP", "ANIO", "WATR", "EFSH", "EXPL",
    "DEBR", "IMGS", "IMAD", "FLST", "PERK", "BPTD", "ADDN", "AVIF", "CAMS", "CPTH", "VTYP", "MATT", "IPCT", "IPDS",
    "ARMA", "ECZN", "LCTN", "MESG", "RGDL", "DOBJ", "LGTM", "MUSC", "FSTP", "FSTS", "SMBN", "SMQN", "SMEN", "DLBR",
    "MUST", "DLVW", "WOOP", "SHOU", "EQUP", "RELA", "SCEN", "ASTP", "OTFT", "ARTO", "MATO", "VOLI", "MOVT", "SNDR",
    "DUAL", "SNCT", "SOPM", "COLL", "CLFM", "REVB", "LENS"};

}  // namespace

std::span<const Signature> top_group_order(Game game) {
  if (game == Game::Oblivion) return kOblivion;
  return kSkyrim;
}

std::optional<std::size_t> top_group_rank(Game game, Signature type) {
  const auto order = top_group_order(game);
  const auto it = std::find(order.begin(), order.end(), type);
  if (it == order.end()) return std::nullopt;
  return std::size_t(it - order.begin());
}

}  // namespace tesmod
