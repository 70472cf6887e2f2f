// A decoded VMAD as readable text and as JSON: scripts, properties as `type Name = value`,
// fragments with their script and function names, quest aliases with their scripts. FormIDs
// are named through a FormNamer; names and strings are converted from the plugin's code page.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "tesmod/fields/vmad.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/text/form_namer.hpp"

namespace tesmod::text {

struct VmadTextOptions {
  const FormNamer* namer = nullptr;  // required
  const TextCodec* codec = nullptr;  // required
  std::string indent;                // put before every line
};

// Lines ending in '\n'; values and statuses that differ from the usual ones are shown in
// parentheses. For example:
//   version 5, object format 2
//   script DSilHandQuestScript
//     object PlayerRef = 00000014
//     int[] Stages = [10, 20]
//     bool Done = false (removed)
//   QUST fragments in QF_DSilHand_0200A0B1
//     stage 10, log entry 0: QF_DSilHand_0200A0B1.Fragment_2
//   alias 3 of 0200A0B1
//     script DSilHandAliasScript
std::string vmad_text(const fields::Vmad& vmad, const VmadTextOptions& options);

// {"version", "object_format", "scripts": [{"name", "status", "properties": [{"name", "type",
// "status", "value"}]}], "fragments": {"record_type", "unknown", "file_name", "fragments": [...],
// and "aliases" (QUST) or "phases" (SCEN)}}, "fragments" only when stored. Each fragment entry
// holds its keys ("flag" and "event", "stage" and "log_entry", "index", "phase") and "fragment":
// {"unknown", "script", "function"}. Objects are {"form", "alias"} (plus "unused" when not
// zero); floats that are not finite are the strings "nan", "inf", "-inf".
nlohmann::ordered_json vmad_json(const fields::Vmad& vmad, const VmadTextOptions& options);

}  // namespace tesmod::text
