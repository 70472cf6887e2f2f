// Which Skyrim fields are localized strings, and which table each one uses. Names (FULL and
// short names) go to .STRINGS, long texts (descriptions, book text, quest log entries) to
// .DLSTRINGS, and dialogue lines to .ILSTRINGS.
#include <algorithm>
#include <array>

#include "tesmod/plugin/strings_file.hpp"

namespace tesmod {
namespace {

struct LStringField {
  std::string_view record;  // "*" for any record type
  std::string_view field;
  StringsKind kind;
};

constexpr std::array kFields{
    LStringField{"*", "FULL", StringsKind::Strings},
    LStringField{"*", "DESC", StringsKind::DLStrings},
    LStringField{"ACTI", "RNAM", StringsKind::Strings},   // activate text override
    LStringField{"FLOR", "RNAM", StringsKind::Strings},
    LStringField{"BOOK", "CNAM", StringsKind::DLStrings},  // book description
    LStringField{"INFO", "NAM1", StringsKind::ILStrings},  // response text
    LStringField{"INFO", "RNAM", StringsKind::Strings},    // player prompt
    LStringField{"MESG", "ITXT", StringsKind::Strings},    // button text
    LStringField{"MGEF", "DNAM", StringsKind::DLStrings},  // magic item description
    LStringField{"NPC_", "SHRT", StringsKind::Strings},    // short name
    LStringField{"PERK", "EPF2", StringsKind::Strings},    // button label
    LStringField{"QUST", "CNAM", StringsKind::DLStrings},  // log entry
    LStringField{"QUST", "NNAM", StringsKind::Strings},    // objective text
    LStringField{"WOOP", "TNAM", StringsKind::Strings},    // word translation
    LStringField{"AMMO", "ONAM", StringsKind::Strings},    // short name
};

}  // namespace

std::optional<StringsKind> lstring_kind(std::string_view record_type, std::string_view field_type) {
  for (const LStringField& f : kFields) {
    if (f.field == field_type && (f.record == "*" || f.record == record_type)) return f.kind;
  }
  return std::nullopt;
}

}  // namespace tesmod
