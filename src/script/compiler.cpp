#include "tesmod/script/compiler.hpp"

namespace tesmod::script {

CompileError::CompileError(std::uint32_t line, std::uint32_t column, std::string message)
    : std::runtime_error("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message),
      line_(line), column_(column), message_(std::move(message)) {}

CompileResult compile(std::string_view, const CompileOptions&) { throw CompileError(1, 1, "compiler not built yet"); }

}  // namespace tesmod::script
