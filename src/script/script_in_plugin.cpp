#include "tesmod/script/script_in_plugin.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <set>
#include <stdexcept>

#include "tesmod/io/ascii.hpp"
#include "tesmod/script/decompiler.hpp"
#include "tesmod/script/master_facts.hpp"
#include "tesmod/script/plugin_master_facts.hpp"
#include "tesmod/script/plugin_names.hpp"

namespace tesmod::script {

std::string script_type_name(const PluginScript& s) {
  if (s.error || !s.data.has_header) return "-";
  switch (static_cast<ScriptType>(s.data.header.type)) {
    case ScriptType::Object: return "object";
    case ScriptType::Quest: return "quest";
    case ScriptType::MagicEffect: return "magic-effect";
  }
  return fmt::format("0x{:X}", s.data.header.type);
}

std::optional<ScriptType> parse_script_type(std::string_view text) {
  if (ascii::iequals(text, "object")) return ScriptType::Object;
  if (ascii::iequals(text, "quest")) return ScriptType::Quest;
  if (ascii::iequals(text, "magic-effect") || ascii::iequals(text, "magiceffect")) return ScriptType::MagicEffect;
  return std::nullopt;
}

std::optional<std::string> script_name(std::string_view source) {
  std::size_t pos = 0;
  while (pos < source.size()) {
    std::size_t end = source.find('\n', pos);
    if (end == std::string_view::npos) end = source.size();
    std::string_view line = source.substr(pos, end - pos);
    pos = end + 1;
    line = line.substr(0, line.find(';'));
    auto word = [&line]() {
      const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
      while (!line.empty() && blank(line.front())) line.remove_prefix(1);
      std::size_t n = 0;
      while (n < line.size() && !blank(line[n])) ++n;
      std::string_view w = line.substr(0, n);
      line.remove_prefix(n);
      return w;
    };
    const std::string_view first = word();
    if (first.empty()) continue;
    if (!ascii::iequals(first, "scn") && !ascii::iequals(first, "scriptname")) return std::nullopt;
    const std::string_view name = word();
    if (name.empty()) return std::nullopt;
    return std::string(name);
  }
  return std::nullopt;
}

std::string with_crlf(std::string_view text) {
  if (text.find('\r') != std::string_view::npos) return std::string(text);
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

const PluginScript* find_scpt(std::span<const PluginScript> scripts, std::string_view editor_id) {
  for (const PluginScript& s : scripts)
    if (s.record_type == Signature("SCPT") && ascii::iequals(s.editor_id, editor_id)) return &s;
  return nullptr;
}

std::vector<std::string> obse_builds_for(std::span<const PluginScript> scripts, std::string_view source,
                                         std::span<const std::string> named) {
  std::set<std::string> builds;
  for (std::string& b : obse_evidence(scripts).plugins) builds.insert(std::move(b));
  for (std::string& b : alternate_builds_named_in(source)) builds.insert(std::move(b));
  for (const std::string& n : named) builds.insert(find_obse_plugin_build(n));
  return {builds.begin(), builds.end()};
}

std::string decompile_plugin_script(const PluginScript& s, const NameSource& names, std::span<const std::string> builds) {
  if (s.error) throw Error(s.where.file, s.where.offset, s.where.record, *s.error);
  DecompileOptions o;
  o.obse_plugins.assign(builds.begin(), builds.end());
  o.names = &names;
  o.script_name = s.is_result_script() ? std::string() : s.editor_id;
  o.where = s.where;
  o.bytecode_offset = s.bytecode_offset;
  return decompile(s.data, o);
}

CompileError with_masters_note(const CompileError& e, const PluginNames& names) {
  const std::vector<std::string>& missing = names.masters_missing();
  if (!e.unknown_name() || missing.empty()) return e;
  return CompileError(e.line(), e.column(),
                      fmt::format("{} ({} not at hand: give the folder that holds {} with --data)", e.message(),
                                  fmt::join(missing, ", "), missing.size() == 1 ? "it" : "them"),
                      true);
}

namespace {

// The SCPT with this EditorID in the plugin as it is now: compile_into_plugin may have added it,
// or replaced its fields, since the file was read.
Record* find_scpt_record(Plugin& plugin, std::string_view editor_id) {
  for (Node& n : plugin.top()) {
    if (!n.is_group() || n.group().label() != Signature("SCPT").value()) continue;
    for (Node& c : n.group().children)
      if (c.is_record() && c.record().type() == Signature("SCPT"))
        if (auto e = c.record().editor_id(); e && ascii::iequals(*e, editor_id)) return &c.record();
  }
  return nullptr;
}

}  // namespace

CompiledIntoPlugin compile_into_plugin(Plugin& plugin, const PluginFile& file, std::string_view source,
                                       const CompileIntoOptions& options) {
  CompiledIntoPlugin out;
  out.editor_id = options.editor_id;
  if (out.editor_id.empty()) {
    if (auto n = script_name(source)) out.editor_id = *n;
    else throw std::invalid_argument("the source has no ScriptName line; give the EditorID");
  }
  if (file.game() != Game::Oblivion)
    throw Error(file.name(), Error::kNoOffset, std::nullopt, "scripts can only be compiled into Oblivion plugins");
  const std::vector<PluginScript> scripts = plugin_scripts(file);
  if (const PluginScript* stored = find_scpt(scripts, out.editor_id); stored && stored->error)
    throw Error(stored->where.file, stored->where.offset, stored->where.record, *stored->error);
  const std::unique_ptr<PluginNames> names = PluginNames::build(file);

  // The script as the plugin holds it now (the previous compile).
  Record* record = find_scpt_record(plugin, out.editor_id);
  ScriptSpan span;
  ScriptData previous;
  if (record) {
    const std::vector<Field>& fields = record->fields();
    const std::vector<ScriptSpan> spans = find_scripts(fields);
    if (!spans.empty()) {
      span = spans.front();
      previous = decode_script(std::span(fields).subspan(span.first, span.last - span.first), record->context());
    } else {
      span = {fields.size(), fields.size()};
    }
  }
  CompileOptions o;
  o.names = names.get();
  o.previous = record ? &previous : nullptr;
  o.type = record ? static_cast<ScriptType>(previous.header.type) : options.type.value_or(ScriptType::Object);
  o.obse_profile = options.obse_profile;
  o.unquoted_strings = options.unquoted_strings;
  // The plugin's own scripts show which OBSE plugin builds it was made with.
  o.obse_plugins = obse_builds_for(scripts, source, options.obse_plugins);
  // Names of masters that are not at hand: what the plugin's stored scripts show of them.
  const PluginMasterFacts facts = plugin_master_facts(file, scripts, *names, o.obse_plugins);
  o.facts = &facts.facts;
  CompileResult r;
  try {
    r = compile(source, o);
  } catch (const CompileError& e) {
    throw with_masters_note(e, *names);
  }
  r.script.source = with_crlf(r.script.source);
  out.names_from_facts = r.hints_used;
  std::vector<Field> fields = encode_script(r.script);

  if (record) {
    out.form_id = record->form_id();
    out.replaced = true;
    std::vector<Field>& f = record->edit_fields();
    f.erase(f.begin() + std::ptrdiff_t(span.first), f.begin() + std::ptrdiff_t(span.last));
    f.insert(f.begin() + std::ptrdiff_t(span.first), fields.begin(), fields.end());
  } else {
    out.form_id = plugin.allocate_form_id();
    fields.insert(fields.begin(), Field::zstring("EDID", out.editor_id));
    plugin.add(Record("SCPT", out.form_id, std::move(fields)));
  }
  return out;
}

}  // namespace tesmod::script
