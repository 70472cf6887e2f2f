// The statement layer of the compiler and the vanilla expression/argument encodings. Lines are
// compiled one at a time, as the Construction Set does; OBSE syntax is in obse_compile.cpp.
#include "tesmod/script/compiler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "bytecode.hpp"
#include "compile_context.hpp"
#include "param_names.hpp"
#include "tesmod/io/ascii.hpp"

namespace tesmod::script {

CompileError::CompileError(std::uint32_t line, std::uint32_t column, std::string message, bool unknown_name)
    : std::runtime_error("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message),
      line_(line), column_(column), message_(std::move(message)), unknown_name_(unknown_name) {}

namespace detail {

// ---------------------------------------------------------------------------------------------
// Context: locals, reference list, names

CompileContext::CompileContext(const CompileOptions& o) : options(o) {
  if (o.previous) {
    variable_count = o.previous->header.variable_count;
    refs = o.previous->refs;
    ref_keys.resize(refs.size());
  }
  if (o.result_script && o.result_locals) {
    // A result script sees its quest's variables as its own.
    for (const LocalVariable& v : o.result_locals->variables)
      locals.push_back({v.name, v.index, v.is_integer() ? ObseVarType::Integer : ObseVarType::Float});
  }
}

void CompileContext::fail(const Token& at, const std::string& message) const { fail(at.column, message); }
void CompileContext::fail(std::uint32_t column, const std::string& message) const {
  throw CompileError(line, column, message);
}
void CompileContext::fail_unknown(const Token& at, const std::string& message) const {
  throw CompileError(line, at.column, message, true);
}

const Local* CompileContext::local(std::string_view name) const {
  for (const Local& v : locals)
    if (ascii::iequals(v.name, name)) return &v;
  return nullptr;
}

std::optional<ObseVarType> declaration_type(const Token& k) {
  if (k.is("short") || k.is("long") || k.is("int")) return ObseVarType::Integer;
  if (k.is("float")) return ObseVarType::Float;
  if (k.is("ref") || k.is("reference")) return ObseVarType::Ref;
  if (k.is("string_var")) return ObseVarType::String;
  if (k.is("array_var")) return ObseVarType::Array;
  return std::nullopt;
}

void CompileContext::declare(const Token& keyword, const Token& name) {
  if (!name.is_word()) fail(name, "expected a variable name after " + std::string(keyword.text));
  const ObseVarType type = declaration_type(keyword).value_or(ObseVarType::Float);
  // The editor accepts a second declaration of a name (and names that are also commands).
  if (local(name.text)) return;
  Local v{std::string(name.text), 0, type};
  const LocalVariable* old = options.previous ? options.previous->variable(name.text) : nullptr;
  LocalVariable slsd;
  if (old) {
    // Recompiling keeps the variable's index and the bytes the editor never rewrites.
    slsd = *old;
    slsd.name = v.name;
    slsd.slsd[16] = v.integer() ? 1 : 0;
    v.index = old->index;
  } else {
    v.index = ++variable_count;
    slsd = LocalVariable::make(v.index, v.integer(), v.name);
  }
  if (v.index > variable_count) variable_count = v.index;
  locals.push_back(v);
  variables.push_back(std::move(slsd));
  // Ref variables enter the reference list when the first block begins (see begin()).
  if (type == ObseVarType::Ref && blocks_started) ref_for_local(locals.back());
}

std::uint16_t CompileContext::ref_entry(const std::string& key, ScriptRef entry) {
  for (std::size_t i = 0; i < refs.size(); ++i)
    if (ref_keys[i] == key) return static_cast<std::uint16_t>(i + 1);
  // Recompiling keeps the previous reference list: an entry for the same object is reused
  // where it stands, new ones go to the end. When two entries hold one object (`player` and
  // `PlayerRef` are both 0x14), names take them in list order as they first appear. (Which name
  // made which entry is history the list does not keep: see the README for what this costs.)
  for (std::size_t i = 0; i < refs.size(); ++i) {
    if (ref_keys[i].empty() && refs[i] == entry) {
      ref_keys[i] = key;
      return static_cast<std::uint16_t>(i + 1);
    }
  }
  refs.push_back(entry);
  ref_keys.push_back(key);
  return static_cast<std::uint16_t>(refs.size());
}

std::uint16_t CompileContext::ref_for_local(const Local& v) {
  return ref_entry("var:" + ascii::to_lower(v.name), {ScriptRef::Kind::Variable, v.index});
}

std::optional<std::uint32_t> CompileContext::form_escape(std::string_view w) {
  if (w.size() != 9 || w[0] != '@') return std::nullopt;
  std::uint32_t id = 0;
  auto [p, ec] = std::from_chars(w.data() + 1, w.data() + 9, id, 16);
  if (ec != std::errc() || p != w.data() + 9) return std::nullopt;
  return id;
}

bool CompileContext::bare_word_fits(std::uint8_t param_type, std::string_view word) {
  switch (param_type) {
    case param::kString: return true;
    case param::kActorValue: return param_value_code(NamedParam::ActorValue, word).has_value();
    case param::kAnimationGroup: return param_value_code(NamedParam::AnimationGroup, word).has_value();
    case param::kFormType: return param_value_code(NamedParam::FormType, word).has_value();
    case param::kSex: return param_value_code(NamedParam::Sex, word).has_value();
    case param::kAxis: return param_value_code(NamedParam::Axis, word).has_value();
    default: return false;
  }
}

bool CompileContext::knows_form(std::string_view name) const {
  if (options.names && options.names->find(name)) return true;
  return options.facts && options.facts->forms.count(ascii::to_lower(name));
}

bool CompileContext::unquoted_string_allowed(std::string_view text) const {
  if (options.unquoted_strings) return true;
  if (!options.previous || text.size() > 0xFFFF) return false;
  // An OBSE string token: 'S', u16 length, the text.
  std::string token(1, char(obse_token::kString));
  token += char(text.size() & 0xFF);
  token += char(text.size() >> 8);
  token += text;
  const std::vector<std::uint8_t>& code = options.previous->bytecode;
  return std::search(code.begin(), code.end(), token.begin(), token.end()) != code.end();
}

void CompileContext::count_fact(const std::string& what) {
  if (facts_counted_.insert(what).second) ++hints_used;
}

std::optional<Resolved> CompileContext::form(const Token& name, bool obse_calling) {
  Resolved r;
  std::string key = ascii::to_lower(name.text);
  std::optional<std::uint32_t> id;
  bool global = false;
  if (key == "player" || key == "playerref") {
    id = kPlayerRef;
    if (obse_calling) key = "playerref";
    // An OBSE bare `player` may have made the entry of that name the Player base form; the
    // reference then gets an entry of its own. (Whether the editor does the same is not known:
    // no script seen has a vanilla `player` after such a bare one.)
    if (key == "player")
      for (std::size_t i = 0; i < refs.size(); ++i)
        if (ref_keys[i] == "player" && refs[i].value == kPlayerBase) key = "player:reference";
  } else if (auto esc = form_escape(name.text)) {
    id = *esc;
    key = fmt::format("@{:08x}", *esc);
    if (options.names)
      if (auto info = options.names->form(*esc)) global = info->type == Signature("GLOB");
    if (!global && options.facts)
      // A master's global by FormID: the master would tell that it is one.
      for (const auto& [fact_name, fact] : options.facts->forms)
        if (fact.form_id == *esc && fact.global) {
          global = true;
          count_fact("global:" + fact_name);
          break;
        }
  } else if (options.names) {
    if (auto info = options.names->find(name.text)) {
      id = info->form_id;
      global = info->type == Signature("GLOB");
    }
  }
  if (!id && options.facts) {
    // A name of a master that is not at hand.
    if (auto it = options.facts->forms.find(key); it != options.facts->forms.end()) {
      id = it->second.form_id;
      global = it->second.global;
      count_fact("form:" + key);
      if (global) count_fact("global:" + key);
    }
  }
  if (!id && options.placeholders) {
    auto [it, fresh] = options.placeholders->forms.try_emplace(key);
    if (fresh) it->second.form_id = kPlaceholderForm + std::uint32_t(options.placeholders->forms.size());
    id = it->second.form_id;
    r.placeholder = true;
  }
  if (!id) return std::nullopt;
  if (!r.placeholder && key != "player" && key != "playerref" && !key.starts_with('@'))
    names_used.forms.try_emplace(key, MasterFacts::Form{*id, global});
  r.ref_index = ref_entry(key, {ScriptRef::Kind::Object, *id});
  r.form_id = *id;
  r.kind = global ? Resolved::Kind::Global : Resolved::Kind::Form;
  return r;
}

std::uint16_t CompileContext::obse_bare_player() {
  for (std::size_t i = 0; i < refs.size(); ++i)
    if (ref_keys[i] == "player") return static_cast<std::uint16_t>(i + 1);
  // A recompile keeps the previous list, but not the names its entries were made under: an
  // entry for the Player base form can only be one a bare `player` made; else an entry for the
  // player's reference may well be the one vanilla `player` made (compile_context.hpp).
  const ScriptRef base{ScriptRef::Kind::Object, kPlayerBase}, reference{ScriptRef::Kind::Object, kPlayerRef};
  for (const ScriptRef& kept : {base, reference})
    for (std::size_t i = 0; i < refs.size(); ++i)
      if (ref_keys[i].empty() && refs[i] == kept) {
        ref_keys[i] = "player";
        return static_cast<std::uint16_t>(i + 1);
      }
  return ref_entry("player", base);
}

Resolved CompileContext::resolve(const Token& name, bool obse_calling) {
  Resolved r;
  if (!name.is_word()) return r;
  if (const Local* v = local(name.text)) {
    r.kind = Resolved::Kind::Local;
    r.local = v;
    return r;
  }
  if (const CommandInfo* cmd = command(name.text)) {
    // A form whose EditorID is also a command name loses to the command, as in the editor.
    r.kind = Resolved::Kind::Command;
    r.command = cmd;
    return r;
  }
  if (auto f = form(name, obse_calling)) return *f;
  return r;
}

namespace {

// `keyword name` at the start of a line (after blanks); empty views otherwise. Cheaper than a
// full tokenize of every line of a long script, most of which are not declarations.
std::pair<std::string_view, std::string_view> declaration_words(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_blank(line[i])) ++i;
  std::size_t k = i;
  while (k < line.size() && is_word_char(line[k])) ++k;
  std::size_t n = k;
  while (n < line.size() && is_blank(line[n])) ++n;
  if (k == i || n == k) return {};
  return {line.substr(i, k - i), line.substr(n)};
}

}  // namespace

std::optional<ObseVarType> CompileContext::declared_type(const ScriptData& s, std::string_view var) {
  auto [it, fresh] = declared_types.try_emplace(&s);
  if (fresh) {
    std::string_view rest = s.source;
    while (!rest.empty()) {
      const std::size_t eol = std::min(rest.find('\n'), rest.size());
      const auto [keyword, after] = declaration_words(rest.substr(0, eol));
      rest.remove_prefix(std::min(eol + 1, rest.size()));
      if (keyword.empty()) continue;
      const std::optional<ObseVarType> type = declaration_type(Token{TokenKind::Word, keyword, 1, 1});
      if (!type) continue;
      const auto name = tokenize(after);
      if (name[0].is_word()) it->second.try_emplace(ascii::to_lower(name[0].text), *type);
    }
  }
  auto found = it->second.find(ascii::to_lower(var));
  if (found == it->second.end()) return std::nullopt;
  return found->second;
}

std::uint16_t CompileContext::owner_entry(const Resolved& owner, const Token& owner_token) {
  if (owner.kind == Resolved::Kind::Local) {
    if (owner.local->type != ObseVarType::Ref)
      fail(owner_token, fmt::format("'{}' is not a ref variable", owner_token.text));
    return ref_for_local(*owner.local);
  }
  if (owner.kind == Resolved::Kind::Form || owner.kind == Resolved::Kind::Global) return owner.ref_index;
  fail_unknown(owner_token, fmt::format("unknown reference '{}'", owner_token.text));
}

RemoteVar CompileContext::remote_var(const Resolved& owner, const Token& owner_token, const Token& var) {
  RemoteVar rv;
  rv.ref_index = owner_entry(owner, owner_token);
  // Escape from the decompiler: @s5 / @f5 (vanilla) or @t5, @a5, @r5 (OBSE types).
  if (var.text.size() >= 3 && var.text[0] == '@') {
    const char k = static_cast<char>(ascii::to_lower(var.text.substr(1, 1))[0]);
    std::uint32_t idx = 0;
    auto [p, ec] = std::from_chars(var.text.data() + 2, var.text.data() + var.text.size(), idx);
    if (ec == std::errc() && p == var.text.data() + var.text.size()) {
      rv.index = idx;
      rv.type = k == 's' ? ObseVarType::Integer : k == 't' ? ObseVarType::String : k == 'a' ? ObseVarType::Array
                : k == 'r' ? ObseVarType::Ref : ObseVarType::Float;
      return rv;
    }
  }
  // The owner's script, when it can be found.
  if (owner.kind != Resolved::Kind::Local && options.names) {
    if (auto info = options.names->form(owner.form_id); info && info->script) {
      if (const ScriptData* s = options.names->script(info->script)) {
        if (const LocalVariable* v = s->variable(var.text)) {
          rv.index = v->index;
          rv.type = declared_type(*s, var.text).value_or(v->is_integer() ? ObseVarType::Integer : ObseVarType::Float);
          names_used.variables.try_emplace(ascii::to_lower(owner_token.text) + "." + ascii::to_lower(var.text),
                                           MasterFacts::Variable{rv.index, static_cast<std::uint8_t>(rv.type)});
          return rv;
        }
        fail(var, fmt::format("'{}' is not a variable of the script of '{}'", var.text, owner_token.text));
      }
    }
  }
  const std::string key = ascii::to_lower(owner_token.text) + "." + ascii::to_lower(var.text);
  if (options.facts) {
    // A variable of a master's script that is not at hand.
    if (auto it = options.facts->variables.find(key); it != options.facts->variables.end()) {
      rv.index = it->second.index;
      rv.type = static_cast<ObseVarType>(it->second.type);
      count_fact("var:" + key);
      if (owner.kind != Resolved::Kind::Local) names_used.variables.try_emplace(key, it->second);
      return rv;
    }
  }
  if (options.placeholders) {
    auto [it, fresh] = options.placeholders->variables.try_emplace(key);
    if (fresh) it->second.index = kPlaceholderVariable + std::uint32_t(options.placeholders->variables.size());
    rv.index = it->second.index;
    return rv;
  }
  fail_unknown(var, fmt::format("cannot find the variable '{}' of '{}' (its script is not available)", var.text, owner_token.text));
}

std::string obse_string(std::string_view text, ObseProfile profile) {
  if (profile == ObseProfile::Early) return std::string(text);
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 1 < text.size()) {
      char n = text[i + 1];
      if (n == 'r' || n == 'R') {
        out += '\n';
        ++i;
        continue;
      }
      if (n == 'q' || n == 'Q') {
        out += '"';
        ++i;
        continue;
      }
      if (n == '%') {
        out += "%%";
        ++i;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Vanilla arguments

namespace {

bool is_number_start(const Tokens& t) {
  return t.peek().kind == TokenKind::Number ||
         (t.peek().is("-") && t.peek(1).kind == TokenKind::Number && t.peek(1).column == t.peek().column + 1);
}

// A number's integer value, truncated as a C cast truncates it; source may write more digits
// than the type holds, where the cast is undefined: such numbers are held to the type's range.
std::int32_t int32_value(double v) {
  if (v <= -2147483649.0) return std::numeric_limits<std::int32_t>::min();
  if (v >= 2147483648.0) return std::numeric_limits<std::int32_t>::max();
  return static_cast<std::int32_t>(v);
}
std::uint32_t uint32_value(double v) {
  if (v <= -1.0) return 0;
  if (v >= 4294967295.0) return std::numeric_limits<std::uint32_t>::max();
  return static_cast<std::uint32_t>(v);
}

// Reads a possibly negative number: its text and value.
std::pair<std::string, double> read_number(Tokens& t) {
  std::string text;
  if (t.peek().is("-")) {
    t.next();
    text = "-";
  }
  text += t.next().text;
  return {text, std::strtod(text.c_str(), nullptr)};
}

// A variable as a vanilla argument or message variable: local, global or ref.var.
bool vanilla_variable(CompileContext& c, Tokens& t, Bytes& out) {
  const Token& name = t.peek();
  if (!name.is_word()) return false;
  if (t.peek(1).is(".") && t.peek(2).is_word()) {
    Resolved owner = c.resolve(name, false);
    if (owner.kind == Resolved::Kind::Command || owner.kind == Resolved::Kind::None) return false;
    const Token& var = t.peek(2);
    RemoteVar rv = c.remote_var(owner, name, var);
    t.next(), t.next(), t.next();
    out.u8(op::kRefPrefix);
    out.u16(rv.ref_index);
    out.u8(vanilla_code(rv.type));
    out.u16(static_cast<std::uint16_t>(rv.index));
    return true;
  }
  if (const Local* v = c.local(name.text)) {
    t.next();
    out.u8(v->vanilla_code());
    out.u16(static_cast<std::uint16_t>(v->index));
    return true;
  }
  return false;
}

// `$name` or `$quest.name`: OBSE reads the string variable at run time; the text is kept as is.
bool is_string_var_text(const Tokens& t) {
  return t.peek().is("$") && t.peek(1).is_word() && t.peek(1).column == t.peek().column + 1;
}

std::string take_string_var_text(Tokens& t) {
  const Token& dollar = t.next();
  const char* begin = dollar.text.data();
  const Token* last = &t.next();
  while (t.peek().is(".") && t.peek(1).is_word() && t.peek().column == last->column + last->text.size()) {
    t.next();
    last = &t.next();
  }
  return std::string(begin, last->text.data() + last->text.size());
}

bool argument_end(const Tokens& t) {
  const Token& p = t.peek();
  if (p.kind == TokenKind::End) return true;
  if (is_string_var_text(t)) return false;
  if (p.kind == TokenKind::Operator && !p.is(",") && !is_number_start(t)) return true;
  return false;
}

void form_argument(CompileContext& c, Tokens& t, Bytes& out, const CommandInfo& cmd) {
  const Token& name = t.next();
  if (name.kind == TokenKind::Number) {
    // The editor reads a number given for an object as a FormID in hex.
    std::uint32_t id = 0;
    auto [p, ec] = std::from_chars(name.text.data(), name.text.data() + name.text.size(), id, 16);
    if (ec != std::errc() || p != name.text.data() + name.text.size()) c.fail(name, "expected a FormID in hex");
    out.u8(op::kRefPrefix);
    out.u16(c.ref_entry(fmt::format("@{:08x}", id), {ScriptRef::Kind::Object, id}));
    return;
  }
  if (!name.is_word()) c.fail(name, fmt::format("{} expects an object here", cmd.name));
  if (!c.local(name.text) && !c.knows_form(name.text)) {
    // So is a word of hex digits (`PlaceAtMe 010117f7`) that no form has as its EditorID, when
    // it is the FormID of a form at hand: with a master missing, `Beef` may be its EditorID.
    std::uint32_t id = 0;
    auto [p, ec] = std::from_chars(name.text.data(), name.text.data() + name.text.size(), id, 16);
    if (ec == std::errc() && p == name.text.data() + name.text.size() && name.text.size() <= 8 && c.options.names &&
        c.options.names->form(id)) {
      out.u8(op::kRefPrefix);
      out.u16(c.ref_entry(fmt::format("@{:08x}", id), {ScriptRef::Kind::Object, id}));
      return;
    }
  }
  if (const Local* v = c.local(name.text)) {
    if (v->type != ObseVarType::Ref) c.fail(name, fmt::format("'{}' is not a ref variable", name.text));
    out.u8(op::kRefPrefix);
    out.u16(c.ref_for_local(*v));
    return;
  }
  auto f = c.form(name, false);
  if (!f) c.fail_unknown(name, fmt::format("unknown object '{}' (no form with that EditorID)", name.text));
  out.u8(op::kRefPrefix);
  out.u16(f->ref_index);
}

void one_argument(CompileContext& c, Tokens& t, const CommandInfo& cmd, std::uint8_t type, Bytes& out) {
  const Token& tok = t.peek();
  auto named = [&](NamedParam kind, const char* what, bool byte) {
    const Token& w = t.next();
    auto code = param_value_code(kind, w.kind == TokenKind::String || w.is_word() ? w.text : std::string_view{});
    if (!code) c.fail(w, fmt::format("{} expects {} here, found '{}'", cmd.name, what, w.text));
    if (byte) out.u8(static_cast<std::uint8_t>(*code));
    else out.u16(*code);
  };
  switch (type) {
    case param::kString: {
      if (is_string_var_text(t)) {
        std::string text = take_string_var_text(t);
        out.u16(static_cast<std::uint16_t>(text.size()));
        out.text(text);
        return;
      }
      const Token& s = t.next();
      std::string text = s.kind == TokenKind::String ? obse_string(s.text, c.options.obse_profile) : std::string(s.text);
      out.u16(static_cast<std::uint16_t>(text.size()));
      out.text(text);
      return;
    }
    case param::kActorValue: return named(NamedParam::ActorValue, "an actor value", false);
    case param::kAnimationGroup: return named(NamedParam::AnimationGroup, "an animation group", false);
    case param::kFormType: return named(NamedParam::FormType, "a form type", false);
    case param::kSex: return named(NamedParam::Sex, "Male or Female", false);
    case param::kAxis: return named(NamedParam::Axis, "X, Y or Z", true);
    case param::kCrimeType: {
      if (!is_number_start(t)) c.fail(tok, fmt::format("{} expects a crime type number", cmd.name));
      out.u16(static_cast<std::uint16_t>(int32_value(read_number(t).second)));  // -1 is 0xFFFF
      return;
    }
    case param::kInteger:
    case param::kFloat:
    case param::kQuestStage: {
      if (is_number_start(t)) {
        auto [text, value] = read_number(t);
        if (type == param::kFloat) {
          out.u8(op::kDouble);
          out.f64(value);
        } else {
          out.u8(op::kLong);
          out.u32(static_cast<std::uint32_t>(int32_value(value)));
        }
        return;
      }
      if (vanilla_variable(c, t, out)) return;
      if (tok.is_word()) {
        auto f = c.form(tok, false);
        if (f && (f->kind == Resolved::Kind::Global || f->placeholder)) {
          t.next();
          out.u8(op::kGlobal);
          out.u16(f->ref_index);
          return;
        }
        if (!f && !c.command(tok.text))
          c.fail_unknown(tok, fmt::format("unknown name '{}' ({} expects a number or variable here)", tok.text, cmd.name));
      }
      c.fail(tok, fmt::format("{} expects a number or variable here, found '{}'", cmd.name, tok.text));
    }
    default: return form_argument(c, t, out, cmd);
  }
}

}  // namespace

void vanilla_arguments(CompileContext& c, Tokens& t, const CommandInfo& cmd, Bytes& out, bool always_count) {
  auto params = cmd.params();
  if (c.options.obse_profile == ObseProfile::Early && takes_no_arguments_in_early_obse(cmd.opcode)) {
    // No parameter list at all: not even the argument count is written.
    return;
  }
  if (params.empty() && !always_count) return;  // the editor does not call the parser then
  if (c.expression_args && cmd.kind != CommandKind::Plugin) {
    // Compiler override: OBSE's hook of the default parser writes the mode, then parses the
    // arguments as OBSE expressions. Commands of plugins built before OBSE v0020 keep the
    // vanilla parser (Cmd_Plugin_Default_Parse); which plugin build a script used is not
    // known here, so plugin commands are taken to be of those.
    out.u16(c.expression_args_mode);
    obse_argument_list(c, t, params, out);
    return;
  }
  if (params.empty()) {
    out.u16(0);
    return;
  }
  Bytes args;
  std::uint16_t count = 0;
  for (const ParamSpec& p : params) {
    while (t.peek().is(",")) t.next();
    if (argument_end(t)) break;
    one_argument(c, t, cmd, p.type, args);
    ++count;
  }
  out.u16(count);
  out.append(args);
}

// ---------------------------------------------------------------------------------------------
// Vanilla expressions: infix to postfix, every token after a space

namespace {

struct VanillaOp {
  std::string_view text;
  int precedence;
};
constexpr VanillaOp kVanillaOps[] = {{"||", 1}, {"&&", 2}, {"==", 3}, {"!=", 3}, {">", 4}, {"<", 4}, {">=", 4},
                                     {"<=", 4}, {"+", 5},  {"-", 5},  {"*", 6},  {"/", 6},  {"%", 6}};
constexpr int kUnaryMinus = 7;

const VanillaOp* vanilla_op(const Token& t) {
  if (t.kind != TokenKind::Operator) return nullptr;
  for (const VanillaOp& o : kVanillaOps)
    if (o.text == t.text) return &o;
  return nullptr;
}

// A call inside an expression: 'X' opcode, u16 length (not counting itself), arguments.
void expression_call(CompileContext& c, Tokens& t, const Token& name, const CommandInfo& cmd, Bytes& out) {
  // Statements of their own have no value; let's expression would also have to end the line
  // (`x + let y := 1`), which no decompiled text can keep once it is an operand.
  if (cmd.parse == ParseStyle::Let || cmd.parse == ParseStyle::BeginLoop || cmd.parse == ParseStyle::Loop ||
      cmd.parse == ParseStyle::Null)
    c.fail(name, fmt::format("{} is a statement, not a value", name.text));
  Bytes args;
  if (cmd.parse == ParseStyle::Default) vanilla_arguments(c, t, cmd, args, false);
  else obse_arguments(c, t, cmd, args);
  out.u8(op::kCall);
  out.u16(cmd.opcode);
  out.u16(static_cast<std::uint16_t>(args.size()));
  out.append(args);
}

void vanilla_operand(CompileContext& c, Tokens& t, Bytes& out) {
  const Token& tok = t.peek();
  out.u8(op::kPush);
  if (tok.kind == TokenKind::Number) {
    out.text(t.next().text);
    return;
  }
  if (!tok.is_word()) c.fail(tok, fmt::format("expected a value, found '{}'", tok.text));
  if (t.peek(1).is(".") && t.peek(2).is_word()) {
    const Token& owner_tok = t.next();
    t.next();
    const Token& member = t.next();
    Resolved owner = c.resolve(owner_tok, false);
    if (const CommandInfo* cmd = c.command(member.text)) {
      out.u8(op::kRefPrefix);
      out.u16(c.owner_entry(owner, owner_tok));
      expression_call(c, t, member, *cmd, out);
      return;
    }
    RemoteVar rv = c.remote_var(owner, owner_tok, member);
    out.u8(op::kRefPrefix);
    out.u16(rv.ref_index);
    out.u8(vanilla_code(rv.type));
    out.u16(static_cast<std::uint16_t>(rv.index));
    return;
  }
  const Token& name = t.next();
  Resolved r = c.resolve(name, false);
  switch (r.kind) {
    case Resolved::Kind::Local:
      out.u8(r.local->vanilla_code());
      out.u16(static_cast<std::uint16_t>(r.local->index));
      return;
    case Resolved::Kind::Command: return expression_call(c, t, name, *r.command, out);
    case Resolved::Kind::Global:
      out.u8(op::kGlobal);
      out.u16(r.ref_index);
      return;
    case Resolved::Kind::Form:
      out.u8(op::kReference);
      out.u16(r.ref_index);
      return;
    case Resolved::Kind::None: c.fail_unknown(name, fmt::format("unknown name '{}'", name.text));
  }
}

}  // namespace

void vanilla_expression(CompileContext& c, Tokens& t, Bytes& out) {
  struct Pending {
    std::string_view text;
    int precedence;  // 0: '('
  };
  std::vector<Pending> ops;
  bool expect_operand = true;
  auto emit = [&](const Pending& p) {
    out.u8(op::kPush);
    out.text(p.precedence == kUnaryMinus ? "~" : p.text);
  };
  while (true) {
    const Token& tok = t.peek();
    if (tok.kind == TokenKind::End) break;
    if (expect_operand) {
      if (tok.is("(")) {
        t.next();
        ops.push_back({"(", 0});
        continue;
      }
      if (tok.is("-")) {
        t.next();
        ops.push_back({"-", kUnaryMinus});
        continue;
      }
      vanilla_operand(c, t, out);
      expect_operand = false;
      continue;
    }
    if (tok.is(")")) {
      bool found = false;
      while (!ops.empty()) {
        Pending p = ops.back();
        ops.pop_back();
        if (p.precedence == 0) {
          found = true;
          break;
        }
        emit(p);
      }
      if (!found) c.fail(tok, "')' without a matching '('");
      t.next();
      continue;
    }
    const VanillaOp* o = vanilla_op(tok);
    if (!o) c.fail(tok, fmt::format("expected an operator or the end of the expression, found '{}'", tok.text));
    t.next();
    while (!ops.empty() && ops.back().precedence != 0 && ops.back().precedence >= o->precedence) {
      emit(ops.back());
      ops.pop_back();
    }
    ops.push_back({o->text, o->precedence});
    expect_operand = true;
  }
  if (expect_operand) c.fail(t.peek(), "expression ends where a value was expected");
  while (!ops.empty()) {
    if (ops.back().precedence == 0) c.fail(t.peek(), "'(' without a matching ')'");
    emit(ops.back());
    ops.pop_back();
  }
}

// ---------------------------------------------------------------------------------------------
// Statements

namespace {

struct OpenIf {
  std::size_t jump_at;       // where the jump field of the If/ElseIf/Else is
  std::size_t statement;     // its statement number
};
struct OpenLoop {
  std::size_t offset_at;  // where while/foreach keeps the loop's end offset
};

class StatementCompiler {
 public:
  StatementCompiler(CompileContext& c) : c_(c) {}

  ScriptData run(std::string_view source) {
    for (std::string_view line : split_lines(source)) {
      ++c_.line;
      Tokens t{tokenize(line)};
      if (!t.at_end()) statement(t);
    }
    if (block_start_) c_.fail(1, "the script ends inside a Begin block (End is missing)");
    if (!ifs_.empty()) c_.fail(1, "the script ends inside an If block (EndIf is missing)");
    ScriptData s;
    s.header.type = static_cast<std::uint32_t>(c_.options.previous ? ScriptType(c_.options.previous->header.type)
                                                                   : c_.options.type);
    s.bytecode = std::move(code_.b);
    s.header.compiled_size = static_cast<std::uint32_t>(s.bytecode.size());
    s.source = std::string(source);
    s.variables = std::move(c_.variables);
    if (const ScriptData* prev = c_.options.previous) keep_previous_order(s.variables, *prev);
    s.refs = std::move(c_.refs);
    s.header.ref_count = static_cast<std::uint32_t>(s.refs.size());
    s.header.variable_count = c_.variable_count;
    // Empty result scripts are stored as SCHR alone.
    if (const ScriptData* prev = c_.options.previous) {
      if (s.bytecode.empty() && !prev->has_bytecode) s.has_bytecode = false;
      if (s.source.empty() && !prev->has_source) s.has_source = false;
    }
    return s;
  }

 private:
  // Recompiling keeps the editor's variable list: variables it already held stay in their
  // places (SLSD order), new ones follow in declaration order. A source whose declarations were
  // reordered after a compile therefore keeps the old SLSD order.
  static void keep_previous_order(std::vector<LocalVariable>& vars, const ScriptData& previous) {
    const auto place = [&](const LocalVariable& v) {
      for (std::size_t i = 0; i < previous.variables.size(); ++i)
        if (ascii::iequals(previous.variables[i].name, v.name)) return i;
      return previous.variables.size();
    };
    std::stable_sort(vars.begin(), vars.end(),
                     [&](const LocalVariable& a, const LocalVariable& b) { return place(a) < place(b); });
  }

  // Writes a statement's length (its bytes after the length field). Every length inside a
  // statement counts a part of it, so a statement that fits has parts that fit.
  void patch_length(std::size_t len_at) {
    const std::size_t length = code_.size() - len_at - 2;
    if (length > 0xFFFF) c_.fail(1, fmt::format("the statement compiles to {} bytes; one holds at most 65535", length));
    code_.patch16(len_at, static_cast<std::uint16_t>(length));
  }

  // Starts a counted statement.
  void begin_statement() {
    if (!c_.options.result_script && !block_start_)
      c_.fail(1, "code outside a Begin/End block");
    ++statements_;
  }

  void statement(Tokens& t) {
    const Token& first = t.peek();
    if (!first.is_word()) c_.fail(first, fmt::format("a statement cannot start with '{}'", first.text));
    if (first.is("scn") || first.is("scriptname")) {
      // Only the first statement: a ScriptName later in the code is one the decompiler reads as
      // damage (and a second name for one script).
      if (code_.size() != 0) c_.fail(first, "ScriptName after the start of the script");
      t.next();
      code_.u16(op::kScriptName);
      code_.u16(0);
      return;
    }
    // `ref.AddItem x`: a local may be named like a type keyword (`ref ref`); the editor reads
    // `ref.AddItem` as one dotted word, so only a keyword followed by a blank declares.
    if (declaration_type(first) && !t.peek(1).is(".")) {
      const Token& kw = t.next();
      c_.declare(kw, t.next());
      return;
    }
    if (first.is("begin")) return begin(t);
    if (first.is("end")) return end(t);
    if (first.is("if") || first.is("elseif")) return if_statement(t);
    if (first.is("else")) return else_statement(t);
    if (first.is("endif")) return endif_statement(t);
    if (first.is("set")) return set_statement(t);
    if (first.is("return")) {
      t.next();
      begin_statement();
      code_.u16(op::kReturn);
      code_.u16(0);
      return;
    }
    command_statement(t);
  }

  void begin(Tokens& t) {
    const Token& kw = t.next();
    if (block_start_) c_.fail(kw, "Begin inside another block (End is missing)");
    const Token& name = t.next();
    // `Begin _GameMode`: OBSE's compiler override for this block (see op::kOverrideCommand).
    std::string_view block_name = name.is_word() ? name.text : std::string_view{};
    c_.expression_args = block_name.size() > 1 && block_name[0] == '_';
    if (c_.expression_args) block_name.remove_prefix(1);
    const bool function = ascii::iequals(block_name, "function");
    const CommandInfo* block = function ? find_block(std::uint16_t{0x07}) : find_block(block_name);
    if (!block) c_.fail(name, fmt::format("unknown block type '{}'", name.text));
    code_.u16(op::kBegin);
    const std::size_t len_at = code_.size();
    code_.u16(0);
    code_.u16(block->opcode);
    block_len_at_ = code_.size();
    code_.u32(0);
    c_.expression_args_mode = op::kOverrideBlockType;
    if (function) {
      obse_function_header(c_, t, code_);
    } else if (!block->params().empty()) {
      vanilla_arguments(c_, t, *block, code_, true);
    }
    c_.expression_args_mode = op::kOverrideCommand;
    patch_length(len_at);
    block_start_ = code_.size();
    if (c_.expression_args) {
      code_.u16(op::kPushExecutionContext);
      code_.u16(0);
    }
    if (!c_.blocks_started) {
      // The editor lists the ref variables declared so far right after the first Begin line.
      c_.blocks_started = true;
      for (const Local& v : c_.locals)
        if (v.type == ObseVarType::Ref) c_.ref_for_local(v);
    }
  }

  void end(Tokens& t) {
    const Token& kw = t.next();
    if (!block_start_) c_.fail(kw, "End without Begin");
    if (!ifs_.empty()) c_.fail(kw, "End inside an If block (EndIf is missing)");
    if (c_.expression_args) {
      // OBSE moves the End after the context pop it inserts (and counts it in the block length).
      code_.u16(op::kPopExecutionContext);
      code_.u16(0);
      c_.expression_args = false;
    }
    code_.u16(op::kEnd);
    code_.u16(0);
    code_.patch32(block_len_at_, static_cast<std::uint32_t>(code_.size() - *block_start_));
    block_start_.reset();
  }

  void close_jump(const Token& at) {
    if (ifs_.empty()) c_.fail(at, fmt::format("{} without If", at.text));
    OpenIf& open = ifs_.back().back();
    const std::size_t jump = statements_ - open.statement - 1;
    if (jump > 0xFFFF) c_.fail(at, fmt::format("{} statements to jump over; a jump holds at most 65535", jump));
    code_.patch16(open.jump_at, static_cast<std::uint16_t>(jump));
  }

  void if_statement(Tokens& t) {
    const Token& kw = t.next();
    const bool is_if = kw.is("if");
    if (!is_if) {
      close_jump(kw);
      if (ifs_.back().size() > 1 && else_seen_.back()) c_.fail(kw, "ElseIf after Else");
    }
    const std::size_t stmt = statements_;
    begin_statement();
    code_.u16(is_if ? op::kIf : op::kElseIf);
    const std::size_t len_at = code_.size();
    code_.u16(0);
    const std::size_t jump_at = code_.size();
    code_.u16(0);
    Bytes expr;
    if (t.at_end()) c_.fail(t.peek(), "If without a condition");
    vanilla_expression(c_, t, expr);
    code_.u16(static_cast<std::uint16_t>(expr.size()));
    code_.append(expr);
    patch_length(len_at);
    if (is_if) {
      ifs_.push_back({});
      else_seen_.push_back(false);
    }
    ifs_.back().push_back({jump_at, stmt});
  }

  void else_statement(Tokens& t) {
    const Token& kw = t.next();
    close_jump(kw);
    else_seen_.back() = true;
    const std::size_t stmt = statements_;
    begin_statement();
    code_.u16(op::kElse);
    code_.u16(2);
    const std::size_t jump_at = code_.size();
    code_.u16(0);
    ifs_.back().push_back({jump_at, stmt});
  }

  void endif_statement(Tokens& t) {
    const Token& kw = t.next();
    // The editor lets a stray EndIf through; it still takes its place in the code.
    if (!ifs_.empty()) {
      close_jump(kw);
      ifs_.pop_back();
      else_seen_.pop_back();
    }
    begin_statement();
    code_.u16(op::kEndIf);
    code_.u16(0);
  }

  void set_statement(Tokens& t) {
    t.next();
    begin_statement();
    code_.u16(op::kSet);
    const std::size_t len_at = code_.size();
    code_.u16(0);
    const Token& target = t.peek();
    if (!target.is_word()) c_.fail(target, "expected a variable after Set");
    if (!vanilla_variable(c_, t, code_)) {
      auto f = c_.form(target, false);
      if (!f) c_.fail_unknown(target, fmt::format("unknown variable '{}' (no local variable, global or ref.variable)", target.text));
      if (f->kind != Resolved::Kind::Global && !f->placeholder)
        c_.fail(target, fmt::format("'{}' is not a local variable, a global or ref.variable", target.text));
      t.next();
      code_.u8(op::kGlobal);
      code_.u16(f->ref_index);
    }
    if (!t.peek().is("to")) c_.fail(t.peek(), "expected 'to' after the Set target");
    t.next();
    Bytes expr;
    vanilla_expression(c_, t, expr);
    code_.u16(static_cast<std::uint16_t>(expr.size()));
    code_.append(expr);
    patch_length(len_at);
  }

  // Names an alternate OBSE plugin build that has the command, when one does.
  static std::string unknown_command(std::string_view what, std::string_view name) {
    for (std::string_view build : alternate_builds()) {
      const std::string b(build);
      if (find_command(name, std::span(&b, 1)))
        return fmt::format("{} '{}' (the OBSE plugin build '{}' has it: compile with that build)", what, name, b);
    }
    return fmt::format("{} '{}'", what, name);
  }

  void command_statement(Tokens& t) {
    const Token& first = t.peek();
    const CommandInfo* cmd = nullptr;
    std::optional<std::uint16_t> calling;
    if (t.peek(1).is(".") && t.peek(2).is_word()) {
      calling = c_.owner_entry(c_.resolve(first, false), first);
      t.next();
      t.next();
      const Token& name = t.next();
      cmd = c_.command(name.text);
      if (!cmd) c_.fail(name, unknown_command("unknown command", name.text));
    } else {
      const Token& name = t.next();
      cmd = c_.command(name.text);
      if (!cmd) c_.fail(name, unknown_command("unknown command or statement", name.text));
    }
    begin_statement();
    if (calling) {
      code_.u16(op::kDot);
      code_.u16(*calling);
    }
    code_.u16(cmd->opcode);
    const std::size_t len_at = code_.size();
    code_.u16(0);
    switch (cmd->parse) {
      case ParseStyle::Default:
        if (cmd->opcode == op::kMessageBox || cmd->opcode == op::kMessage) message(t, *cmd);
        else vanilla_arguments(c_, t, *cmd, code_, false);
        break;
      case ParseStyle::Let:
      case ParseStyle::Expression:
      case ParseStyle::Call: obse_arguments(c_, t, *cmd, code_); break;
      case ParseStyle::BeginLoop: {
        loops_.push_back({code_.size()});
        code_.u32(0);
        obse_arguments(c_, t, *cmd, code_);
        break;
      }
      case ParseStyle::Loop: {
        if (loops_.empty()) c_.fail(first, "loop without while or foreach");
        // The loop statement is 4 bytes; the offset names the statement after it.
        code_.patch32(loops_.back().offset_at, static_cast<std::uint32_t>(code_.size()));
        loops_.pop_back();
        break;
      }
      case ParseStyle::Null: break;
    }
    patch_length(len_at);
  }

  // Message/MessageBox "format" [vars...] [buttons... | seconds]
  void message(Tokens& t, const CommandInfo& cmd) {
    std::string s;
    if (is_string_var_text(t)) {
      s = take_string_var_text(t);
    } else {
      const Token& text = t.next();
      if (text.kind != TokenKind::String) c_.fail(text, fmt::format("{} expects a quoted text", cmd.name));
      s = obse_string(text.text, c_.options.obse_profile);
    }
    code_.u16(1);
    code_.u16(static_cast<std::uint16_t>(s.size()));
    code_.text(s);
    // One variable list and (MessageBox) one button list follow the text. OBSE scripts name
    // string variables among the buttons (`"OK" $Icon sv`): `$name` is a button text OBSE reads
    // at run time, a bare variable is a format argument (%z), so it joins the variable list
    // wherever it stands.
    const bool box = cmd.opcode == op::kMessageBox;
    Bytes vars, buttons;
    std::uint16_t nvars = 0, nbuttons = 0;
    while (true) {
      while (t.peek().is(",")) t.next();
      if (t.at_end()) break;
      if (box && (is_string_var_text(t) || t.peek().kind == TokenKind::String)) {
        std::string bt = is_string_var_text(t) ? take_string_var_text(t) : obse_string(t.next().text, c_.options.obse_profile);
        buttons.u16(1);
        buttons.u16(static_cast<std::uint16_t>(bt.size()));
        buttons.text(bt);
        ++nbuttons;
        continue;
      }
      if (t.peek().kind != TokenKind::Word) {
        if (box) c_.fail(t.peek(), "expected a quoted button text or a variable");
        break;
      }
      if (!vanilla_variable(c_, t, vars)) {
        auto f = c_.form(t.peek(), false);
        if (!f || (f->kind != Resolved::Kind::Global && !f->placeholder))
          c_.fail(t.peek(), fmt::format("'{}' is not a variable", t.peek().text));
        t.next();
        vars.u8(op::kGlobal);
        vars.u16(f->ref_index);
      }
      ++nvars;
    }
    code_.u16(nvars);
    code_.append(vars);
    if (box) {
      code_.u16(nbuttons);
      code_.append(buttons);
    } else {
      // Message: how many seconds it shows, 0 when not given.
      std::uint32_t seconds = 0;
      if (t.peek().kind == TokenKind::Number) seconds = uint32_value(std::strtod(std::string(t.next().text).c_str(), nullptr));
      code_.u32(seconds);
    }
  }

  CompileContext& c_;
  Bytes code_;
  std::size_t statements_ = 0;
  std::optional<std::size_t> block_start_;
  std::size_t block_len_at_ = 0;
  std::vector<std::vector<OpenIf>> ifs_;
  std::vector<bool> else_seen_;
  std::vector<OpenLoop> loops_;
};

}  // namespace
}  // namespace detail

CompileResult compile(std::string_view source, const CompileOptions& options) {
  detail::CompileContext c(options);
  CompileResult r;
  r.script = detail::StatementCompiler(c).run(source);
  r.hints_used = c.hints_used;
  r.names_used = std::move(c.names_used);
  return r;
}

}  // namespace tesmod::script
