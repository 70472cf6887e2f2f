// What the record text writer and reader share: the names of record and group header values.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tesmod/fields/field_layout.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/record_header.hpp"
#include "tesmod/plugin/signature.hpp"
#include "tesmod/text/form_namer.hpp"
#include "tesmod/text/text_syntax.hpp"

namespace tesmod::text::detail {

struct FlagName {
  std::uint32_t bit;
  std::string_view name;
};

// Record header flags with one meaning for every record type (and, for TES4, the file flags):
// the names used when the game's layout table names none for the record type.
std::span<const FlagName> record_flag_names(Signature record_type);

// `Persistent|Compressed|0x200`, or 0: named by the layout table's set for the record type (the
// one site's fields choose, when given) and then its general set (`header *`), else by
// record_flag_names. Returns false when a set bit
// has no name (it is then written as a number).
bool append_record_flags(std::string& out, Game game, Signature record_type, std::uint32_t flags,
                         const fields::FieldSite* site = nullptr);
// Reads any label of the record type's sets, of the default set, or of record_flag_names.
std::optional<std::uint32_t> parse_record_flags(Game game, Signature record_type, std::string_view text);

// A record or field type: the four characters, or 0x + 8 hex digits when they are not
// letters, digits and '_'.
void append_signature(std::string& out, Signature sig);
std::optional<Signature> parse_signature(std::string_view word);

inline constexpr std::uint32_t kCompressedFlag = 0x00040000;

// `group TYPE LABEL [stamp=0x..] [unknown=0x..]` (no braces, no newline), and back: the reader
// stops before a '{' or the end of the line.
void append_group_header(std::string& out, const GroupHeader& header, Game game, const FormNamer& namer);
GroupHeader parse_group_header(LineScanner& line, Game game, const FormNamer& namer);

}  // namespace tesmod::text::detail
