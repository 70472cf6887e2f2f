// OBSE expression operators: the byte each compiles to, its precedence and arity.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tesmod::script::detail {

struct ObseOperator {
  std::uint8_t code;
  std::string_view text;
  int precedence;
  bool unary;
  bool right_assoc;
};

// Operators as written in source. Unary minus, dereference and box share text with binary
// operators; the parser picks by position.
inline constexpr ObseOperator kObseOperators[] = {
    {0x00, ":=", 2, false, true},  {0x01, "||", 5, false, false}, {0x02, "&&", 7, false, false},
    {0x03, ":", 9, false, false},  {0x04, "==", 13, false, false}, {0x05, "!=", 13, false, false},
    {0x06, ">", 15, false, false}, {0x07, "<", 15, false, false},  {0x08, ">=", 15, false, false},
    {0x09, "<=", 15, false, false}, {0x0A, "|", 16, false, false}, {0x0B, "&", 17, false, false},
    {0x0C, "<<", 18, false, false}, {0x0D, ">>", 18, false, false}, {0x0E, "+", 19, false, false},
    {0x0F, "-", 19, false, false}, {0x10, "*", 21, false, false}, {0x11, "/", 21, false, false},
    {0x12, "%", 21, false, false}, {0x13, "^", 23, false, false},  {0x14, "-", 25, true, true},
    {0x15, "!", 27, true, true},   {0x18, "[", 90, false, false}, {0x1A, "<-", 2, false, true},
    {0x1B, "$", 25, true, true},   {0x1C, "+=", 2, false, true},  {0x1D, "*=", 2, false, true},
    {0x1E, "/=", 2, false, true},  {0x1F, "^=", 2, false, true},  {0x20, "-=", 2, false, true},
    {0x21, "#", 25, true, true},   {0x22, "*", 25, true, true},   {0x23, "->", 90, false, false},
    {0x24, "::", 3, false, true},  {0x25, "&", 25, true, true},
};

// Codes the parsers treat specially: array subscript a[i], member access a->b and the pair
// a::b (written without blanks, as OBSE's documentation writes it).
inline constexpr std::uint8_t kSubscript = 0x18, kMember = 0x23, kMakePair = 0x24;

inline const ObseOperator* obse_operator(std::uint8_t code) {
  for (const ObseOperator& o : kObseOperators)
    if (o.code == code) return &o;
  return nullptr;
}

inline const ObseOperator* obse_operator(std::string_view text, bool unary) {
  for (const ObseOperator& o : kObseOperators)
    if (o.text == text && o.unary == unary) return &o;
  return nullptr;
}

// OBSE expression token type bytes.
namespace obse_token {
inline constexpr std::uint8_t kByte = 'B', kShort = 'I', kLong = 'L', kDouble = 'Z', kString = 'S', kForm = 'R',
                              kGlobal = 'G', kVariable = 'V', kCommand = 'X';
}
// Variable types in V tokens and function parameter lists.
enum class ObseVarType : std::uint8_t { Float = 0, Integer = 1, String = 2, Array = 3, Ref = 4 };

}  // namespace tesmod::script::detail
