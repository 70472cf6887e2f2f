#include "tesmod/script/plugin_master_facts.hpp"

#include <set>

#include "tesmod/script/compiler.hpp"
#include "tesmod/script/obse_profile.hpp"

namespace tesmod::script {
namespace {

// Adds a fact unless another script said otherwise; a disputed name stays out for good.
template <class Fact, class Same>
void merge(std::map<std::string, Fact>& into, std::set<std::string>& disputed, const std::string& name, const Fact& fact,
           Same same) {
  if (disputed.count(name)) return;
  auto [at, fresh] = into.try_emplace(name, fact);
  if (!fresh && !same(at->second, fact)) {
    into.erase(at);
    disputed.insert(name);
  }
}

}  // namespace

PluginMasterFacts plugin_master_facts(const PluginFile& file, std::span<const PluginScript> scripts,
                                      const NameSource& names, std::span<const std::string> builds) {
  PluginMasterFacts out;
  const std::size_t masters = file.header().masters.size();
  const auto is_master_form = [masters](std::uint32_t form_id) { return is_master_or_engine_form(form_id, masters); };
  const auto same_form = [](const MasterFacts::Form& a, const MasterFacts::Form& b) {
    return a.form_id == b.form_id && a.global == b.global;
  };
  const auto same_variable = [](const MasterFacts::Variable& a, const MasterFacts::Variable& b) {
    return a.index == b.index && a.type == b.type;
  };
  std::set<std::string> disputed;
  const auto add_forms = [&](const MasterFacts& from) {
    for (const auto& [name, fact] : from.forms)
      if (is_master_form(fact.form_id)) merge(out.facts.forms, disputed, name, fact, same_form);
  };
  // A variable is a master's when its owner names a master form (not a local ref variable,
  // whose name means something else in every script).
  const auto add_variables = [&](const MasterFacts& from) {
    for (const auto& [key, fact] : from.variables) {
      const auto owner = from.forms.find(key.substr(0, key.find('.')));
      if (owner != from.forms.end() && is_master_form(owner->second.form_id))
        merge(out.facts.variables, disputed, key, fact, same_variable);
    }
  };

  const ObseProfile profile = obse_evidence(scripts).early_strings ? ObseProfile::Early : ObseProfile::Current;
  for (const PluginScript& s : scripts) {
    if (s.error || !s.data.has_source) continue;
    CompileOptions o;
    o.names = &names;
    o.result_script = s.is_result_script();
    o.result_locals = o.result_script ? result_locals(s, names) : nullptr;
    o.type = static_cast<ScriptType>(s.data.header.type);
    o.obse_profile = profile;
    o.obse_plugins.assign(builds.begin(), builds.end());
    o.unquoted_strings = true;  // the stored source, as the editor compiled it
    const MasterFacts learned = learn_master_facts(s.data, o, masters);
    add_forms(learned);
    add_variables(learned);
    o.facts = &learned;
    try {
      const CompileResult r = compile(s.data.source, o);
      add_forms(r.names_used);
      add_variables(r.names_used);
    } catch (const CompileError&) {
      // A source that does not compile tells nothing more than what was learned.
    }
  }
  out.conflicts.assign(disputed.begin(), disputed.end());
  return out;
}

}  // namespace tesmod::script
