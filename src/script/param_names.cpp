#include "param_names.hpp"

#include <span>

#include "tesmod/io/ascii.hpp"

namespace tesmod::script {
namespace {

struct NamedCode {
  std::uint16_t code;
  std::string_view name;
};

// Script names of the actor values (Fame and Infamy have none).
constexpr NamedCode kActorValues[] = {{0, "Strength"}, {1, "Intelligence"}, {2, "Willpower"}, {3, "Agility"}, {4, "Speed"}, {5, "Endurance"}, {6, "Personality"}, {7, "Luck"}, {8, "Health"}, {9, "Magicka"}, {10, "Fatigue"}, {11, "Encumbrance"}, {12, "Armorer"}, {13, "Athletics"}, {14, "Blade"}, {15, "Block"}, {16, "Blunt"}, {17, "HandtoHand"}, {18, "HeavyArmor"}, {19, "Alchemy"}, {20, "Alteration"}, {21, "Conjuration"}, {22, "Destruction"}, {23, "Illusion"}, {24, "Mysticism"}, {25, "Restoration"}, {26, "Acrobatics"}, {27, "LightArmor"}, {28, "Marksman"}, {29, "Mercantile"}, {30, "Security"}, {31, "Sneak"}, {32, "Speechcraft"}, {33, "Aggression"}, {34, "Confidence"}, {35, "Energy"}, {36, "Responsibility"}, {37, "Bounty"}, {40, "MagickaMultiplier"}, {41, "NightEyeBonus"}, {42, "AttackBonus"}, {43, "DefendBonus"}, {44, "CastingPenalty"}, {45, "Blindness"}, {46, "Chameleon"}, {47, "Invisibility"}, {48, "Paralysis"}, {49, "Silence"}, {50, "Confusion"}, {51, "DetectItemRange"}, {52, "SpellAbsorbChance"}, {53, "SpellReflectChance"}, {54, "SwimSpeedMultiplier"}, {55, "WaterBreathing"}, {56, "WaterWalking"}, {57, "StuntedMagicka"}, {58, "DetectLifeRange"}, {59, "ReflectDamage"}, {60, "Telekinesis"}, {61, "ResistFire"}, {62, "ResistFrost"}, {63, "ResistDisease"}, {64, "ResistMagic"}, {65, "ResistNormalWeapons"}, {66, "ResistParalysis"}, {67, "ResistPoison"}, {68, "ResistShock"}, {69, "Vampirism"}, {70, "Darkness"}, {71, "ResistWaterDamage"}};

constexpr NamedCode kAnimationGroups[] = {
    {0x00, "Idle"}, {0x01, "DynamicIdle"}, {0x02, "SpecialIdle"}, {0x03, "Forward"}, {0x04, "Backward"},
    {0x05, "Left"}, {0x06, "Right"}, {0x07, "FastForward"}, {0x08, "FastBackward"}, {0x09, "FastLeft"},
    {0x0A, "FastRight"}, {0x0B, "DodgeForward"}, {0x0C, "DodgeBack"}, {0x0D, "DodgeLeft"}, {0x0E, "DodgeRight"},
    {0x0F, "TurnLeft"}, {0x10, "TurnRight"}, {0x11, "Equip"}, {0x12, "Unequip"}, {0x13, "AttackBow"},
    {0x14, "AttackLeft"}, {0x15, "AttackRight"}, {0x16, "AttackPower"}, {0x17, "AttackForwardPower"},
    {0x18, "AttackBackPower"}, {0x19, "AttackLeftPower"}, {0x1A, "AttackRightPower"}, {0x1B, "BlockIdle"},
    {0x1C, "BlockHit"}, {0x1D, "BlockAttack"}, {0x1E, "Recoil"}, {0x1F, "Stagger"}, {0x20, "Death"},
    {0x21, "TorchIdle"}, {0x22, "CastSelf"}, {0x23, "CastTouch"}, {0x24, "CastTarget"}, {0x25, "CastSelfAlt"},
    {0x26, "CastTouchAlt"}, {0x27, "CastTargetAlt"}, {0x28, "JumpStart"}, {0x29, "JumpLoop"}, {0x2A, "JumpLand"}};

// Form type names the compiler accepts, with the engine's form type codes.
constexpr NamedCode kFormTypes[] = {
    {18, "Activator"}, {34, "Ammo"}, {65, "AnimObject"}, {19, "Apparatus"}, {20, "Armor"}, {21, "Book"},
    {22, "Clothing"}, {62, "CombatStyle"}, {23, "Container"}, {36, "Creature"}, {24, "Door"},
    {67, "EffectShader"}, {15, "Enchantment"}, {31, "Flora"}, {32, "Furniture"}, {29, "Grass"},
    {25, "Ingredient"}, {39, "Key"}, {14, "LandTexture"}, {37, "LeveledCreature"}, {43, "LeveledItem"},
    {64, "LeveledSpell"}, {26, "Light"}, {63, "LoadScreen"}, {27, "MiscItem"}, {35, "NPC"}, {40, "Potion"},
    {42, "SigilStone"}, {38, "SoulGem"}, {10, "Sound"}, {16, "Spell"}, {28, "Static"}, {41, "SubSpace"},
    {30, "Tree"}, {66, "WaterType"}, {33, "Weapon"}};

constexpr NamedCode kSexes[] = {{0, "Male"}, {1, "Female"}};
constexpr NamedCode kAxes[] = {{'X', "X"}, {'Y', "Y"}, {'Z', "Z"}};

std::span<const NamedCode> table(NamedParam kind) {
  switch (kind) {
    case NamedParam::ActorValue: return kActorValues;
    case NamedParam::AnimationGroup: return kAnimationGroups;
    case NamedParam::FormType: return kFormTypes;
    case NamedParam::Sex: return kSexes;
    case NamedParam::Axis: return kAxes;
  }
  return {};
}

}  // namespace

std::optional<std::string_view> param_value_name(NamedParam kind, std::uint16_t code) {
  for (const NamedCode& n : table(kind))
    if (n.code == code) return n.name;
  return std::nullopt;
}

std::optional<std::uint16_t> param_value_code(NamedParam kind, std::string_view name) {
  for (const NamedCode& n : table(kind))
    if (ascii::iequals(n.name, name)) return n.code;
  return std::nullopt;
}

}  // namespace tesmod::script
