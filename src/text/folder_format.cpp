#include "folder_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "tesmod/io/ascii.hpp"

#include "record_text_common.hpp"
#include "tesmod/text/text_syntax.hpp"

namespace tesmod::text::detail {
namespace {

// Calls f(line, number) for every line.
template <class F>
void each_line(std::string_view text, F f) {
  std::uint32_t number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    if (!f(text.substr(pos, end - pos), ++number, pos)) return;
    pos = end + 1;
  }
}

void append_contents(std::string& out, const Contents& contents) {
  for (const std::string& name : contents) {
    out += name;
    out += '\n';
  }
}

}  // namespace

std::string plugin_file_text(const FolderSettings& s, std::string_view header_record_text, const Contents& top) {
  std::string out;
  out += fmt::format("# {} exported by tesmod. Read it back with: tesmod import DIR -o {}\n", s.plugin_name, s.plugin_name);
  out += "# Settings, the file header record, then the top-level groups in order. Files and folders not\n";
  out += "# listed are added at the end; listed ones that are missing are left out.\n";
  out += kFormatLine;
  out += '\n';
  out += fmt::format("game {}\n", game_id(s.game));
  out += fmt::format("plugin {}\n", s.plugin_name);
  out += fmt::format("encoding {}\n", s.encoding);
  if (s.game != Game::Oblivion) out += fmt::format("form-version {}\n", s.form_version);
  out += fmt::format("items {}\n\n", s.items);
  out += header_record_text;
  out += "\ncontents\n";
  append_contents(out, top);
  return out;
}

std::string group_file_text(const GroupHeader& header, Game game, const FormNamer& namer, const Contents& contents) {
  std::string out = "# This folder's group, then its contents in order (folders end in '/').\n";
  append_group_header(out, header, game, namer);
  out += '\n';
  append_contents(out, contents);
  return out;
}

namespace {

// OBSE variable types (MasterFacts::Variable::type) as names.txt writes them.
constexpr std::string_view kVariableTypes[] = {"float", "int", "string", "array", "ref"};

}  // namespace

std::string names_file_text(const std::map<std::string, std::uint32_t>& names, const script::MasterFacts& script_facts,
                            const FormNamer& file_namer) {
  std::string out = "# EditorIDs of master forms this text uses, so that it imports without the masters.\n";
  for (const auto& [name, form_id] : names) out += fmt::format("{} {}\n", name, file_namer.name(form_id));
  if (script_facts.forms.empty() && script_facts.variables.empty()) return out;
  out += "# What the scripts use of the masters, so that edited scripts compile without them: forms\n";
  out += "# (global: a global variable) and variables of master scripts (index and type).\n";
  for (const auto& [name, f] : script_facts.forms)
    out += fmt::format("script-form {} {}{}\n", name, file_namer.name(f.form_id), f.global ? " global" : "");
  for (const auto& [key, v] : script_facts.variables)
    if (v.type < std::size(kVariableTypes)) out += fmt::format("script-variable {} {} {}\n", key, v.index, kVariableTypes[v.type]);
  return out;
}

PluginFileParts parse_plugin_file(std::string_view text) {
  PluginFileParts parts;
  bool format_seen = false, game_seen = false, in_contents = false;
  std::size_t record_start = std::string_view::npos;
  std::size_t record_end = std::string_view::npos;
  each_line(text, [&](std::string_view raw, std::uint32_t number, std::size_t offset) {
    const std::string_view line = trim_line(raw);
    if (in_contents) {
      if (!line.empty() && line.front() != '#') parts.top.emplace_back(line);
      return true;
    }
    if (record_start != std::string_view::npos) {
      if (line == "contents") {
        record_end = offset;
        in_contents = true;
      }
      return true;
    }
    if (line.empty() || line.front() == '#') return true;
    LineScanner s(raw, number);
    const std::string_view key = s.word();
    if (key == "record") {
      if (!format_seen) s.fail_at(0, fmt::format("expected '{}' before the header record", kFormatLine));
      if (!game_seen) s.fail_at(0, "expected 'game oblivion|skyrim|skyrimse' before the header record");
      record_start = offset;
      parts.header_first_line = number;
      return true;
    }
    s.skip_blanks();
    const std::size_t value_at = s.position();  // errors in a value point at it
    if (key == "tesmod-text") {
      const std::string_view v = s.word();
      if (v != "1") s.fail_at(value_at, fmt::format("this folder was written in text format {}; this tesmod reads format 1", v));
      format_seen = true;
    } else if (key == "game") {
      const std::string_view v = s.word();
      const auto game = parse_game(v);
      if (!game) s.fail_at(value_at, fmt::format("unknown game '{}' (expected oblivion, skyrim or skyrimse)", v));
      parts.settings.game = *game;
      game_seen = true;
    } else if (key == "plugin") {
      parts.settings.plugin_name = std::string(trim_line(s.rest()));
      return true;
    } else if (key == "encoding") {
      parts.settings.encoding = std::string(s.expect_word("a code page name"));
    } else if (key == "form-version") {
      const auto v = parse_uint(s.word());
      if (!v || *v > 0xFFFF) s.fail_at(value_at, "expected a form version (0 to 65535)");
      parts.settings.form_version = std::uint16_t(*v);
    } else if (key == "items") {
      const auto v = parse_uint(s.word());
      if (!v) s.fail_at(value_at, "expected the number of groups and records");
      parts.settings.items = *v;
    } else {
      s.fail_at(0, fmt::format("unknown setting '{}' (expected tesmod-text, game, plugin, encoding, form-version, items or "
                               "the header record)", key));
    }
    s.expect_end();
    return true;
  });
  if (record_start == std::string_view::npos) throw SyntaxError(0, 0, "plugin.txt has no header record (record TES4 ...)");
  if (!in_contents) throw SyntaxError(0, 0, "plugin.txt has no 'contents' line after the header record");
  if (parts.settings.plugin_name.empty()) throw SyntaxError(0, 0, "plugin.txt does not name the plugin (plugin Name.esp)");
  parts.header_record = text.substr(record_start, record_end - record_start);
  return parts;
}

std::vector<std::string> file_list(const PluginFileParts& parts, const TextCodec& codec) {
  std::vector<std::string> files;
  each_line(parts.header_record, [&](std::string_view line, std::uint32_t number, std::size_t) {
    if (!trim_line(line).starts_with("MAST \"")) return true;
    LineScanner s(line, parts.header_first_line - 1 + number);
    s.word();
    files.push_back(s.quoted_string(codec));
    return true;
  });
  files.push_back(parts.settings.plugin_name);
  return files;
}

GroupFileParts parse_group_file(std::string_view text, Game game, const FormNamer& namer) {
  GroupFileParts parts;
  bool header_seen = false;
  each_line(text, [&](std::string_view raw, std::uint32_t number, std::size_t) {
    const std::string_view line = trim_line(raw);
    if (line.empty() || line.front() == '#') return true;
    if (!header_seen) {
      LineScanner s(raw, number);
      s.skip_blanks();
      if (!s.accept_word("group")) s.fail("expected the group line first (group TYPE LABEL)");
      s.seek(0);
      parts.header = parse_group_header(s, game, namer);
      s.expect_end();
      header_seen = true;
      return true;
    }
    parts.contents.emplace_back(line);
    return true;
  });
  if (!header_seen) throw SyntaxError(0, 0, "expected the group line (group TYPE LABEL)");
  return parts;
}

NamesFile parse_names_file(std::string_view text) {
  NamesFile names;
  each_line(text, [&](std::string_view raw, std::uint32_t number, std::size_t) {
    const std::string_view line = trim_line(raw);
    if (line.empty() || line.front() == '#') return true;
    LineScanner s(raw, number);
    if (s.accept_word("script-form")) {
      NamesFile::ScriptForm f;
      f.name = ascii::to_lower(s.expect_word("an EditorID"));
      f.form = std::string(s.form_reference());
      f.global = s.accept_word("global");
      names.script_forms.push_back(std::move(f));
    } else if (s.accept_word("script-variable")) {
      const std::string_view key = s.expect_word("OWNER.VARIABLE");
      if (key.find('.') == std::string_view::npos) s.fail("expected OWNER.VARIABLE");
      const auto index = parse_uint(s.expect_word("the variable's index"));
      if (!index || *index > 0xFFFFFFFF) s.fail("expected the variable's index");
      const std::string_view type = s.expect_word("the variable's type (float, int, string, array, ref)");
      const auto* found = std::find(std::begin(kVariableTypes), std::end(kVariableTypes), type);
      if (found == std::end(kVariableTypes)) s.fail("expected the variable's type (float, int, string, array, ref)");
      names.script_variables.emplace_back(ascii::to_lower(key),
                                          script::MasterFacts::Variable{std::uint32_t(*index),
                                                                        std::uint8_t(found - std::begin(kVariableTypes))});
    } else {
      const std::string_view name = s.expect_word("an EditorID");
      const std::string_view form = s.form_reference();
      names.forms.emplace_back(std::string(name), std::string(form));
    }
    s.expect_end();
    return true;
  });
  return names;
}

}  // namespace tesmod::text::detail
