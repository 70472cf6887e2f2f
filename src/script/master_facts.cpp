// Learning what missing masters would tell from a compiled script and its source (see
// master_facts.hpp): a placeholder compile of the source, paired with the stored code by the
// order in which both read their reference-list entries.
#include "tesmod/script/master_facts.hpp"

#include <fmt/format.h>

#include "compile_context.hpp"
#include "tesmod/error.hpp"
#include "tesmod/script/compiler.hpp"

namespace tesmod::script {

MasterFacts learn_master_facts(const ScriptData& compiled, const CompileOptions& options, std::size_t master_count) {
  MasterFacts out;
  if (!compiled.has_source || !compiled.has_bytecode) return out;
  MasterFacts placeholders;
  CompileOptions o = options;
  o.previous = nullptr;
  o.facts = nullptr;
  o.placeholders = &placeholders;
  o.unquoted_strings = true;  // the stored source, as the editor compiled it
  ScriptData learner;
  try {
    learner = compile(compiled.source, o).script;
  } catch (const CompileError& e) {
    out.problem = fmt::format("the source does not compile: line {}: {}", e.line(), e.message());
    return out;
  }
  if (placeholders.forms.empty() && placeholders.variables.empty()) return out;  // nothing to learn

  // Which placeholder is which name.
  std::map<std::uint32_t, std::string> form_names, variable_names;
  for (const auto& [name, f] : placeholders.forms) form_names[f.form_id] = name;
  for (const auto& [name, v] : placeholders.variables) variable_names[v.index] = name;

  detail::Hints mine, stored;
  try {
    mine = detail::collect_hints(learner, options.obse_plugins);
    stored = detail::collect_hints(compiled, options.obse_plugins);
  } catch (const Error& e) {
    out.problem = e.what();
    return out;
  }
  if (mine.uses.size() != stored.uses.size()) {
    out.problem = fmt::format("the source reads {} reference-list entries, the stored code {}", mine.uses.size(),
                              stored.uses.size());
    return out;
  }
  const auto conflict = [&](const std::string& name) {
    out = {};
    out.problem = fmt::format("'{}' stands for different things in the stored code", name);
  };
  for (std::size_t k = 0; k < mine.uses.size(); ++k) {
    const detail::Hints::Use& a = mine.uses[k];
    const detail::Hints::Use& b = stored.uses[k];
    if (a.ref_index == 0 || a.ref_index > learner.refs.size() || b.ref_index == 0 || b.ref_index > compiled.refs.size())
      continue;
    const ScriptRef& ea = learner.refs[a.ref_index - 1u];
    const ScriptRef& eb = compiled.refs[b.ref_index - 1u];
    if (ea.kind == ScriptRef::Kind::Object && eb.kind == ScriptRef::Kind::Object) {
      if (auto it = form_names.find(ea.value); it != form_names.end()) {
        if (!is_master_or_engine_form(eb.value, master_count)) {
          out = {};
          out.problem = fmt::format("'{}' pairs with {:08X}, which is not a form of a master", it->second, eb.value);
          return out;
        }
        const MasterFacts::Form fact{eb.value, b.global};
        auto [at, fresh] = out.forms.try_emplace(it->second, fact);
        if (!fresh && (at->second.form_id != fact.form_id || at->second.global != fact.global)) {
          conflict(it->second);
          return out;
        }
      }
    }
    if (a.remote && b.remote) {
      if (auto it = variable_names.find(a.var); it != variable_names.end()) {
        const MasterFacts::Variable fact{b.var, static_cast<std::uint8_t>(b.var_type)};
        auto [at, fresh] = out.variables.try_emplace(it->second, fact);
        if (!fresh && (at->second.index != fact.index || at->second.type != fact.type)) {
          conflict(it->second);
          return out;
        }
      }
    }
  }
  return out;
}

}  // namespace tesmod::script
