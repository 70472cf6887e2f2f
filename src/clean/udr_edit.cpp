#include "tesmod/clean/udr_edit.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod::clean {

namespace {

// The fields a record type's definition puts before XESP and after it (xEdit's record
// definitions: a fact about the order the game's editors write). A new XESP goes after the last
// field of the record that belongs before it. A type in both lists (Skyrim REFR's INAM: image
// space before, patrol idle after) counts as after once a field of the after list was seen.
struct FieldOrder {
  std::vector<Signature> before;
  std::vector<Signature> after;
};

const FieldOrder kOblivionRefr{{"EDID", "NAME", "XTEL", "XLOC", "XOWN", "XRNK", "XGLB"},
                               {"XTRG", "XSED", "XLOD", "XCHG", "XHLT", "XPCI", "FULL", "XLCM", "XRTM", "XACT",
                                "XCNT", "XMRK", "FNAM", "TNAM", "ONAM", "XRGD", "XSCL", "XSOL", "DATA"}};
const FieldOrder kOblivionAchr{{"EDID", "NAME", "XPCI", "FULL", "XLOD"}, {"XMRC", "XHRS", "XRGD", "XSCL", "DATA"}};
const FieldOrder kOblivionAcre{{"EDID", "NAME", "XOWN", "XRNK", "XGLB", "XRGD", "XLOD"}, {"XSCL", "DATA"}};
const FieldOrder kSkyrimRefr{
    {"EDID", "VMAD", "NAME", "XMBO", "XPRM", "XORD", "XOCP", "XPOD", "XPTL", "XRMR", "LNAM", "INAM", "XLRM",
     "XMBP", "XRGD", "XRGB", "XRDS", "XPWR", "XLTW", "XEMI", "XLIG", "XALP", "XTEL", "XTNM", "XMBR", "XWCN",
     "XWCS", "XWCU", "XCVL", "XCVR", "XCZC", "XCZR", "XCZA", "XSCL", "XSPC", "XAPD", "XAPR", "XLIB", "XLCM",
     "XLCN", "XTRI", "XLOC", "XEZN", "XNDP", "XLRT", "XIS2", "XOWN", "XRNK", "XCNT", "XCHG", "XLRL"},
    {"XLKR", "XPRD", "XPPA", "INAM", "SCHR", "SCTX", "PDTO", "XACT", "XHTW", "XFVC", "ONAM", "XMRK", "FNAM",
     "FULL", "TNAM", "XATR", "XLOD", "DATA"}};
const FieldOrder kSkyrimAchr{
    {"EDID", "VMAD", "NAME", "XEZN", "XRGD", "XRGB", "XPRD", "XPPA", "INAM", "SCHR", "SCDA", "SCTX", "QNAM",
     "SCRO", "PDTO", "TNAM", "XLCM", "XMRC", "XCNT", "XRDS", "XHLP", "XLKR", "XAPD", "XAPR", "XCLP", "XLOD",
     "XLCN", "XLRL", "XIS2", "XLRT", "XHOR", "XHTW", "XFVC"},
    {"XOWN", "XRNK", "XEMI", "XMBR", "XIBS", "XSCL", "DATA"}};
const FieldOrder kSkyrimProjectile{
    {"EDID", "VMAD", "NAME", "XEZN", "XOWN", "XRNK", "XHTW", "XFVC", "XPWR", "XLKR", "XAPD", "XAPR"},
    {"XEMI", "XMBR", "XIS2", "XLRT", "XLRL", "XLOD", "XSCL", "DATA"}};

const FieldOrder& order_of(Game game, Signature type) {
  if (game == Game::Oblivion) {
    if (type == Signature("ACHR")) return kOblivionAchr;
    if (type == Signature("ACRE")) return kOblivionAcre;
    return kOblivionRefr;
  }
  if (type == Signature("REFR")) return kSkyrimRefr;
  if (type == Signature("ACHR") || type == Signature("ACRE")) return kSkyrimAchr;
  return kSkyrimProjectile;
}

bool listed(const std::vector<Signature>& list, Signature type) {
  return std::find(list.begin(), list.end(), type) != list.end();
}

// Where a new XESP goes among the fields.
std::size_t xesp_position(Game game, Signature type, const std::vector<Field>& fields) {
  const FieldOrder& order = order_of(game, type);
  std::size_t at = 0;
  bool after_seen = false;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const bool before = listed(order.before, fields[i].type);
    const bool after = listed(order.after, fields[i].type);
    if (before && (!after || !after_seen)) at = i + 1;
    else if (after) after_seen = true;
  }
  return at;
}

Field enable_parent_player() {
  std::uint8_t data[8] = {};
  le::store(data, kPlayerReference);
  data[4] = 1;  // set enable state to opposite of parent
  return Field::bytes(Signature("XESP"), data);
}

}  // namespace

bool is_placed_reference(Signature type) {
  static const Signature kTypes[] = {"REFR", "ACHR", "ACRE", "PGRE", "PMIS", "PARW",
                                     "PBAR", "PBEA", "PCON", "PFLA", "PHZD"};
  return std::find(std::begin(kTypes), std::end(kTypes), type) != std::end(kTypes);
}

UdrResult undelete_reference(Game game, Signature type, std::uint32_t flags, std::vector<Field> fields) {
  namespace rf = record_flags;
  UdrResult out;
  if (fields.empty()) {
    out.skipped = "no fields, and no master version to take them from";
    return out;
  }
  if (std::none_of(fields.begin(), fields.end(), [](const Field& f) { return f.type == Signature("NAME"); })) {
    out.skipped = "no base object (NAME)";
    return out;
  }
  flags = (flags & ~(rf::kDeleted | rf::kCompressed)) | rf::kInitiallyDisabled;
  if (game == Game::Oblivion) flags &= ~rf::kPersistent;
  else if (type == Signature("ACHR") || type == Signature("ACRE")) flags |= rf::kPersistent;

  if (!(flags & rf::kPersistent)) {
    auto data = std::find_if(fields.begin(), fields.end(), [](const Field& f) { return f.type == Signature("DATA"); });
    if (data == fields.end() || data->data.size() != 24) {
      out.skipped = "no position (a DATA of 24 bytes) to move below the ground";
      return out;
    }
    le::store(data->data.data() + 8, kBelowGround);
  }

  std::erase_if(fields, [](const Field& f) { return f.type == Signature("XTEL"); });
  auto old = std::find_if(fields.begin(), fields.end(), [](const Field& f) { return f.type == Signature("XESP"); });
  if (old != fields.end()) {
    // The enable parent replaced where the record keeps it; any repeat dropped.
    const std::size_t at = std::size_t(old - fields.begin());
    std::erase_if(fields, [](const Field& f) { return f.type == Signature("XESP"); });
    fields.insert(fields.begin() + std::ptrdiff_t(at), enable_parent_player());
  } else {
    fields.insert(fields.begin() + std::ptrdiff_t(xesp_position(game, type, fields)), enable_parent_player());
  }
  out.flags = flags;
  out.fields = std::move(fields);
  return out;
}

}  // namespace tesmod::clean
