#include "tesmod/script/obse_profile.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compile_context.hpp"
#include "lexer.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/script/command_table.hpp"

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

std::vector<std::string> alternate_builds_named_in(std::string_view source) {
  std::set<std::string> found;
  for (std::string_view line : detail::split_lines(source)) {
    std::vector<detail::Token> tokens;
    try {
      tokens = detail::tokenize(line);
    } catch (const std::exception&) {
      continue;  // a line the compiler would reject names nothing
    }
    for (const detail::Token& t : tokens) {
      if (!t.is_word() || find_command(t.text)) continue;
      for (std::string_view build : alternate_builds()) {
        const std::string b(build);
        if (find_command(t.text, std::span(&b, 1))) found.insert(b);
      }
    }
  }
  return {found.begin(), found.end()};
}

std::vector<std::string> obse_plugin_builds() {
  std::set<std::string> builds;
  for (const CommandInfo& c : all_commands())
    if (!c.plugin.empty()) builds.emplace(c.plugin);
  for (std::string_view b : alternate_builds()) builds.emplace(b);
  return {builds.begin(), builds.end()};
}

std::string find_obse_plugin_build(std::string_view text) {
  const std::vector<std::string> all = obse_plugin_builds();
  std::vector<std::string> matches;
  const std::string wanted = ascii::to_lower(text);
  for (const std::string& b : all) {
    const std::string lower = ascii::to_lower(b);
    if (lower == wanted) return b;
    if (!wanted.empty() && lower.find(wanted) != std::string::npos) matches.push_back(b);
  }
  if (matches.size() == 1) return matches.front();
  throw std::invalid_argument(fmt::format("'{}' {} OBSE plugin build; the builds are: {}", text,
                                          matches.empty() ? "names no" : "names more than one",
                                          fmt::join(matches.empty() ? all : matches, "; ")));
}

ObseEvidence obse_evidence(const ScriptData& script, std::span<const std::string> builds) {
  detail::Hints h = detail::collect_hints(script, builds);
  return {h.early_obse_strings, {h.obse_plugins.begin(), h.obse_plugins.end()}};
}

ObseEvidence obse_evidence(std::span<const PluginScript> scripts) {
  std::set<std::string> alternates;
  for (const PluginScript& s : scripts)
    if (!s.error && s.data.has_source)
      for (std::string& b : alternate_builds_named_in(s.data.source)) alternates.insert(std::move(b));
  const std::vector<std::string> chosen(alternates.begin(), alternates.end());

  ObseEvidence all;
  std::set<std::string> plugins(alternates);
  for (const PluginScript& s : scripts) {
    if (s.error) continue;
    ObseEvidence e = obse_evidence(s.data, chosen);
    all.early_strings = all.early_strings || e.early_strings;
    plugins.insert(e.plugins.begin(), e.plugins.end());
  }
  all.plugins.assign(plugins.begin(), plugins.end());
  return all;
}

}  // namespace tesmod::script
