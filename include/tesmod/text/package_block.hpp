// AI packages (PACK) as the editable `package` block of the text export: one line per setting,
// each starting with a keyword, read back to the same fields byte for byte. The record writer
// renders the leading EDID and VMAD fields itself; the block holds the rest of the record.
//
// Skyrim, in record order (a line may not go back to an earlier section: header and public
// data, procedure tree, data input names, events):
//
//   type Package                                 PackageTemplate for a template
//   flags MustComplete|PreferredSpeed            by name, bits without one as 0x..., or none
//   interrupt-override None
//   preferred-speed Walk
//   interrupt-flags HellosToPlayer|RandomConversations|0xFC00
//   pkdt unused=6F unknown=4                     PKDT byte 7 and bytes 10-11, when not 0
//   schedule day=Morndas hour=8 minute=0 duration=7h unused=0A4465
//   condition GetStage(MyQuest) >= 10.0 OR       text/condition_text.hpp, one per line
//   idles flags=RunInSequence timer=2.5 IdleA IdleB
//   combat-style MyCombatStyle
//   owner-quest MyQuest
//   pkcu template=DefaultTravel version=5        inputs=N only when not the number of inputs
//   input 0 Location location NearReference MyMarker radius=500
//   input 1 SingleRef target SpecificReference PlayerRef count=0
//   input 2 Bool true                            Bool, Int, Float, ObjectList: the CNAM value
//   input 3 Topic topic Subtype "GBYE"           also: topic Dialogue X, topic-form X, cnam HEX
//   xnam 7
//   branch Simultaneous children=2               procedure tree (templates)
//     branch Procedure Travel flags=SuccessCompletesPackage inputs=0,2,none
//       condition GetIsID(Player) == 1.0         conditions of the branch line above
//   input-name 0 "Place to Travel" flags=1
//   on-begin idle NONE topic Dialogue NONE       also: script TYPE HEX, tnam N
//
// `input ID TYPE VALUE`: the ids (UNAM) pair with the inputs in order; `-` for an input without
// one, `input-id N` for ids beyond the inputs. A location or target value is a form when its
// type holds one, else a number (left out when 0).
//
// Oblivion, in any order: type, flags, pkdt [short] [unused=CDCDCD], location, schedule
// (duration in whole hours), target, condition lines.
//
// Schedule keys left out are "any" (`schedule any` when all are); durations are `7h`, `90min`,
// `7h30min`. Numbers are decimal or 0x hex; enumeration values without a name are numbers.
// What has no place above is written raw, as a field type and hex bytes (`xxxx=N` for a field
// stored with an XXXX size prefix): `raw-condition CTDA HEX CIS1 HEX` for a condition the
// condition text cannot carry, `unknown INDEX TYPE HEX` for a field tesmod does not know,
// `vmad HEX` and `editor-id "..."` when they stand inside the block, `pfo2 HEX` / `pfor HEX`
// after a branch. Blank lines and lines starting with # are ignored, and so is the indentation:
// the structure comes from the keywords.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "tesmod/fields/package.hpp"
#include "tesmod/fields/package_oblivion.hpp"
#include "tesmod/plugin/field.hpp"
#include "tesmod/text/block_text.hpp"
#include "tesmod/text/text_syntax.hpp"

namespace tesmod::text {

// Index of the first field that is neither EDID nor VMAD: where the package block starts.
std::size_t package_block_start(std::span<const Field> fields);

// Lines ending in '\n', nested levels indented by two spaces.
std::string package_block_text(const fields::Package& package, const BlockTextOptions& options);
// Raises SyntaxError (line 1 is the text's first line) for a line that does not parse, a form
// name options.namer does not know, or a line in the wrong section.
fields::Package parse_package_block(std::string_view text, const BlockTextOptions& options);

std::string oblivion_package_block_text(const fields::OblivionPackage& package, const BlockTextOptions& options);
fields::OblivionPackage parse_oblivion_package_block(std::string_view text, const BlockTextOptions& options);

}  // namespace tesmod::text
