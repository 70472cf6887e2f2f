#include "tesmod/fields/condition_functions.hpp"

#include <algorithm>
#include <span>
#include <vector>

#include "../script/param_names.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/script/command_table.hpp"

namespace tesmod::fields {
namespace {

struct NamedCode {
  std::uint32_t code;
  std::string_view name;
};

#include "condition_functions_tes5.inc"

// Enumerations of Skyrim condition parameters, as TES5Edit (Core/wbDefinitionsTES5.pas) names
// them, written as identifiers (spaces and punctuation dropped).
// clang-format off
constexpr NamedCode kSkyrimFormTypes[] = {
    {0, "Activator"}, {1, "Armor"}, {2, "Book"}, {3, "Container"}, {4, "Door"}, {5, "Ingredient"}, {6, "Light"},
    {7, "MiscItem"}, {8, "Static"}, {9, "Grass"}, {10, "Tree"}, {12, "Weapon"}, {13, "Actor"},
    {14, "LeveledCharacter"}, {15, "Spell"}, {16, "Enchantment"}, {17, "Potion"}, {18, "LeveledItem"},
    {19, "Key"}, {20, "Ammo"}, {21, "Flora"}, {22, "Furniture"}, {23, "SoundMarker"}, {24, "LandTexture"},
    {25, "CombatStyle"}, {26, "LoadScreen"}, {27, "LeveledSpell"}, {28, "AnimObject"}, {29, "WaterType"},
    {30, "IdleMarker"}, {31, "EffectShader"}, {32, "Projectile"}, {33, "TalkingActivator"}, {34, "Explosion"},
    {35, "TextureSet"}, {36, "Debris"}, {37, "MenuIcon"}, {38, "FormList"}, {39, "Perk"}, {40, "BodyPartData"},
    {41, "AddOnNode"}, {42, "MovableStatic"}, {43, "CameraShot"}, {44, "ImpactData"}, {45, "ImpactDataSet"},
    {46, "Quest"}, {47, "Package"}, {48, "VoiceType"}, {49, "Class"}, {50, "Race"}, {51, "Eyes"},
    {52, "HeadPart"}, {53, "Faction"}, {54, "Note"}, {55, "Weather"}, {56, "Climate"}, {57, "ArmorAddon"},
    {58, "Global"}, {59, "Imagespace"}, {60, "ImagespaceModifier"}, {61, "EncounterZone"}, {62, "Message"},
    {63, "ConstructibleObject"}, {64, "AcousticSpace"}, {65, "Ragdoll"}, {66, "Script"}, {67, "MagicEffect"},
    {68, "MusicType"}, {69, "StaticCollection"}, {70, "Keyword"}, {71, "Location"}, {72, "LocationRefType"},
    {73, "Footstep"}, {74, "FootstepSet"}, {75, "MaterialType"}, {76, "ActorAction"}, {77, "MusicTrack"},
    {78, "WordOfPower"}, {79, "Shout"}, {80, "Relationship"}, {81, "EquipSlot"}, {82, "AssociationType"},
    {83, "Outfit"}, {84, "ArtObject"}, {85, "MaterialObject"}, {87, "LightingTemplate"},
    {88, "ShaderParticleGeometry"}, {89, "VisualEffect"}, {90, "Apparatus"}, {91, "MovementType"},
    {92, "Hazard"}, {93, "SMEventNode"}, {94, "SoundDescriptor"}, {95, "DualCastData"}, {96, "SoundCategory"},
    {97, "SoulGem"}, {98, "SoundOutputModel"}, {99, "CollisionLayer"}, {100, "Scroll"}, {101, "ColorForm"},
    {102, "ReverbParameters"},
};

// GetPCMiscStat: the stat is stored as a hash of its name.
constexpr NamedCode kSkyrimMiscStats[] = {
    {0xFCDD5011, "AnimalsKilled"}, {0x366D84CF, "ArmorImproved"}, {0x023497E6, "ArmorMade"},
    {0x8E20D7C9, "Assaults"}, {0x579FFA75, "AutomationsKilled"}, {0xB9B50725, "Backstabs"},
    {0xED6A0EF2, "Barters"}, {0xCCB952CE, "BooksRead"}, {0x317E8B4C, "BrawlsWon"}, {0x1D79006B, "Bribes"},
    {0x3602DE8F, "BunniesSlaughtered"}, {0x53D9E9B5, "ChestsLooted"}, {0x683C1980, "CivilWarQuestsCompleted"},
    {0x66CCC50A, "CollegeOfWinterholdQuestsCompleted"}, {0x40B11EFE, "CreaturesKilled"},
    {0x22D5BA38, "CriticalStrikes"}, {0xA930980F, "DaedraKilled"}, {0x3558374B, "DaedricQuestsCompleted"},
    {0x37A76425, "DawnguardQuestsCompleted"}, {0x2BDAC36F, "DaysAsAVampire"}, {0x6E684590, "DaysAsAWerewolf"},
    {0xB6F118DB, "DaysJailed"}, {0x3C626A90, "DaysPassed"}, {0x8556AD88, "DiseasesContracted"},
    {0x46D6FBBC, "DragonSoulsCollected"}, {0xAA444695, "DungeonsCleared"}, {0x1A37F336, "EastmarchBounty"},
    {0x5AC3A8ED, "FalkreathBounty"}, {0x87B12ECC, "FavoriteSchool"}, {0x518BBC4E, "FavoriteShout"},
    {0x41DD77A6, "FavoriteSpell"}, {0x171C5391, "FavoriteWeapon"}, {0x4F041AA2, "FinesPaid"},
    {0x9311B22B, "FoodEaten"}, {0x57C089F7, "GoldFound"}, {0xD20EDA4F, "HaafingarBounty"},
    {0x516C486D, "HjaalmarchBounty"}, {0xB0A1E32E, "HorsesOwned"}, {0xEBAE35E8, "HorsesStolen"},
    {0xFA024018, "HoursSlept"}, {0xCAD2ECA1, "HoursWaiting"}, {0x527DF857, "HousesOwned"},
    {0x47B4A015, "IngredientsEaten"}, {0xCE842356, "IngredientsHarvested"}, {0x7D2E57C0, "Intimidations"},
    {0xC21702B5, "ItemsPickpocketed"}, {0x82F190C2, "ItemsStolen"}, {0x6627464B, "JailEscapes"},
    {0x3520E710, "LargestBounty"}, {0x8A24FDE2, "LocationsDiscovered"}, {0x5829CC2E, "LocksPicked"},
    {0x88089979, "MagicItemsMade"}, {0x7EA26C2D, "MainQuestsCompleted"}, {0x7187A208, "Mauls"},
    {0x98EE55DC, "MiscObjectivesCompleted"}, {0xFA06230B, "MostGoldCarried"}, {0xD37C6909, "Murders"},
    {0x22C2CBD0, "NecksBitten"}, {0xBEEBCC87, "NirnrootsFound"}, {0x56CCFC54, "NumVampirePerks"},
    {0x76A1A5C0, "NumWerewolfPerks"}, {0xF22A8133, "PeopleKilled"}, {0x47A78467, "Persuasions"},
    {0xF2BAC234, "PocketsPicked"}, {0x17C64668, "PoisonsMixed"}, {0x7D8F2EA6, "PoisonsUsed"},
    {0x4228DE85, "PotionsMixed"}, {0x9631EC11, "PotionsUsed"}, {0xDE6C73FE, "QuestlinesCompleted"},
    {0x0D7B8B16, "QuestsCompleted"}, {0xBB39399E, "ShoutsLearned"}, {0x731B5333, "ShoutsMastered"},
    {0xF921D8BA, "ShoutsUnlocked"}, {0xB1AE4792, "SideQuestsCompleted"}, {0xACE470D7, "SkillBooksRead"},
    {0xF33130CE, "SkillIncreases"}, {0xB556CC52, "SneakAttacks"}, {0xA74CBE83, "SoulGemsUsed"},
    {0xC2C9E233, "SoulsTrapped"}, {0x5EC89F1A, "SpellsLearned"}, {0xB251A346, "StandingStonesFound"},
    {0x05D45702, "StoresInvestedIn"}, {0xD0FE7031, "TheCompanionsQuestsCompleted"},
    {0x52BA68CB, "TheDarkBrotherhoodQuestsCompleted"}, {0x3E267D77, "ThePaleBounty"},
    {0x69B48177, "TheReachBounty"}, {0x50A23F69, "TheRiftBounty"}, {0x62B2E95D, "ThievesGuildQuestsCompleted"},
    {0x944CEA93, "TimesJailed"}, {0x50AAB633, "TimesShouted"}, {0x99BB86D8, "TotalLifetimeBounty"},
    {0x4C252391, "TrainingSessions"}, {0x7AEA9C2B, "Trespasses"}, {0xA67626F4, "TribalOrcsBounty"},
    {0x41D4BC0F, "UndeadKilled"}, {0xF39260A1, "VampirismCures"}, {0x61A5C5A9, "WeaponsDisarmed"},
    {0x1D3BA844, "WeaponsImproved"}, {0x25F1EA25, "WeaponsMade"}, {0x38A2DD66, "WerewolfTransformations"},
    {0x4231FA4F, "WhiterunBounty"}, {0x92565767, "WingsPlucked"}, {0xC7FC518D, "WinterholdBounty"},
    {0x949FA7BC, "WordsOfPowerLearned"}, {0x2C6E3FC0, "WordsOfPowerUnlocked"},
};
// clang-format on

constexpr NamedCode kAxes[] = {{'X', "X"}, {'Y', "Y"}, {'Z', "Z"}};
constexpr NamedCode kSexes[] = {{0, "Male"}, {1, "Female"}};
// Oblivion: formats.md §2 (TES5Edit also names 5); Skyrim: TES5Edit wbCrimeTypeEnum.
constexpr NamedCode kOblivionCrimeTypes[] = {{0, "Steal"},  {1, "Pickpocket"}, {2, "Trespass"},
                                             {3, "Attack"}, {4, "Murder"},     {5, "StealHorse"}};
constexpr NamedCode kSkyrimCrimeTypes[] = {{0, "Steal"},  {1, "Pickpocket"}, {2, "Trespass"}, {3, "Attack"},
                                           {4, "Murder"}, {5, "EscapeJail"}, {6, "WerewolfTransformation"}};
constexpr NamedCode kCastingSources[] = {{0, "Left"}, {1, "Right"}, {2, "Voice"}, {3, "Instant"}};
constexpr NamedCode kWardStates[] = {{0, "None"}, {1, "Absorb"}, {2, "Break"}};
constexpr NamedCode kAlignments[] = {{0, "Good"}, {1, "Neutral"}, {2, "Evil"}, {3, "VeryGood"}, {4, "VeryEvil"}};
constexpr NamedCode kCriticalStages[] = {
    {0, "None"}, {1, "GooStart"}, {2, "GooEnd"}, {3, "DisintegrateStart"}, {4, "DisintegrateEnd"}};
constexpr NamedCode kAdvanceActions[] = {
    {0, "NormalUsage"}, {1, "PowerAttack"}, {2, "Bash"}, {3, "LockpickSuccess"}, {4, "LockpickBroken"}};
constexpr NamedCode kFurnitureAnims[] = {{1, "Sit"}, {2, "Lay"}, {4, "Lean"}};
constexpr NamedCode kFurnitureEntries[] = {
    {0x010000, "Front"}, {0x020000, "Behind"}, {0x040000, "Right"}, {0x080000, "Left"}, {0x100000, "Up"}};
// GetEventData's event functions (the low half of param1).
constexpr NamedCode kEventFunctions[] = {
    {0, "GetIsID"}, {1, "IsInList"}, {2, "GetValue"}, {3, "HasKeyword"}, {4, "GetItemValue"}};
// Oblivion actor values the script compiler has no name for (tes4_actor_values.tsv).
constexpr NamedCode kOblivionUnscriptedActorValues[] = {{38, "Fame"}, {39, "Infamy"}};

// Oblivion script parameter types (tes4_param_types.tsv) as condition parameters.
struct OblivionParamType {
  std::string_view name;
  ParamKind kind;
};
constexpr OblivionParamType kOblivionParamTypes[] = {
    {"String", ParamKind::Integer},                 // 0x00
    {"Integer", ParamKind::Integer},                // 0x01
    {"Float", ParamKind::Float},                    // 0x02
    {"InventoryObject", ParamKind::FormId},         // 0x03
    {"ObjectRef", ParamKind::FormId},               // 0x04
    {"ActorValue", ParamKind::ActorValue},          // 0x05
    {"Actor", ParamKind::FormId},                   // 0x06
    {"SpellItem", ParamKind::FormId},               // 0x07
    {"Axis", ParamKind::Axis},                      // 0x08
    {"Cell", ParamKind::FormId},                    // 0x09
    {"AnimationGroup", ParamKind::AnimationGroup},  // 0x0A
    {"MagicItem", ParamKind::FormId},               // 0x0B
    {"Sound", ParamKind::FormId},                   // 0x0C
    {"Topic", ParamKind::FormId},                   // 0x0D
    {"Quest", ParamKind::FormId},                   // 0x0E
    {"Race", ParamKind::FormId},                    // 0x0F
    {"Class", ParamKind::FormId},                   // 0x10
    {"Faction", ParamKind::FormId},                 // 0x11
    {"Sex", ParamKind::Sex},                        // 0x12
    {"Global", ParamKind::FormId},                  // 0x13
    {"Furniture", ParamKind::FormId},               // 0x14
    {"TESObject", ParamKind::FormId},               // 0x15
    {"VariableName", ParamKind::VariableName},      // 0x16
    {"QuestStage", ParamKind::QuestStage},          // 0x17
    {"MapMarker", ParamKind::FormId},               // 0x18
    {"ActorBase", ParamKind::FormId},               // 0x19
    {"Container", ParamKind::FormId},               // 0x1A
    {"WorldSpace", ParamKind::FormId},              // 0x1B
    {"CrimeType", ParamKind::CrimeType},            // 0x1C
    {"AIPackage", ParamKind::FormId},               // 0x1D
    {"CombatStyle", ParamKind::FormId},             // 0x1E
    {"MagicEffect", ParamKind::FormId},             // 0x1F
    {"Birthsign", ParamKind::FormId},               // 0x20
    {"FormType", ParamKind::FormType},              // 0x21
    {"WeatherID", ParamKind::FormId},               // 0x22
    {"NPC", ParamKind::FormId},                     // 0x23
    {"Owner", ParamKind::FormId},                   // 0x24
    {"EffectShader", ParamKind::FormId},            // 0x25
    {"Array", ParamKind::Integer},                  // 0x26
    {"Climate", ParamKind::FormId},                 // 0x27
};

ParamSpec oblivion_param(std::uint8_t type) {
  if (type < std::size(kOblivionParamTypes)) return {kOblivionParamTypes[type].kind, kOblivionParamTypes[type].name};
  return {ParamKind::Integer, "Unknown"};
}

// Oblivion's condition functions are its vanilla script functions (opcode 0x1000 + index).
const std::vector<ConditionFunction>& oblivion_functions() {
  static const std::vector<ConditionFunction> table = [] {
    std::vector<ConditionFunction> out;
    for (const script::CommandInfo& c : script::all_commands()) {
      if (c.kind != script::CommandKind::Vanilla || c.opcode < 0x1000 || c.opcode >= 0x2000) continue;
      ConditionFunction f;
      f.index = std::uint16_t(c.opcode - 0x1000);
      f.name = c.name;
      f.short_name = c.short_name;
      const auto params = c.params();
      for (std::size_t i = 0; i < 2 && i < params.size(); ++i) f.params[i] = oblivion_param(params[i].type);
      out.push_back(f);
    }
    return out;
  }();
  return table;
}

std::span<const ConditionFunction> functions(Game game) {
  if (game == Game::Oblivion) return oblivion_functions();
  return kSkyrimFunctions;
}

std::span<const NamedCode> names_of(Game game, ParamKind kind) {
  const bool oblivion = game == Game::Oblivion;
  switch (kind) {
    case ParamKind::ActorValue: return oblivion ? std::span<const NamedCode>() : kSkyrimActorValues;
    case ParamKind::Axis: return kAxes;
    case ParamKind::Sex: return kSexes;
    case ParamKind::CrimeType: return oblivion ? std::span<const NamedCode>(kOblivionCrimeTypes) : kSkyrimCrimeTypes;
    case ParamKind::FormType: return oblivion ? std::span<const NamedCode>() : kSkyrimFormTypes;
    case ParamKind::Event: return oblivion ? std::span<const NamedCode>() : kEventFunctions;
    case ParamKind::CastingSource: return kCastingSources;
    case ParamKind::WardState: return kWardStates;
    case ParamKind::Alignment: return kAlignments;
    case ParamKind::CriticalStage: return kCriticalStages;
    case ParamKind::MiscStat: return kSkyrimMiscStats;
    case ParamKind::AdvanceAction: return kAdvanceActions;
    case ParamKind::FurnitureAnim: return kFurnitureAnims;
    case ParamKind::FurnitureEntry: return kFurnitureEntries;
    default: return {};
  }
}

// The script compiler's names serve Oblivion's actor values, form types and animation groups.
std::optional<script::NamedParam> script_names(Game game, ParamKind kind) {
  if (game != Game::Oblivion) return std::nullopt;
  switch (kind) {
    case ParamKind::ActorValue: return script::NamedParam::ActorValue;
    case ParamKind::FormType: return script::NamedParam::FormType;
    case ParamKind::AnimationGroup: return script::NamedParam::AnimationGroup;
    default: return std::nullopt;
  }
}

}  // namespace

std::string_view param_kind_name(ParamKind kind) {
  switch (kind) {
    case ParamKind::None: return "None";
    case ParamKind::Integer: return "Integer";
    case ParamKind::Float: return "Float";
    case ParamKind::FormId: return "FormId";
    case ParamKind::ActorValue: return "ActorValue";
    case ParamKind::Axis: return "Axis";
    case ParamKind::Sex: return "Sex";
    case ParamKind::CrimeType: return "CrimeType";
    case ParamKind::FormType: return "FormType";
    case ParamKind::AnimationGroup: return "AnimationGroup";
    case ParamKind::QuestStage: return "QuestStage";
    case ParamKind::VariableName: return "VariableName";
    case ParamKind::Alias: return "Alias";
    case ParamKind::PackageData: return "PackageData";
    case ParamKind::Event: return "Event";
    case ParamKind::CastingSource: return "CastingSource";
    case ParamKind::WardState: return "WardState";
    case ParamKind::Alignment: return "Alignment";
    case ParamKind::CriticalStage: return "CriticalStage";
    case ParamKind::MiscStat: return "MiscStat";
    case ParamKind::AdvanceAction: return "AdvanceAction";
    case ParamKind::FurnitureAnim: return "FurnitureAnim";
    case ParamKind::FurnitureEntry: return "FurnitureEntry";
    case ParamKind::VatsValueFunction: return "VatsValueFunction";
    case ParamKind::VatsValueParam: return "VatsValueParam";
  }
  return "Unknown";
}

const ConditionFunction* find_condition_function(Game game, std::uint16_t index) {
  const auto table = functions(game);
  auto it = std::lower_bound(table.begin(), table.end(), index,
                             [](const ConditionFunction& f, std::uint16_t i) { return f.index < i; });
  return it != table.end() && it->index == index ? &*it : nullptr;
}

const ConditionFunction* find_condition_function(Game game, std::string_view name) {
  // Full names first: a short name may be another function's full name.
  for (const ConditionFunction& f : functions(game))
    if (ascii::iequals(f.name, name)) return &f;
  for (const ConditionFunction& f : functions(game))
    if (!f.short_name.empty() && ascii::iequals(f.short_name, name)) return &f;
  return nullptr;
}

std::optional<std::string_view> param_value_name(Game game, ParamKind kind, std::uint32_t code) {
  if (auto named = script_names(game, kind)) {
    if (code <= 0xFFFF)
      if (auto n = script::param_value_name(*named, std::uint16_t(code))) return n;
    if (kind == ParamKind::ActorValue)
      for (const NamedCode& n : kOblivionUnscriptedActorValues)
        if (n.code == code) return n.name;
    return std::nullopt;
  }
  for (const NamedCode& n : names_of(game, kind))
    if (n.code == code) return n.name;
  return std::nullopt;
}

std::optional<std::uint32_t> param_value_code(Game game, ParamKind kind, std::string_view name) {
  if (auto named = script_names(game, kind)) {
    if (auto c = script::param_value_code(*named, name)) return *c;
    if (kind == ParamKind::ActorValue)
      for (const NamedCode& n : kOblivionUnscriptedActorValues)
        if (ascii::iequals(n.name, name)) return n.code;
    return std::nullopt;
  }
  for (const NamedCode& n : names_of(game, kind))
    if (ascii::iequals(n.name, name)) return n.code;
  return std::nullopt;
}

}  // namespace tesmod::fields
