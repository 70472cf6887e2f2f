// Opcodes and token bytes of compiled Oblivion scripts, shared by the compiler and decompiler.
#pragma once

#include <cstdint>

namespace tesmod::script::op {

inline constexpr std::uint16_t kBegin = 0x10, kEnd = 0x11, kSet = 0x15, kIf = 0x16, kElse = 0x17, kElseIf = 0x18,
                               kEndIf = 0x19, kDot = 0x1C, kScriptName = 0x1D, kReturn = 0x1E;
inline constexpr std::uint16_t kMessageBox = 0x1000, kMessage = 0x1059;

// OBSE's compiler override (v0020, `Begin _GameMode`): in such a block the commands the editor
// parses with its default parser take OBSE expression arguments, and where their argument
// count would be the mode is written instead (CompilerOverride::Mode, Hooks_Script.h): 0xFFFE
// for the block type's own arguments, 0xFFFF for commands in the block. OBSE's internal
// commands @PushExecutionContext / @PopExecutionContext open and close the block's code.
inline constexpr std::uint16_t kOverrideBlockType = 0xFFFE, kOverrideCommand = 0xFFFF;
inline constexpr std::uint16_t kPushExecutionContext = 0x19A5, kPopExecutionContext = 0x19A6;

// Token bytes of vanilla expressions and arguments.
inline constexpr std::uint8_t kPush = 0x20;          // ' ' before every expression token
inline constexpr std::uint8_t kShortLocal = 's';     // integer local
inline constexpr std::uint8_t kFloatLocal = 'f';     // float or ref local
inline constexpr std::uint8_t kGlobal = 'G';
inline constexpr std::uint8_t kReference = 'Z';      // a form used as a value
inline constexpr std::uint8_t kRefPrefix = 'r';      // ref-list entry: argument, or ref.var / ref.call
inline constexpr std::uint8_t kCall = 'X';
inline constexpr std::uint8_t kLong = 'n';           // int32 literal argument
inline constexpr std::uint8_t kDouble = 'z';         // double literal argument

}  // namespace tesmod::script::op
