// A VMAD as the editable text inside a record file (`VMAD { ... }`): every value the model holds,
// read back to the same model, so that the bytes re-encode exactly. A QUST example:
//
//   version 5 object-format 2
//   script DSilHandQuestScript
//     object Gallows = "Dawn of the Silver Hand.esp":00008D92
//     int Stage = 2
//     float[] Delays = [1.5, 2.0]
//     bool Done = false status=removed
//     object Owner = alias 3 of DSilHandQuest
//   fragments QF_DSilHand_0200A0B1
//     stage 10 log 0 -> Fragment_2
//   alias 3 of DSilHandQuest
//     script DSilHandAliasScript
//
// One statement per line; the first word says what it is, so indentation is free and is only
// written to show nesting. Lines:
//   version V object-format F          first, if present (else 5 and 2)
//   script NAME [status=S]             a script of the record, or of the alias above it
//   TYPE NAME = VALUE [status=S]       a property of the script above; TYPE is object, string,
//                                      int, float or bool, with [] for arrays: [a, b, c]
//   fragments FILE [unknown=N]         the record type's fragment section (INFO PACK PERK QUST SCEN)
//   begin|end|change|flag N -> F       INFO, PACK and SCEN (change: PACK only; flag: any bit)
//   index N [unknown=N] -> F           PERK
//   stage N log N [unknown=N] -> F     QUST
//   phase N [unknown=N] -> F           SCEN, 0-based
//   alias N of QUEST [unused=N] [version=V] [object-format=F]
//                                      QUST: the scripts of one alias follow
// A fragment target is `FUNCTION [script=NAME] [unknown=N]`; script defaults to the section's
// file. Object values are a form (as the FormNamer names it), or `alias N of QUEST`, followed by
// `unused=N` when those bytes are not zero. Names are bare words of letters, digits and '_' or
// quoted strings; strings and floats follow text_syntax.hpp. Statuses: scripts `inherited` (1),
// `removed` (3); properties `removed` (3); any other number as is. Values that are the usual
// ones (status, unknown, unused, the alias's version) are not written. `#` starts a comment line.
#pragma once

#include <string>
#include <string_view>

#include "tesmod/fields/vmad.hpp"
#include "tesmod/plugin/signature.hpp"
#include "tesmod/text/block_text.hpp"
#include "tesmod/text/text_syntax.hpp"

namespace tesmod::text {

// Lines ending in '\n', nested levels indented by two spaces, no other indentation.
std::string vmad_block_text(const fields::Vmad& vmad, const BlockTextOptions& options);

// Reads the text back; record_type says which fragment section is allowed (INFO, PACK, PERK,
// QUST, SCEN). Throws SyntaxError with 1-based line (relative to the first line of text) and
// column. What the layout cannot store (an array before version 5 ...) is left to encode_vmad.
fields::Vmad parse_vmad_block(std::string_view text, Signature record_type, const BlockTextOptions& options);

}  // namespace tesmod::text
