// Decoding of what OBSE adds to compiled scripts: its expression bytecode (let, eval, while,
// foreach, commands parsed as expressions) and the parameters of `Begin Function`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "decode_context.hpp"

namespace tesmod::script::detail {

// Begin-block type OBSE uses for user functions.
bool is_obse_function_block(std::uint16_t type);
// `{a, b}` after `Begin Function`; reads to end.
std::string decode_function_parameters(DecodeContext& c, std::size_t end);
// The arguments of a command parsed by OBSE (expression style or Call), as `Name args`.
std::string decode_obse_arguments(DecodeContext& c, const CommandInfo& cmd, std::size_t end);
// The arguments after a compiler-override mode word (u8 count + expressions, at most max_args:
// the command's or block type's parameters), as " a b" with compound arguments in parentheses;
// reads to end.
std::string decode_obse_argument_list(DecodeContext& c, std::size_t end, std::size_t max_args);
// A statement of a command with an OBSE parse style; reads to end. indent is lowered for the
// statement that closes a loop (the caller indents the body of one that opens it).
std::string decode_obse_statement(DecodeContext& c, const CommandInfo& cmd, std::size_t end, int& indent);

}  // namespace tesmod::script::detail
