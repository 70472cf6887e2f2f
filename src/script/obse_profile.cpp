#include "tesmod/script/obse_profile.hpp"

#include "compile_context.hpp"

namespace tesmod::script {

std::string_view to_string(ObseProfile profile) { return profile == ObseProfile::Early ? "early" : "current"; }

bool parse_obse_profile(std::string_view text, ObseProfile& out) {
  if (text == "current") out = ObseProfile::Current;
  else if (text == "early") out = ObseProfile::Early;
  else return false;
  return true;
}

bool takes_no_arguments_in_early_obse(std::uint16_t opcode) {
  constexpr std::uint16_t kGetInputText = 0x1701;
  return opcode == kGetInputText;
}

ObseEvidence obse_evidence(const ScriptData& script) {
  detail::Hints h = detail::collect_hints(script);
  return {h.early_obse_strings, {h.obse_plugins.begin(), h.obse_plugins.end()}};
}

}  // namespace tesmod::script
