// The tables of the field imports by Bash Tag (private to src/patch): for each tag, the record
// types it imports from and, per type, its attributes — the values a tagged plugin wins one by
// one. An attribute is whole subrecords taken together (FULL; a model's MODL+MODT+MODS) or members
// of a subrecord, named as the field layouts name them (DATA.weight). The tables are text in
// field_import_table.cpp, one per game; its head explains the notation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/signature.hpp"

namespace tesmod::patch {

enum class ImportRegion : std::uint8_t {
  Record,  // anywhere in the record
  Before,  // `FULL<EFID|EFXX`: before the first of the bounds (the record's own, not an effect's)
  After,   // `NNAM>ANAM|ALED`: after the last of the bounds
};

// One subrecord, or a member of one, that an attribute takes.
struct ImportPart {
  std::vector<Signature> fields;  // `BOD2|BODT`: alternatives, the first one the record has
  std::string member;             // a layout member; empty: the whole subrecords
  ImportRegion region = ImportRegion::Record;
  std::vector<Signature> bounds;  // of the region
  bool compared = true;           // `(MODT)`: carried with the others, not compared
  bool unordered = false;         // `KWDA:unordered`: the same FormIDs or strings in any order
};

struct ImportAttribute {
  std::string name;               // for notes and reports: FULL, MODL+MODT+MODS, DATA.weight
  std::vector<ImportPart> parts;  // whole subrecords only, or members only
  bool loose = false;             // `~`: Graphics' rule (see the table's head)

  bool members() const { return !parts.front().member.empty(); }
};

struct ImportRow {
  std::string tag;
  std::optional<Game> only;  // `Stats/SE`: one game of the table's
  std::vector<Signature> types;
  std::vector<ImportAttribute> attributes;
  std::size_t line = 0;  // where the row starts, for messages
};

struct FieldImportTable {
  std::vector<ImportRow> rows;  // in table order
};

// Reads a table; throws tesmod::Error naming `name:line` and what was expected.
FieldImportTable parse_field_import_table(std::string_view text, std::string_view name);

// The built-in table of a game (Skyrim LE and SE share one; the rows of the other game are left
// out), read on first use.
const FieldImportTable& field_import_table(Game game);
// Its text, for tests that read it with parse_field_import_table.
std::string_view field_import_table_text(Game game);

}  // namespace tesmod::patch
