// The Oblivion script command table: begin-block types, vanilla functions, OBSE commands and
// OBSE-plugin commands, each with its opcode, names and parameter types.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace tesmod::script {

// Parameter type codes as the game numbers them (ParamInfo.typeID); how each is written into
// compiled code is the compiler's business.
namespace param {
inline constexpr std::uint8_t kString = 0x00, kInteger = 0x01, kFloat = 0x02, kInventoryObject = 0x03,
                              kObjectRef = 0x04, kActorValue = 0x05, kActor = 0x06, kSpellItem = 0x07,
                              kAxis = 0x08, kCell = 0x09, kAnimationGroup = 0x0A, kMagicItem = 0x0B,
                              kSound = 0x0C, kTopic = 0x0D, kQuest = 0x0E, kRace = 0x0F, kClass = 0x10,
                              kFaction = 0x11, kSex = 0x12, kGlobal = 0x13, kFurniture = 0x14,
                              kTESObject = 0x15, kVariableName = 0x16, kQuestStage = 0x17, kMapMarker = 0x18,
                              kActorBase = 0x19, kContainer = 0x1A, kWorldSpace = 0x1B, kCrimeType = 0x1C,
                              kAIPackage = 0x1D, kCombatStyle = 0x1E, kMagicEffect = 0x1F, kBirthsign = 0x20,
                              kFormType = 0x21, kWeatherID = 0x22, kNPC = 0x23, kOwner = 0x24,
                              kEffectShader = 0x25, kArray = 0x26, kClimate = 0x27,
                              // An OBSE expression (commands parsed by OBSE's expression compiler).
                              kObseExpression = 0xFF;
}  // namespace param

struct ParamSpec {
  std::uint8_t type;
  bool optional;
  // For OBSE expression parameters: the accepted kinds ("Number", "String", "Array", ...).
  std::string_view obse_kind;
};

enum class CommandKind : std::uint8_t { Block, Console, Vanilla, Obse, Plugin };

// How the compiler reads a command's arguments.
enum class ParseStyle : std::uint8_t {
  Default,     // the vanilla argument encoding
  Expression,  // OBSE expression arguments
  Let,         // let var := expression
  BeginLoop,   // while expr / foreach var <- expr
  Loop,        // end of while/foreach
  Null,        // break/continue: no arguments
  Call,        // call FunctionScript args...
};

struct CommandInfo {
  std::uint16_t opcode;
  CommandKind kind;
  ParseStyle parse;
  bool calling_ref;  // acts on a calling reference (implicit self or ref.Command)
  std::string_view name;
  std::string_view short_name;
  std::uint16_t first_param;
  std::uint8_t param_count;
  std::string_view return_type;  // OBSE return type ("String", "Array", "Form", ... or empty = number)
  std::string_view plugin;       // OBSE plugin commands: the plugin (and build) that registers it
  // The opcode was learned from compiled scripts of the corpus, for want of a public source
  // (MenuQue's): scripts calling it are counted apart by the script check.
  bool unsourced = false;

  std::span<const ParamSpec> params() const;
  bool is_block() const { return kind == CommandKind::Block; }
};

// Lookups over the built-in table. Names compare case-insensitively; short names count too.
const CommandInfo* find_command(std::uint16_t opcode);
const CommandInfo* find_command(std::string_view name);
// Builds of one OBSE plugin may register a name at different opcodes, or different commands at
// one opcode (OblivionOnline did both). The default table holds the first build to claim each
// opcode; a build that reuses claimed opcodes is an *alternate* build, used only when listed in
// `plugins` (CommandInfo::plugin values): then its commands win, by name and by opcode. Among
// default-table builds sharing a name, a listed build's command wins, else the first registered.
const CommandInfo* find_command(std::uint16_t opcode, std::span<const std::string> plugins);
const CommandInfo* find_command(std::string_view name, std::span<const std::string> plugins);
// The alternate builds, in table order.
std::span<const std::string_view> alternate_builds();
// Begin-block types share the opcode space of nothing else; looked up separately.
const CommandInfo* find_block(std::uint16_t type);
const CommandInfo* find_block(std::string_view name);
std::span<const CommandInfo> all_commands();

}  // namespace tesmod::script
