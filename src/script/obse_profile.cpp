#include "tesmod/script/obse_profile.hpp"

#include <set>

#include "compile_context.hpp"

namespace tesmod::script {

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

ObseEvidence obse_evidence(std::span<const PluginScript> scripts) {
  ObseEvidence all;
  std::set<std::string> plugins;
  for (const PluginScript& s : scripts) {
    if (s.error) continue;
    ObseEvidence e = obse_evidence(s.data);
    all.early_strings = all.early_strings || e.early_strings;
    plugins.insert(e.plugins.begin(), e.plugins.end());
  }
  all.plugins.assign(plugins.begin(), plugins.end());
  return all;
}

}  // namespace tesmod::script
