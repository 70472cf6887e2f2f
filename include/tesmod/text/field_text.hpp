// One field's value as text by its layout (fields/field_layout.hpp), and back. A layout with one
// member is written bare (`EDID "IronSword"`, `KWDA [A, B]`), one with several as `name=value`
// pairs in layout order (`DATA value=25 weight=9.0`). Values: integers in decimal (x8/x16/x32 in
// hex), enumerations by label, flags as `Label|Label|0x100` (0 for none), floats as
// text_syntax.hpp writes them, FormIDs through the FormNamer, strings quoted, raw bytes as hex
// digits, arrays as `[a, b]`. In a localized plugin an lstring is `lstring 0x0000ABCD`, followed
// by the table's text in quotes when it is known (for reading only; the id is what is stored).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/plugin/signature.hpp"
#include "tesmod/fields/field_layout.hpp"
#include "tesmod/text/form_namer.hpp"
#include "tesmod/text/text_syntax.hpp"

namespace tesmod::text {

// The layouts live in the fields layer; the text layer reads and writes by them.
using fields::FieldLayout;
using fields::LayoutMember;
using fields::LayoutTable;
using fields::ValueNames;
using fields::ValueType;
using fields::layout_table;

struct FieldTextContext {
  const FormNamer* namer = nullptr;  // required
  const TextCodec* codec = nullptr;  // required
  bool localized = false;            // the plugin's lstrings are string ids
  // The text of a localized string id of this field, when the string tables are at hand.
  std::function<std::optional<std::string>(Signature field, std::uint32_t id)> string_text;
};

// Appends the value of data read with layout (no signature, no newline); false, with out
// unchanged, when data does not fit the layout.
bool append_layout_value(std::string& out, const FieldLayout& layout, std::span<const std::uint8_t> data,
                         const FieldTextContext& context);

// Which of several layouts of one field cannot read a text, told by its `name=` keys (outside
// brackets and quotes) without parsing it: a layout reads only a text whose keys are its member
// names in order (none for a single member; those before its optional members at least). Clears
// holds[k] for each such layouts[k]; it checks only as many keys as tell the layouts apart, so a
// layout left in may still fail.
// (Parsing a layout that fails costs an exception; a navmesh or a static's DNAM has two.)
void rule_out_layouts_by_keys(std::span<const FieldLayout* const> layouts, std::string_view text, std::vector<char>& holds);

// Reads what append_layout_value wrote, from the scanner's position to the end of the line.
// Raises SyntaxError at the column of what is wrong.
std::vector<std::uint8_t> parse_layout_value(const FieldLayout& layout, LineScanner& line,
                                             const FieldTextContext& context);
// The same, appending the bytes to out (on an error, out may hold part of them).
void parse_layout_value(const FieldLayout& layout, LineScanner& line, const FieldTextContext& context,
                        std::vector<std::uint8_t>& out);

// Raw bytes as hex digits ("0A1B2C"), and back (blanks between digit pairs allowed).
void append_hex(std::string& out, std::span<const std::uint8_t> data);
std::optional<std::vector<std::uint8_t>> parse_hex(std::string_view digits);
// Appends the bytes to out; false (out holding part of them) when digits are not hex.
bool append_parsed_hex(std::string_view digits, std::vector<std::uint8_t>& out);

}  // namespace tesmod::text
