#include "tesmod/text/condition_text.hpp"

#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "tesmod/io/ascii.hpp"
#include "tesmod/text/hex.hpp"

namespace tesmod::text {

using fields::CompareOp;
using fields::Condition;
using fields::ConditionLayout;
using fields::ParamKind;
using fields::ParamSpec;
using fields::RunOn;
namespace flag = fields::condition_flag;

ConditionSyntaxError::ConditionSyntaxError(std::size_t column, std::string message)
    : std::runtime_error(fmt::format("column {}: {}", column, message)),
      column_(column),
      message_(std::move(message)) {}

namespace {

// Words the grammar gives a meaning: a form named so is written @FormID.
constexpr std::string_view kReserved[] = {"NONE",   "Subject", "Target", "CombatTarget", "LinkedRef", "EventData",
                                          "global", "AND",     "OR"};

bool is_reserved(std::string_view word) {
  for (std::string_view r : kReserved)
    if (ascii::iequals(r, word)) return true;
  return false;
}

bool is_ident_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_space(char c) { return c == ' ' || c == '\t'; }



bool has_hex_prefix(std::string_view s) { return s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'); }

// Decimal (signed, or up to 2^32-1) or 0x hex, as the u32 stored.
std::optional<std::uint32_t> parse_int(std::string_view s) {
  if (has_hex_prefix(s)) return text::parse_hex_u32(s.substr(2));
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  if (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::uint32_t>::max())
    return std::nullopt;
  return std::uint32_t(v);
}

std::optional<float> parse_float(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  float v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// A float written so that it reads back to the same bits: shortest decimal with a point or an
// exponent, or 0x and the raw bits (NaNs).
std::string float_text(std::uint32_t bits) {
  const float f = std::bit_cast<float>(bits);
  if (!std::isnan(f)) {
    std::string s = fmt::format("{}", f);
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    if (auto back = parse_float(s); back && std::bit_cast<std::uint32_t>(*back) == bits) return s;
  }
  return fmt::format("0x{:08X}", bits);
}

// Decimal float or 0x raw bits.
std::optional<std::uint32_t> parse_float_bits(std::string_view s) {
  if (has_hex_prefix(s)) return text::parse_hex_u32(s.substr(2));
  if (auto f = parse_float(s)) return std::bit_cast<std::uint32_t>(*f);
  return std::nullopt;
}

// A CIS string without its terminator, quoted; bytes outside printable ASCII as \xHH.
std::string quote(std::string_view data) {
  if (!data.empty() && data.back() == '\0') data.remove_suffix(1);
  std::string out = "\"";
  for (unsigned char c : data) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20 || c >= 0x7F) {
      out += fmt::format("\\x{:02X}", c);
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

bool terminated(const std::string& data) { return !data.empty() && data.back() == '\0'; }

// Kinds read as plain integers.
bool is_integer_kind(ParamKind k) {
  return k == ParamKind::None || k == ParamKind::Integer || k == ParamKind::QuestStage ||
         k == ParamKind::VariableName || k == ParamKind::VatsValueFunction || k == ParamKind::VatsValueParam;
}

// The two characters of a GetEventData member, when they read as such (a letter, then a letter
// or digit: "K1", "R2").
std::optional<std::string> member_chars(std::uint16_t member) {
  const char a = char(member & 0xFF), b = char(member >> 8);
  const bool letter = (a >= 'A' && a <= 'Z') || (a >= 'a' && a <= 'z');
  if (!letter || !is_ident_char(b) || b == '_') return std::nullopt;
  return std::string{a, b};
}

// `Function123`: the index of a function no table names.
std::optional<std::uint16_t> unknown_function_index(std::string_view name) {
  constexpr std::string_view kPrefix = "Function";
  if (name.size() <= kPrefix.size() || name.size() > kPrefix.size() + 5 ||
      !ascii::iequals(name.substr(0, kPrefix.size()), kPrefix))
    return std::nullopt;
  std::uint32_t v = 0;
  for (char ch : name.substr(kPrefix.size())) {
    if (ch < '0' || ch > '9') return std::nullopt;
    v = v * 10 + std::uint32_t(ch - '0');
  }
  if (v > 0xFFFF) return std::nullopt;
  return std::uint16_t(v);
}

class Renderer {
 public:
  Renderer(const Condition& c, const FormNamer& namer)
      : c_(c), namer_(namer), game_(fields::condition_game(c.layout)) {}

  // in_value: the name must hold no space either (it is the last word before OR and [).
  std::string form(std::uint32_t id, bool in_value = false) const {
    if (id == 0) return "NONE";
    std::string name = namer_.name(id);
    bool usable =
        !name.empty() && !is_space(name.front()) && !is_space(name.back()) && name.front() != '@' && !is_reserved(name);
    for (unsigned char ch : name) {
      if (ch < 0x20 || ch == 0x7F || ch == ',' || ch == '(' || ch == ')' || ch == '[' || ch == ']' || ch == '"' ||
          (in_value && is_space(char(ch))))
        usable = false;
    }
    if (usable && namer_.resolve(name) == id) return name;
    return fmt::format("@{:08X}", id);
  }

  std::string param(const ParamSpec& spec, std::uint32_t raw) const {
    const auto as_int = [raw] { return fmt::format("{}", std::int32_t(raw)); };
    switch (spec.kind) {
      case ParamKind::FormId:
        if (c_.has(flag::kUseAliases) && c_.is_skyrim()) return fmt::format("Alias({})", std::int32_t(raw));
        if (c_.has(flag::kUsePackData) && c_.is_skyrim()) return fmt::format("PackData({})", std::int32_t(raw));
        return form(raw);
      case ParamKind::Alias: return fmt::format("Alias({})", std::int32_t(raw));
      case ParamKind::PackageData: return fmt::format("PackData({})", std::int32_t(raw));
      case ParamKind::Float: return float_text(raw);
      default: break;
    }
    if (is_integer_kind(spec.kind)) return as_int();
    if (auto name = fields::param_value_name(game_, spec.kind, raw)) return std::string(*name);
    return as_int();
  }

  std::string event_function() const {
    if (auto name = fields::param_value_name(game_, ParamKind::Event, c_.event_function())) return std::string(*name);
    return fmt::format("{}", c_.event_function());
  }

  std::string event_member() const {
    if (c_.event_member() == 0) return "None";
    if (auto chars = member_chars(c_.event_member())) return *chars;
    return fmt::format("{}", c_.event_member());
  }

  std::string run() const {
    std::string out;
    bool ref_shown = false, p3_shown = false;
    if (c_.is_skyrim()) {
      switch (c_.run_on) {
        case RunOn::Subject: break;
        case RunOn::Target: out = "Target."; break;
        case RunOn::Reference:
          out = form(c_.reference) + ".";
          ref_shown = true;
          break;
        case RunOn::CombatTarget: out = "CombatTarget."; break;
        case RunOn::LinkedReference: out = "LinkedRef."; break;
        case RunOn::QuestAlias:
          out = fmt::format("Alias({}).", c_.param3);
          p3_shown = true;
          break;
        case RunOn::PackageData:
          out = fmt::format("PackData({}).", c_.param3);
          p3_shown = true;
          break;
        case RunOn::EventData: out = "EventData."; break;
        default: out = fmt::format("RunOn({}).", std::uint32_t(c_.run_on));
      }
    } else if (c_.has(flag::kRunOnTarget)) {
      out = "Target.";
    }

    const fields::ConditionFunction* f = c_.function_info();
    out += f ? std::string(f->name) : fmt::format("Function{}", c_.function);
    const auto specs = c_.param_specs();
    const int count = specs[1].kind != ParamKind::None ? 2 : specs[0].kind != ParamKind::None ? 1 : 0;
    const std::uint32_t raws[2] = {c_.param1, c_.param2};
    const std::optional<std::string>* cis[2] = {&c_.cis1, &c_.cis2};
    bool raw_shown[2] = {false, false}, cis_shown[2] = {false, false};
    std::vector<std::string> args;
    for (int i = 0; i < count; ++i) {
      if (specs[i].kind == ParamKind::Event) {
        args.push_back(event_function());
        args.push_back(event_member());
        raw_shown[i] = true;
      } else if (*cis[i]) {
        args.push_back(quote(**cis[i]));
        cis_shown[i] = true;
      } else {
        args.push_back(param(specs[i], raws[i]));
        raw_shown[i] = true;
      }
    }
    out += '(' + fmt::format("{}", fmt::join(args, ", ")) + ") ";
    const std::string_view op = fields::compare_op_symbol(c_.op);
    out += op.empty() ? fmt::format("op{}", std::uint8_t(c_.op)) : std::string(op);
    out += ' ';
    out += c_.uses_global() ? "global " + form(c_.value, true) : float_text(c_.value);
    if (c_.is_or()) out += " OR";

    std::vector<std::string> notes;
    if (c_.is_skyrim()) {
      if (c_.has(flag::kUseAliases)) notes.push_back("UseAliases");
      if (c_.has(flag::kUsePackData)) notes.push_back("UsePackData");
      if (c_.has(flag::kSwapSubjectTarget)) notes.push_back("SwapSubjectTarget");
    } else if (const std::uint8_t other =
                   c_.flags & (flag::kMask & ~(flag::kOr | flag::kRunOnTarget | flag::kUseGlobal))) {
      notes.push_back(fmt::format("flags=0x{:02X}", other));
    }
    if (c_.layout == ConditionLayout::OblivionCtdt) notes.push_back("CTDT");
    if (c_.unused != std::array<std::uint8_t, 3>{}) notes.push_back("unused=" + text::hex_bytes(c_.unused, ""));
    if (c_.padding) notes.push_back(fmt::format("pad={:04X}", c_.padding));
    for (int i = 0; i < 2; ++i)
      if (!raw_shown[i] && raws[i]) notes.push_back(fmt::format("p{}={:08X}", i + 1, raws[i]));
    if (c_.is_skyrim()) {
      if (!ref_shown && c_.reference) notes.push_back(fmt::format("ref={:08X}", c_.reference));
      if (!p3_shown && c_.param3 != -1) notes.push_back(fmt::format("p3={}", c_.param3));
    }
    if (c_.layout == ConditionLayout::Oblivion && c_.tail != std::array<std::uint8_t, 4>{})
      notes.push_back("tail=" + text::hex_bytes(c_.tail, ""));
    for (int i = 0; i < 2; ++i)
      if (*cis[i] && !cis_shown[i]) notes.push_back(fmt::format("cis{}={}", i + 1, quote(**cis[i])));
    for (int i = 0; i < 2; ++i)
      if (*cis[i] && !terminated(**cis[i])) notes.push_back(fmt::format("cis{}-unterminated", i + 1));
    if (!notes.empty()) out += fmt::format(" [{}]", fmt::join(notes, " "));
    return out;
  }

 private:
  const Condition& c_;
  const FormNamer& namer_;
  Game game_;
};

// One argument as written: a quoted string, or the text up to the next comma or closing
// parenthesis (parentheses inside it balanced).
struct Arg {
  std::size_t at = 0;  // position in the line
  std::string text;
  bool quoted = false;
};

class Parser {
 public:
  Parser(std::string_view text, Game game, const FormNamer& namer) : s_(text), game_(game), namer_(namer) {
    c_.layout = game == Game::Oblivion ? ConditionLayout::Oblivion : ConditionLayout::Skyrim;
    skyrim_ = game != Game::Oblivion;
  }

  Condition run() {
    skip_spaces();
    run_on_and_function();
    arguments();
    skip_spaces();
    operator_();
    skip_spaces();
    value();
    skip_spaces();
    if (word("OR"))
      c_.set(flag::kOr, true);
    else
      word("AND");
    skip_spaces();
    if (pos_ < s_.size() && s_[pos_] == '[') annotations();
    skip_spaces();
    if (pos_ < s_.size()) fail(pos_, "unexpected text after the condition: expected OR, AND or [annotations] at most");
    finish();
    return c_;
  }

 private:
  [[noreturn]] void fail(std::size_t at, std::string message) const {
    throw ConditionSyntaxError(at + 1, std::move(message));
  }

  void skip_spaces() {
    while (pos_ < s_.size() && is_space(s_[pos_])) ++pos_;
  }

  // A case-insensitive keyword not followed by an identifier character.
  bool word(std::string_view w) {
    if (s_.size() - pos_ < w.size() || !ascii::iequals(s_.substr(pos_, w.size()), w)) return false;
    if (pos_ + w.size() < s_.size() && is_ident_char(s_[pos_ + w.size()])) return false;
    pos_ += w.size();
    return true;
  }

  std::uint32_t form(std::string_view token, std::size_t at) const {
    if (ascii::iequals(token, "NONE")) return 0;
    if (!token.empty() && token.front() == '@') {
      if (auto v = text::parse_hex_u32(token.substr(1))) return *v;
      fail(at, fmt::format("'{}': expected @ and 1-8 hex digits of a FormID", token));
    }
    if (auto id = namer_.resolve(token)) return *id;
    fail(at, fmt::format("unknown form '{}': expected an EditorID, File.esp:00ABCDEF, @00ABCDEF or NONE", token));
  }

  // `Alias(n)` / `PackData(n)`: the number, if token has that shape.
  std::optional<std::uint32_t> call_number(std::string_view token, std::string_view callee, std::size_t at) const {
    if (token.size() <= callee.size() + 1 || !ascii::iequals(token.substr(0, callee.size()), callee) ||
        token[callee.size()] != '(')
      return std::nullopt;
    if (token.back() != ')') fail(at, fmt::format("'{}': expected {}(number)", token, callee));
    const std::string_view inner = token.substr(callee.size() + 1, token.size() - callee.size() - 2);
    if (auto v = parse_int(inner)) return *v;
    fail(at + callee.size() + 1, fmt::format("'{}': expected a number", inner));
  }

  std::uint32_t integer(std::string_view token, std::size_t at, std::string_view what) const {
    if (auto v = parse_int(token)) return *v;
    fail(at, fmt::format("'{}': expected {}", token, what));
  }

  void run_on_and_function() {
    if (numbered_run_on()) {
      function_name(pos_, s_.find('(', pos_));
      return;
    }
    const std::size_t paren = s_.find('(', pos_);
    if (paren == std::string_view::npos) fail(pos_, "expected a function call: [RunOn.]Function(arguments)");
    std::string_view head = s_.substr(pos_, paren - pos_);
    const std::size_t dot = head.rfind('.');
    if (dot != std::string_view::npos) {
      std::string_view prefix = head.substr(0, dot);
      while (!prefix.empty() && is_space(prefix.back())) prefix.remove_suffix(1);
      if (prefix.empty()) fail(pos_, "expected what the condition runs on before '.'");
      run_on(prefix, pos_);
      pos_ += dot + 1;
      skip_spaces();
    }
    function_name(pos_, paren);
  }

  // `Alias(n).`, `PackData(n).` (param3) or `RunOn(n).` at the start: read, and true.
  bool numbered_run_on() {
    static constexpr std::string_view kCallees[] = {"Alias", "PackData", "RunOn"};
    for (std::string_view callee : kCallees) {
      if (s_.size() - pos_ <= callee.size() || !ascii::iequals(s_.substr(pos_, callee.size()), callee) ||
          s_[pos_ + callee.size()] != '(')
        continue;
      const std::size_t at = pos_;
      const std::size_t close = s_.find(')', pos_);
      if (close == std::string_view::npos || close + 1 >= s_.size() || s_[close + 1] != '.')
        fail(at, fmt::format("expected {}(number). before the function", callee));
      if (!skyrim_) fail(at, "an Oblivion condition runs on its subject or on Target");
      const std::uint32_t n = *call_number(s_.substr(at, close + 1 - at), callee, at);
      if (callee == "RunOn") {
        c_.run_on = RunOn(n);
      } else {
        c_.run_on = callee == "Alias" ? RunOn::QuestAlias : RunOn::PackageData;
        c_.param3 = std::int32_t(n);
        p3_given_ = true;
      }
      pos_ = close + 2;
      return true;
    }
    return false;
  }

  void run_on(std::string_view prefix, std::size_t at) {
    if (ascii::iequals(prefix, "Subject")) return;
    if (ascii::iequals(prefix, "Target")) {
      if (skyrim_)
        c_.run_on = RunOn::Target;
      else
        c_.set(flag::kRunOnTarget, true);
      return;
    }
    if (!skyrim_) fail(at, fmt::format("'{}': an Oblivion condition runs on its subject or on Target", prefix));
    if (ascii::iequals(prefix, "CombatTarget"))
      c_.run_on = RunOn::CombatTarget;
    else if (ascii::iequals(prefix, "LinkedRef"))
      c_.run_on = RunOn::LinkedReference;
    else if (ascii::iequals(prefix, "EventData"))
      c_.run_on = RunOn::EventData;
    else {
      c_.run_on = RunOn::Reference;
      c_.reference = form(prefix, at);
      ref_given_ = true;
    }
  }

  void function_name(std::size_t begin, std::size_t paren) {
    if (paren == std::string_view::npos) fail(begin, "expected a function call: Function(arguments)");
    std::string_view name = s_.substr(begin, paren - begin);
    while (!name.empty() && is_space(name.back())) name.remove_suffix(1);
    if (name.empty()) fail(begin, "expected a function name before '('");
    for (char ch : name)
      if (!is_ident_char(ch)) fail(begin, fmt::format("'{}' is not a function name", name));
    if (const fields::ConditionFunction* f = fields::find_condition_function(game_, name)) {
      c_.function = f->index;
    } else if (auto index = unknown_function_index(name)) {
      c_.function = *index;
    } else {
      fail(begin, fmt::format("unknown condition function '{}' for {}", name, game_title(game_)));
    }
    pos_ = paren + 1;
  }

  std::string quoted_string() {
    const std::size_t start = pos_;
    ++pos_;  // the opening quote
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail(start, "unterminated string: expected a closing '\"'");
      const char ch = s_[pos_++];
      if (ch == '"') return out;
      if (ch != '\\') {
        out += ch;
        continue;
      }
      if (pos_ >= s_.size()) fail(pos_ - 1, "expected an escape after '\\'");
      const char e = s_[pos_++];
      if (e == '"' || e == '\\') {
        out += e;
      } else if (e == 'x' || e == 'X') {
        const auto v = pos_ + 2 <= s_.size() ? text::parse_hex_u32(s_.substr(pos_, 2)) : std::nullopt;
        if (!v) fail(pos_ - 2, "expected two hex digits after \\x");
        out += char(*v);
        pos_ += 2;
      } else {
        fail(pos_ - 2, "unknown escape: expected \\\", \\\\ or \\xHH");
      }
    }
  }

  void arguments() {
    skip_spaces();
    if (pos_ < s_.size() && s_[pos_] == ')') {
      ++pos_;
      assign_arguments();
      return;
    }
    while (true) {
      skip_spaces();
      Arg arg;
      arg.at = pos_;
      if (pos_ < s_.size() && s_[pos_] == '"') {
        arg.text = quoted_string();
        arg.quoted = true;
      } else {
        int depth = 0;
        while (pos_ < s_.size() && (depth > 0 || (s_[pos_] != ',' && s_[pos_] != ')'))) {
          if (s_[pos_] == '(')
            ++depth;
          else if (s_[pos_] == ')')
            --depth;
          ++pos_;
        }
        std::string_view t = s_.substr(arg.at, pos_ - arg.at);
        while (!t.empty() && is_space(t.back())) t.remove_suffix(1);
        if (t.empty()) fail(arg.at, "expected an argument");
        arg.text = t;
      }
      args_.push_back(std::move(arg));
      skip_spaces();
      if (pos_ >= s_.size()) {
        // An unclosed call swallows the rest of the line; point where the argument most likely ended.
        const std::size_t space = arg.quoted ? std::string_view::npos : s_.find_first_of(" \t", arg.at);
        fail(space < s_.size() ? space : pos_, "expected ',' or ')' after the argument");
      }
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] != ')') fail(pos_, "expected ',' or ')' after the argument");
      ++pos_;
      break;
    }
    assign_arguments();
  }

  std::uint32_t param(const ParamSpec& spec, const Arg& arg) const {
    const std::string_view t = arg.text;
    switch (spec.kind) {
      case ParamKind::FormId:
        if (auto n = call_number(t, "Alias", arg.at)) return *n;
        if (auto n = call_number(t, "PackData", arg.at)) return *n;
        return form(t, arg.at);
      case ParamKind::Alias:
        if (auto n = call_number(t, "Alias", arg.at)) return *n;
        return integer(t, arg.at, "Alias(number) or a number");
      case ParamKind::PackageData:
        if (auto n = call_number(t, "PackData", arg.at)) return *n;
        return integer(t, arg.at, "PackData(number) or a number");
      case ParamKind::Float:
        if (auto bits = parse_float_bits(t)) return *bits;
        fail(arg.at, fmt::format("'{}': expected a number", t));
      default: break;
    }
    if (is_integer_kind(spec.kind)) return integer(t, arg.at, "an integer");
    if (auto v = parse_int(t)) return *v;
    if (auto code = fields::param_value_code(game_, spec.kind, t)) return *code;
    fail(arg.at, fmt::format("unknown {} '{}': expected a name or a number", fields::param_kind_name(spec.kind), t));
  }

  std::uint32_t event(const Arg& function, const Arg& member) const {
    std::uint32_t f = 0;
    if (auto v = parse_int(function.text))
      f = *v;
    else if (auto code = fields::param_value_code(game_, ParamKind::Event, function.text))
      f = *code;
    else
      fail(function.at, fmt::format("unknown event function '{}': expected a name or a number", function.text));
    if (f > 0xFFFF) fail(function.at, "expected an event function of at most 16 bits");
    std::uint32_t m = 0;
    const std::string_view t = member.text;
    if (ascii::iequals(t, "None"))
      m = 0;
    else if (t.size() == 2 && member_chars(std::uint16_t(std::uint8_t(t[0]) | std::uint8_t(t[1]) << 8)))
      m = std::uint32_t(std::uint8_t(t[0]) | std::uint8_t(t[1]) << 8);
    else if (auto v = parse_int(t); v && *v <= 0xFFFF)
      m = *v;
    else
      fail(member.at, fmt::format("'{}': expected an event member (two characters such as K1), None or a number", t));
    return f | m << 16;
  }

  void assign_arguments() {
    const auto specs = c_.param_specs();
    const int count = specs[1].kind != ParamKind::None ? 2 : specs[0].kind != ParamKind::None ? 1 : 0;
    std::size_t needed = 0;
    for (int i = 0; i < count; ++i) needed += specs[i].kind == ParamKind::Event ? 2 : 1;
    if (args_.size() != needed) {
      const std::size_t at = args_.size() > needed ? args_[needed].at : pos_ - 1;
      fail(at, fmt::format("{} takes {} argument{}, not {}", function_label(), needed, needed == 1 ? "" : "s",
                           args_.size()));
    }
    std::uint32_t* raws[2] = {&c_.param1, &c_.param2};
    std::optional<std::string>* cis[2] = {&c_.cis1, &c_.cis2};
    std::size_t next = 0;
    for (int i = 0; i < count; ++i) {
      if (specs[i].kind == ParamKind::Event) {
        *raws[i] = event(args_[next], args_[next + 1]);
        next += 2;
        param_given_[i] = true;
        continue;
      }
      const Arg& arg = args_[next++];
      if (arg.quoted) {
        *cis[i] = arg.text + '\0';
        cis_given_[i] = true;
      } else {
        *raws[i] = param(specs[i], arg);
        param_given_[i] = true;
      }
    }
  }

  std::string function_label() const {
    if (const fields::ConditionFunction* f = c_.function_info()) return std::string(f->name);
    return fmt::format("Function{}", c_.function);
  }

  void operator_() {
    static constexpr std::pair<std::string_view, CompareOp> kOps[] = {
        {"==", CompareOp::Equal},       {"!=", CompareOp::NotEqual}, {">=", CompareOp::GreaterOrEqual},
        {"<=", CompareOp::LessOrEqual}, {">", CompareOp::Greater},   {"<", CompareOp::Less},
        {"op6", CompareOp(6)},          {"op7", CompareOp(7)}};
    for (auto [text, op] : kOps) {
      if (s_.substr(pos_, text.size()) == text) {
        c_.op = op;
        pos_ += text.size();
        return;
      }
    }
    fail(pos_, "expected a comparison operator: ==, !=, >, >=, <, <=");
  }

  std::string_view token_to_space() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && !is_space(s_[pos_])) ++pos_;
    return s_.substr(start, pos_ - start);
  }

  void value() {
    if (word("global")) {
      skip_spaces();
      const std::size_t at = pos_;
      const std::string_view name = token_to_space();
      if (name.empty()) fail(at, "expected the name of a global after 'global'");
      c_.value = form(name, at);
      c_.set(flag::kUseGlobal, true);
      return;
    }
    const std::size_t at = pos_;
    const std::string_view t = token_to_space();
    if (t.empty()) fail(at, "expected a number or 'global Name' after the operator");
    if (auto bits = parse_float_bits(t))
      c_.value = *bits;
    else
      fail(at, fmt::format("'{}': expected a number or 'global Name'", t));
  }

  void annotations() {
    ++pos_;  // [
    while (true) {
      skip_spaces();
      if (pos_ >= s_.size()) fail(pos_, "expected ']' to close the annotations");
      if (s_[pos_] == ']') {
        ++pos_;
        return;
      }
      const std::size_t at = pos_;
      while (pos_ < s_.size() && (is_ident_char(s_[pos_]) || s_[pos_] == '-')) ++pos_;
      const std::string_view key = s_.substr(at, pos_ - at);
      if (key.empty()) fail(at, "expected an annotation such as pad=0054");
      if (pos_ < s_.size() && s_[pos_] == '=') {
        ++pos_;
        const std::size_t value_at = pos_;
        std::string value;
        if (pos_ < s_.size() && s_[pos_] == '"') {
          value = quoted_string();
        } else {
          while (pos_ < s_.size() && !is_space(s_[pos_]) && s_[pos_] != ']') ++pos_;
          value = s_.substr(value_at, pos_ - value_at);
        }
        keyed(key, at, value, value_at);
      } else {
        flag_note(key, at);
      }
    }
  }

  void flag_note(std::string_view key, std::size_t at) {
    if (skyrim_ && ascii::iequals(key, "UseAliases"))
      c_.set(flag::kUseAliases, true);
    else if (skyrim_ && ascii::iequals(key, "UsePackData"))
      c_.set(flag::kUsePackData, true);
    else if (skyrim_ && ascii::iequals(key, "SwapSubjectTarget"))
      c_.set(flag::kSwapSubjectTarget, true);
    else if (!skyrim_ && ascii::iequals(key, "CTDT"))
      c_.layout = ConditionLayout::OblivionCtdt;
    else if (ascii::iequals(key, "cis1-unterminated"))
      unterminated_[0] = at + 1;
    else if (ascii::iequals(key, "cis2-unterminated"))
      unterminated_[1] = at + 1;
    else
      fail(at, fmt::format("unknown annotation '{}': expected {}", key,
                           skyrim_ ? "UseAliases, UsePackData, SwapSubjectTarget, cis1-unterminated or key=value"
                                   : "CTDT, cis1-unterminated or key=value"));
  }

  template <std::size_t N>
  void bytes_value(std::array<std::uint8_t, N>& out, std::string_view v, std::size_t at) const {
    if (v.size() != 2 * N) fail(at, fmt::format("expected {} hex digits", 2 * N));
    for (std::size_t i = 0; i < N; ++i) {
      auto b = text::parse_hex_u32(v.substr(2 * i, 2));
      if (!b) fail(at + 2 * i, fmt::format("expected {} hex digits", 2 * N));
      out[i] = std::uint8_t(*b);
    }
  }

  std::uint32_t hex_value(std::string_view v, std::size_t at, std::size_t digits) const {
    if (v.size() != digits || !text::parse_hex_u32(v)) fail(at, fmt::format("expected {} hex digits", digits));
    return *text::parse_hex_u32(v);
  }

  void keyed(std::string_view key, std::size_t at, const std::string& v, std::size_t value_at) {
    if (ascii::iequals(key, "unused")) {
      bytes_value(c_.unused, v, value_at);
    } else if (ascii::iequals(key, "pad")) {
      c_.padding = std::uint16_t(hex_value(v, value_at, 4));
    } else if (ascii::iequals(key, "p1") || ascii::iequals(key, "p2")) {
      const int i = key[1] - '1';
      if (param_given_[i]) fail(at, fmt::format("{} is already given as an argument", key));
      (i == 0 ? c_.param1 : c_.param2) = hex_value(v, value_at, 8);
    } else if (skyrim_ && ascii::iequals(key, "ref")) {
      if (ref_given_) fail(at, "the reference is already given before the function");
      c_.reference = hex_value(v, value_at, 8);
    } else if (skyrim_ && ascii::iequals(key, "p3")) {
      if (p3_given_) fail(at, "param3 is already given by Alias(n). or PackData(n).");
      const auto n = parse_int(v);
      if (!n) fail(value_at, "expected a number");
      c_.param3 = std::int32_t(*n);
    } else if (!skyrim_ && ascii::iequals(key, "tail")) {
      bytes_value(c_.tail, v, value_at);
      tail_at_ = at + 1;
    } else if (!skyrim_ && ascii::iequals(key, "flags")) {
      const auto n = parse_int(v);
      constexpr std::uint8_t kUnnamed = flag::kMask & ~(flag::kOr | flag::kRunOnTarget | flag::kUseGlobal);
      if (!n || (*n & ~std::uint32_t(kUnnamed))) fail(value_at, "expected Oblivion's unnamed flag bits (0x08, 0x10)");
      c_.flags = std::uint8_t(c_.flags | *n);
    } else if (ascii::iequals(key, "cis1") || ascii::iequals(key, "cis2")) {
      const int i = key[3] - '1';
      if (cis_given_[i]) fail(at, fmt::format("{} is already given as an argument", key));
      (i == 0 ? c_.cis1 : c_.cis2) = v + '\0';
      cis_given_[i] = true;
    } else {
      fail(at, fmt::format("unknown annotation '{}': expected unused, pad, p1, p2, {}cis1 or cis2", key,
                           skyrim_ ? "ref, p3, " : "tail, flags, "));
    }
  }

  void finish() {
    for (int i = 0; i < 2; ++i) {
      if (!unterminated_[i]) continue;
      std::optional<std::string>& cis = i == 0 ? c_.cis1 : c_.cis2;
      if (!cis) fail(unterminated_[i] - 1, fmt::format("cis{}-unterminated without a CIS{} string", i + 1, i + 1));
      cis->pop_back();
    }
    if (tail_at_ && c_.layout != ConditionLayout::Oblivion) fail(tail_at_ - 1, "a CTDT has no tail bytes");
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  Game game_;
  const FormNamer& namer_;
  bool skyrim_ = true;
  Condition c_;
  std::vector<Arg> args_;
  bool param_given_[2] = {false, false}, cis_given_[2] = {false, false};
  bool ref_given_ = false, p3_given_ = false;
  std::size_t unterminated_[2] = {0, 0};  // column + 1 of the annotation, 0 when absent
  std::size_t tail_at_ = 0;
};

}  // namespace

std::string render_condition(const Condition& condition, const FormNamer& namer) {
  return Renderer(condition, namer).run();
}

Condition parse_condition(std::string_view text, Game game, const FormNamer& namer) {
  return Parser(text, game, namer).run();
}

nlohmann::ordered_json condition_json(const Condition& c, const FormNamer& namer) {
  const Renderer r(c, namer);
  const Game game = fields::condition_game(c.layout);
  nlohmann::ordered_json j;
  j["text"] = r.run();
  const fields::ConditionFunction* f = c.function_info();
  j["function"] = {{"index", c.function}, {"name", f ? nlohmann::ordered_json(f->name) : nlohmann::ordered_json()}};
  const std::string_view op = fields::compare_op_symbol(c.op);
  j["operator"] = op.empty() ? nlohmann::ordered_json(std::uint8_t(c.op)) : nlohmann::ordered_json(op);
  if (c.uses_global()) {
    j["global"] = r.form(c.value);
  } else {
    const float v = c.value_float();
    j["value"] = std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(float_text(c.value));
  }
  j["or"] = c.is_or();
  nlohmann::ordered_json params = nlohmann::ordered_json::array();
  const auto specs = c.param_specs();
  const std::uint32_t raws[2] = {c.param1, c.param2};
  const std::optional<std::string>* cis[2] = {&c.cis1, &c.cis2};
  for (int i = 0; i < 2; ++i) {
    if (specs[i].kind == ParamKind::None && !raws[i] && !*cis[i]) continue;
    nlohmann::ordered_json p;
    p["kind"] = fields::param_kind_name(specs[i].kind);
    if (!specs[i].type_name.empty()) p["type"] = specs[i].type_name;
    if (specs[i].kind == ParamKind::Event) {
      p["event_function"] = r.event_function();
      p["event_member"] = r.event_member();
    } else if (*cis[i]) {
      std::string s = **cis[i];
      if (terminated(s)) s.pop_back();
      p["string"] = s;
    } else if (is_integer_kind(specs[i].kind) && !(specs[i].kind == ParamKind::None && raws[i] == 0)) {
      p["value"] = std::int32_t(raws[i]);
    } else {
      p["value"] = r.param(specs[i], raws[i]);
    }
    p["raw"] = fmt::format("{:08X}", raws[i]);
    params.push_back(std::move(p));
  }
  j["params"] = std::move(params);
  if (c.is_skyrim()) {
    const std::string_view run_on = fields::run_on_name(c.run_on);
    j["run_on"] = run_on.empty() ? nlohmann::ordered_json(std::uint32_t(c.run_on)) : nlohmann::ordered_json(run_on);
    if (c.run_on == RunOn::Reference || c.reference) j["reference"] = r.form(c.reference);
    j["param3"] = c.param3;
  } else {
    j["run_on"] = c.has(flag::kRunOnTarget) ? "Target" : "Subject";
  }
  nlohmann::ordered_json flags = nlohmann::ordered_json::array();
  if (c.is_skyrim()) {
    if (c.has(flag::kUseAliases)) flags.push_back("UseAliases");
    if (c.has(flag::kUsePackData)) flags.push_back("UsePackData");
    if (c.has(flag::kSwapSubjectTarget)) flags.push_back("SwapSubjectTarget");
  }
  j["flags"] = std::move(flags);
  // Bytes without a meaning, when they are not zero.
  if (c.unused != std::array<std::uint8_t, 3>{}) j["unused"] = text::hex_bytes(c.unused, "");
  if (c.padding) j["padding"] = fmt::format("{:04X}", c.padding);
  if (c.layout == ConditionLayout::Oblivion && c.tail != std::array<std::uint8_t, 4>{}) j["tail"] = text::hex_bytes(c.tail, "");
  if (!c.is_skyrim() && (c.flags & ~(flag::kOr | flag::kRunOnTarget | flag::kUseGlobal)))
    j["unnamed_flags"] = c.flags & ~(flag::kOr | flag::kRunOnTarget | flag::kUseGlobal);
  j["layout"] = c.layout == ConditionLayout::Skyrim     ? "CTDA32"
                : c.layout == ConditionLayout::Oblivion ? "CTDA24"
                                                        : "CTDT20";
  j["game"] = game == Game::Oblivion ? "oblivion" : "skyrim";
  j["bytes"] = text::hex_bytes(fields::encode_condition_data(c), "");
  return j;
}

}  // namespace tesmod::text
