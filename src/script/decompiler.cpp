#include "tesmod/script/decompiler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bytecode.hpp"
#include "decode_context.hpp"
#include "obse_decode.hpp"
#include "param_names.hpp"

namespace tesmod::script {
namespace detail {

DecodeContext::DecodeContext(const ScriptData& s, const DecompileOptions& o)
    : r(s.bytecode, o.where, o.bytecode_offset == Error::kNoOffset ? 0 : o.bytecode_offset), script(s), options(o) {}

void DecodeContext::fail(std::size_t at, const std::string& what) const {
  std::string text = fmt::format("compiled script byte {}: {}", at, what);
  if (options.bytecode_offset == Error::kNoOffset) options.where.fail(text);
  options.where.fail_at(options.bytecode_offset + at, text);
}

std::string DecodeContext::local(std::uint16_t index) const {
  if (const LocalVariable* v = script.variable(index); v && !v->name.empty()) return v->name;
  fail(r.position(), fmt::format("local variable {} is not declared (no SLSD with that index)", index));
}

std::string DecodeContext::form(std::uint32_t form_id) const {
  if (form_id == kPlayerRef) return "player";
  // The Player base form's EditorID, `Player`, compiles to the player reference in most places.
  if (form_id == kPlayerBase) return fmt::format("@{:08X}", form_id);
  if (options.names)
    if (auto name = options.names->editor_id(form_id)) return *name;
  return fmt::format("@{:08X}", form_id);
}

std::string DecodeContext::ref(std::uint16_t index) {
  if (index == 0 || index > script.refs.size())
    fail(r.position(), fmt::format("reference {} is outside the reference list (1..{})", index, script.refs.size()));
  const ScriptRef& e = script.refs[index - 1];
  if (usage) {
    if (std::find(usage->first_use.begin(), usage->first_use.end(), index) == usage->first_use.end())
      usage->first_use.push_back(index);
    pending.ref_index = index;
    usage->uses.push_back(pending);
    pending = {};
  }
  if (e.kind == ScriptRef::Kind::Variable) return local(static_cast<std::uint16_t>(e.value));
  if (e.value == kPlayerRef) {
    if (player_uses) {
      (obse_calling_ref ? player_uses->calling : player_uses->named).insert(index);
      if (player_uses->seen.insert(index).second && obse_bare_ref) player_uses->first_bare.insert(index);
    }
    if (auto it = player_names.find(index); it != player_names.end()) return it->second;
  }
  return form(e.value);
}

std::string DecodeContext::remote_var(std::uint16_t ref_index, std::uint8_t code, std::uint16_t var_index) {
  if (code == 's' || code == 'f') note_remote(ref_index, var_index, code == 's' ? ObseVarType::Integer : ObseVarType::Float);
  std::string owner = ref(ref_index);
  const ScriptRef& e = script.refs[ref_index - 1];
  if (e.kind == ScriptRef::Kind::Object && options.names) {
    if (auto info = options.names->form(e.value); info && info->script)
      if (const ScriptData* other = options.names->script(info->script))
        if (const LocalVariable* v = other->variable(var_index); v && !v->name.empty())
          return owner + "." + v->name;
  }
  return fmt::format("{}.@{}{}", owner, static_cast<char>(code), var_index);
}

const CommandInfo& DecodeContext::command(std::uint16_t opcode, std::size_t at) const {
  const CommandInfo* c = find_command(opcode, options.obse_plugins);
  if (!c) fail(at, fmt::format("unknown command opcode 0x{:04X}", opcode));
  if (usage && !c->plugin.empty()) usage->obse_plugins.emplace(c->plugin);
  if (usage && c->unsourced) usage->unsourced_commands = true;
  return *c;
}

std::string_view DecodeContext::command_name(const CommandInfo& cmd) const {
  if (cmd.kind != CommandKind::Plugin || find_command(cmd.name, options.obse_plugins) == &cmd) return cmd.name;
  if (!cmd.short_name.empty() && find_command(cmd.short_name, options.obse_plugins) == &cmd) return cmd.short_name;
  return cmd.name;
}

// A string argument as source: the compiler turns %r into a line break and %q into a quote, so
// those come back as %r and %q.
std::string quoted(std::span<const std::uint8_t> text) {
  std::string s = "\"";
  for (std::uint8_t b : text) {
    if (b == '\n') s += "%r";
    else if (b == '"') s += "%q";
    else s += static_cast<char>(b);
  }
  s += '"';
  return s;
}

// Shortest text that reads back as the same double.
std::string number_text(double v) {
  if (std::isinf(v)) {
    // Source has no word for infinity, but a number past the largest double reads as one.
    return std::string(v < 0 ? "-1" : "1") + std::string(309, '0') + ".0";
  }
  std::string s = fmt::format("{}", v);
  if (s.find('e') != std::string::npos) {
    // Script tokenizers read no exponents: write the shortest fixed form that reads back.
    for (int digits = 1; digits <= 400; ++digits) {
      s = fmt::format("{:.{}f}", v, digits);
      if (std::strtod(s.c_str(), nullptr) == v) break;
    }
    while (s.ends_with('0') && !s.ends_with(".0")) s.pop_back();
  }
  if (s.find('.') == std::string::npos) s += ".0";
  return s;
}

namespace {

std::string named(NamedParam kind, std::uint16_t code, std::string_view what, const DecodeContext& c) {
  if (auto n = param_value_name(kind, code)) return std::string(*n);
  c.fail(c.r.position(), fmt::format("{} code {} has no name", what, code));
}

}  // namespace

std::string DecodeContext::literal(std::span<const std::uint8_t> text) {
  if (usage)
    for (std::size_t i = 0; i + 1 < text.size(); ++i) {
      if (text[i] != '%') continue;
      const char n = static_cast<char>(text[i + 1]);
      if (n == 'r' || n == 'R' || n == 'q' || n == 'Q') usage->early_obse_strings = true;
      ++i;  // %% and %x are one unit
    }
  return quoted(text);
}

std::string DecodeContext::float_literal(std::uint64_t bits, std::size_t at) const {
  double v;
  std::memcpy(&v, &bits, 8);
  if (std::isnan(v)) fail(at, "a float that is not a number (NaN): no source text compiles to one");
  return number_text(v);
}

std::string DecodeContext::argument(std::uint8_t type) {
  const std::size_t at = r.position();
  switch (type) {
    case param::kString: {
      std::uint16_t n = r.u16("string length");
      return literal(r.bytes(n, "string"));
    }
    case param::kActorValue: return named(NamedParam::ActorValue, r.u16("actor value"), "actor value", *this);
    case param::kAnimationGroup:
      return named(NamedParam::AnimationGroup, r.u16("animation group"), "animation group", *this);
    case param::kFormType: return named(NamedParam::FormType, r.u16("form type"), "form type", *this);
    case param::kSex: return named(NamedParam::Sex, r.u16("sex"), "sex", *this);
    case param::kCrimeType: return std::to_string(r.u16("crime type"));
    case param::kAxis: return named(NamedParam::Axis, r.u8("axis"), "axis", *this);
    default: break;
  }
  const std::uint8_t tag = r.u8("argument");
  const bool numeric = type == param::kInteger || type == param::kFloat || type == param::kQuestStage;
  // Source gives a form parameter a reference ('r') whatever is written (a number reads as a
  // FormID), and a number parameter a literal of its own type: other tags have no text that
  // compiles back to them.
  if (numeric ? (tag == op::kLong && type == param::kFloat) || (tag == op::kDouble && type != param::kFloat)
              : tag != op::kRefPrefix)
    fail(at, fmt::format("argument tag 0x{:02X} does not fit parameter type 0x{:02X}", tag, type));
  switch (tag) {
    case op::kLong: return std::to_string(r.i32("integer argument"));
    case op::kDouble: return float_literal(r.u64("float argument"), at);
    case op::kShortLocal:
    case op::kFloatLocal: return local(r.u16("variable index"));
    case op::kGlobal: {
      std::uint16_t idx = r.u16("global index");
      note_global(idx);
      return ref(idx);
    }
    case op::kRefPrefix: {
      std::uint16_t idx = r.u16("reference index");
      if (numeric && !r.at_end()) {
        // ref.var as a number; a form argument is the bare reference.
        std::uint8_t next = r.u8("variable kind");
        if (next == op::kShortLocal || next == op::kFloatLocal) return remote_var(idx, next, r.u16("variable index"));
        fail(at, fmt::format("expected 's' or 'f' after a reference in a numeric argument, found 0x{:02X}", next));
      }
      return ref(idx);
    }
    default: fail(at, fmt::format("unexpected argument tag 0x{:02X} for parameter type 0x{:02X}", tag, type));
  }
}

std::string DecodeContext::call(const CommandInfo& cmd, std::size_t end) {
  if (cmd.parse != ParseStyle::Default) return decode_obse_arguments(*this, cmd, end);
  std::string out(command_name(cmd));
  auto params = cmd.params();
  if (params.empty()) {
    if (r.position() != end) fail(r.position(), fmt::format("{} takes no arguments but has {} bytes", cmd.name, end - r.position()));
    return out;
  }
  if (r.position() == end) return out;  // some callers leave out the count when nothing follows
  const std::uint16_t count = r.u16("argument count");
  if (expression_args && count == op::kOverrideCommand && cmd.kind != CommandKind::Plugin)
    return out + decode_obse_argument_list(*this, end, params.size());
  if (count > params.size())
    fail(r.position() - 2, fmt::format("{} takes at most {} arguments, the count says {}", cmd.name, params.size(), count));
  for (std::uint16_t i = 0; i < count; ++i) {
    out += ' ';
    out += argument(params[i].type);
  }
  if (r.position() != end)
    fail(r.position(), fmt::format("{} arguments end {} bytes before the call's length says", cmd.name, end - r.position()));
  return out;
}

namespace {

struct BinaryOp {
  std::string_view text;
  int precedence;
};
constexpr BinaryOp kVanillaOps[] = {{"||", 1}, {"&&", 2}, {"==", 3}, {"!=", 3}, {">=", 4}, {"<=", 4},
                                    {">", 4},  {"<", 4},  {"+", 5},  {"-", 5},  {"*", 6},  {"/", 6}, {"%", 6}};
constexpr int kUnary = 7;

std::string wrap(const Operand& o, bool paren) { return paren ? "(" + o.text + ")" : o.text; }

}  // namespace

std::string DecodeContext::expression(std::size_t len) {
  const std::size_t start = r.position(), end = start + len;
  if (len > r.remaining()) fail(start, fmt::format("expression of {} bytes runs past the statement", len));
  std::vector<Operand> stack;
  auto pop = [&](std::size_t at) {
    if (stack.empty()) fail(at, "operator without an operand");
    Operand o = std::move(stack.back());
    stack.pop_back();
    return o;
  };
  const auto& data = script.bytecode;
  // A call as an operand. OBSE arguments (an OBSE-parsed command, or any in a compiler-override
  // block) take in all that can continue an expression after them, so as the operand of an
  // operator such a call with arguments is written in parentheses; vanilla arguments end at
  // the operator.
  auto call_operand = [&](std::string owner, const CommandInfo& cmd, std::size_t call_end) -> Operand {
    const std::size_t args_at = r.position();
    const bool override_args = expression_args && cmd.kind != CommandKind::Plugin && call_end >= args_at + 2 &&
                               args_at + 2 <= data.size() && data[args_at] == (op::kOverrideCommand & 0xFF) &&
                               data[args_at + 1] == (op::kOverrideCommand >> 8);
    std::string text = owner + call(cmd, call_end);
    const bool has_args = text.size() > owner.size() + command_name(cmd).size();
    return {std::move(text), has_args && (cmd.parse != ParseStyle::Default || override_args) ? 0 : kAtom};
  };
  while (r.position() < end) {
    const std::size_t at = r.position();
    if (r.u8("expression token") != op::kPush) fail(at, "expected 0x20 before an expression token");
    const std::size_t tok = r.position();
    if (tok >= end) fail(tok, "expression ends after a token separator");
    const std::uint8_t c = data[tok];
    if (c == op::kShortLocal || c == op::kFloatLocal) {
      r.u8("");
      stack.push_back({local(r.u16("variable index"))});
    } else if (c == op::kGlobal || c == op::kReference) {
      r.u8("");
      std::uint16_t idx = r.u16("reference index");
      if (c == op::kGlobal) note_global(idx);
      stack.push_back({ref(idx)});
    } else if (c == op::kRefPrefix) {
      r.u8("");
      std::uint16_t idx = r.u16("reference index");
      std::uint8_t k = r.u8("variable or call");
      if (k == op::kShortLocal || k == op::kFloatLocal) {
        stack.push_back({remote_var(idx, k, r.u16("variable index"))});
      } else if (k == op::kCall) {
        const std::size_t cat = r.position();
        const CommandInfo& cmd = command(r.u16("opcode"), cat);
        std::uint16_t n = r.u16("call length");
        std::string owner = ref(idx);  // before the arguments: first use follows the bytes
        stack.push_back(call_operand(owner + ".", cmd, r.position() + n));
      } else {
        fail(r.position() - 1, fmt::format("expected 's', 'f' or 'X' after a reference, found 0x{:02X}", k));
      }
    } else if (c == op::kCall) {
      r.u8("");
      const std::size_t cat = r.position();
      const CommandInfo& cmd = command(r.u16("opcode"), cat);
      std::uint16_t n = r.u16("call length");
      if (n > end - r.position()) fail(cat, "call runs past the expression");
      stack.push_back(call_operand("", cmd, r.position() + n));
    } else if ((c >= '0' && c <= '9') || c == '.') {
      std::size_t e = tok;
      while (e < end && data[e] != op::kPush) ++e;
      // The number as written in source, kept as text: digits with at most one '.', as the
      // tokenizer reads one number. Other bytes would read back as other tokens.
      std::string_view text(reinterpret_cast<const char*>(data.data()) + tok, e - tok);
      if (std::count(text.begin(), text.end(), '.') > 1 || text == "." ||
          !std::all_of(text.begin(), text.end(), [](char d) { return (d >= '0' && d <= '9') || d == '.'; }))
        fail(tok, fmt::format("number token '{}' is not a number source can write", text));
      stack.push_back({std::string(text)});
      r.skip(e - tok, "number");
    } else if (c == '~') {
      r.u8("");
      Operand o = pop(tok);
      stack.push_back({"-" + wrap(o, o.precedence < kUnary), kUnary});
    } else {
      std::size_t e = tok;
      while (e < end && data[e] != op::kPush) ++e;
      std::string_view text(reinterpret_cast<const char*>(data.data()) + tok, e - tok);
      const BinaryOp* found = nullptr;
      for (const BinaryOp& b : kVanillaOps)
        if (b.text == text) found = &b;
      if (!found) fail(tok, fmt::format("unknown expression token '{}'", text));
      r.skip(e - tok, "operator");
      Operand rhs = pop(tok), lhs = pop(tok);
      stack.push_back({wrap(lhs, lhs.precedence < found->precedence) + " " + std::string(text) + " " +
                           wrap(rhs, rhs.precedence <= found->precedence),
                       found->precedence});
    }
  }
  if (stack.size() != 1) fail(start, fmt::format("expression leaves {} values, expected 1", stack.size()));
  return stack.back().text;
}

// Statement-by-statement walk of the whole script.
class Decompiler {
 public:
  Decompiler(const ScriptData& s, const DecompileOptions& o) : c_(s, o) {}

  std::string run() {
    auto& r = c_.r;
    while (!r.at_end()) statement();
    // Result scripts have no ScriptName statement; the text follows the bytes.
    const auto& code = c_.script.bytecode;
    std::string out;
    if (code.size() >= 2 && code[0] == op::kScriptName && code[1] == 0)
      out = "ScriptName " + (c_.options.script_name.empty() ? std::string("Script") : c_.options.script_name) + "\n";
    if (!c_.script.variables.empty()) out += "\n";
    for (const LocalVariable& v : c_.script.variables) out += declaration(v) + " " + v.name + "\n";
    if (!body_.empty()) out += "\n";
    out += body_;
    return out;
  }

 private:
  std::string declaration(const LocalVariable& v) const {
    if (c_.string_vars.count(v.index)) return "string_var";
    if (c_.array_vars.count(v.index)) return "array_var";
    if (v.is_integer()) return "short";
    if (c_.ref_vars.count(v.index)) return "ref";
    for (const ScriptRef& e : c_.script.refs)
      if (e.kind == ScriptRef::Kind::Variable && e.value == v.index) return "ref";
    return "float";
  }

  void line(const std::string& text) {
    // A stray EndIf, Else or loop (the editor lets a stray EndIf through) takes the level below 0.
    body_.append(static_cast<std::size_t>(std::max(indent_, 0)) * 2, ' ');
    body_ += text;
    body_ += '\n';
  }

  void statement() {
    auto& r = c_.r;
    const std::size_t at = r.position();
    const std::uint16_t opcode = r.u16("statement opcode");
    switch (opcode) {
      case op::kScriptName:
        if (r.u16("length") != 0) c_.fail(at, "ScriptName with a non-zero length");
        if (at != 0) c_.fail(at, "ScriptName after the start of the script");
        return;
      case op::kBegin: return begin(at);
      case op::kPopExecutionContext: {
        // The compiler override's context pop, written by the compiler just before End.
        const auto& code = c_.script.bytecode;
        const bool before_end = at + 8 <= code.size() && code[at + 2] == 0 && code[at + 3] == 0 &&
                                code[at + 4] == op::kEnd && code[at + 5] == 0;
        if (!c_.expression_args || !before_end) c_.fail(at, "@PopExecutionContext outside the end of a `Begin _` block");
        r.u16("length");
        return;
      }
      case op::kEnd:
        if (r.u16("length") != 0) c_.fail(at, "End with a non-zero length");
        c_.expression_args = false;
        indent_ = 0;
        line("End");
        body_ += "\n";
        return;
      case op::kReturn:
        if (r.u16("length") != 0) c_.fail(at, "Return with a non-zero length");
        line("Return");
        return;
      case op::kEndIf:
        if (r.u16("length") != 0) c_.fail(at, "EndIf with a non-zero length");
        --indent_;
        line("EndIf");
        return;
      case op::kElse: {
        if (r.u16("length") != 2) c_.fail(at, "Else with a length other than 2");
        r.u16("jump count");
        --indent_;
        line("Else");
        ++indent_;
        return;
      }
      case op::kIf:
      case op::kElseIf: {
        std::uint16_t len = r.u16("length");
        const std::size_t end = r.position() + len;
        r.u16("jump count");
        std::uint16_t elen = r.u16("expression length");
        if (4 + elen != len) c_.fail(at, "If expression length does not match the statement length");
        std::string cond = c_.expression(elen);
        if (r.position() != end) c_.fail(r.position(), "If statement length mismatch");
        if (opcode == op::kElseIf) --indent_;
        line((opcode == op::kIf ? "If " : "ElseIf ") + cond);
        ++indent_;
        return;
      }
      case op::kSet: return set(at);
      case op::kDot: {
        std::uint16_t idx = r.u16("reference index");
        std::string who = c_.ref(idx);
        const std::size_t cat = r.position();
        std::uint16_t opc = r.u16("opcode");
        line(who + "." + command_statement(c_.command(opc, cat), cat));
        return;
      }
      default: {
        const CommandInfo& cmd = c_.command(opcode, at);
        line(command_statement(cmd, at));
        // while/foreach sit at the level around them; their body is one level in.
        if (cmd.parse == ParseStyle::BeginLoop) ++indent_;
        return;
      }
    }
  }

  // A command used as a statement; its opcode has been read.
  std::string command_statement(const CommandInfo& cmd, std::size_t at) {
    auto& r = c_.r;
    const std::uint16_t len = r.u16("length");
    if (len > r.remaining()) c_.fail(at, fmt::format("{} of {} bytes runs past the script", cmd.name, len));
    const std::size_t end = r.position() + len;
    std::string text;
    if (cmd.kind == CommandKind::Obse || cmd.kind == CommandKind::Plugin) {
      if (cmd.parse != ParseStyle::Default) {
        text = decode_obse_statement(c_, cmd, end, indent_);
        if (r.position() != end) c_.fail(r.position(), fmt::format("{} ends before its length says", cmd.name));
        return text;
      }
    }
    if (cmd.opcode == op::kMessageBox || cmd.opcode == op::kMessage) return message(cmd, end);
    return c_.call(cmd, end);
  }

  // Message/MessageBox: format string, the variables it shows, then (MessageBox) button texts.
  std::string message(const CommandInfo& cmd, std::size_t end) {
    auto& r = c_.r;
    std::string out(c_.command_name(cmd));
    if (r.u16("argument count") != 1) c_.fail(r.position() - 2, "message with an argument count other than 1");
    std::uint16_t n = r.u16("string length");
    out += ' ' + c_.literal(r.bytes(n, "message text"));
    std::uint16_t vars = r.u16("variable count");
    for (std::uint16_t i = 0; i < vars; ++i) out += ", " + message_var();
    if (cmd.opcode == op::kMessageBox) {
      std::uint16_t buttons = r.u16("button count");
      for (std::uint16_t i = 0; i < buttons; ++i) {
        if (r.u16("button tag") != 1) c_.fail(r.position() - 2, "button without its 01 00 tag");
        std::uint16_t bl = r.u16("button length");
        out += ", " + c_.literal(r.bytes(bl, "button text"));
      }
    } else {
      // Message: how many seconds it shows, 0 when not given.
      if (std::uint32_t seconds = r.u32("message duration")) out += ", " + std::to_string(seconds);
    }
    if (r.position() != end) c_.fail(r.position(), fmt::format("{} ends before its length says", cmd.name));
    return out;
  }

  std::string message_var() {
    auto& r = c_.r;
    const std::size_t at = r.position();
    std::uint8_t tag = r.u8("variable");
    if (tag == op::kShortLocal || tag == op::kFloatLocal) return c_.local(r.u16("variable index"));
    if (tag == op::kGlobal) {
      std::uint16_t idx = r.u16("global index");
      c_.note_global(idx);
      return c_.ref(idx);
    }
    if (tag == op::kRefPrefix) {
      std::uint16_t idx = r.u16("reference index");
      std::uint8_t k = r.u8("variable kind");
      if (k != op::kShortLocal && k != op::kFloatLocal) c_.fail(r.position() - 1, "expected 's' or 'f' in a message variable");
      return c_.remote_var(idx, k, r.u16("variable index"));
    }
    c_.fail(at, fmt::format("unexpected message variable tag 0x{:02X}", tag));
  }

  void set(std::size_t at) {
    auto& r = c_.r;
    std::uint16_t len = r.u16("length");
    const std::size_t end = r.position() + len;
    if (len > r.remaining()) c_.fail(at, "Set runs past the script");
    std::string target;
    std::uint8_t tag = r.u8("set target");
    if (tag == op::kShortLocal || tag == op::kFloatLocal) {
      target = c_.local(r.u16("variable index"));
    } else if (tag == op::kGlobal) {
      std::uint16_t idx = r.u16("global index");
      c_.note_global(idx);
      target = c_.ref(idx);
    } else if (tag == op::kRefPrefix) {
      std::uint16_t idx = r.u16("reference index");
      std::uint8_t k = r.u8("variable kind");
      if (k != op::kShortLocal && k != op::kFloatLocal) c_.fail(r.position() - 1, "expected 's' or 'f' in a Set target");
      target = c_.remote_var(idx, k, r.u16("variable index"));
    } else {
      c_.fail(at + 4, fmt::format("unexpected Set target tag 0x{:02X}", tag));
    }
    std::uint16_t elen = r.u16("expression length");
    std::string value = c_.expression(elen);
    if (r.position() != end) c_.fail(r.position(), "Set statement length mismatch");
    line("Set " + target + " to " + value);
  }

  void begin(std::size_t at) {
    auto& r = c_.r;
    std::uint16_t len = r.u16("length");
    const std::size_t end = r.position() + len;
    std::uint16_t type = r.u16("block type");
    r.u32("block length");
    const CommandInfo* block = find_block(type);
    if (!block) c_.fail(at, fmt::format("unknown begin block type 0x{:04X}", type));
    // A block compiled with OBSE's compiler override starts with @PushExecutionContext.
    const auto& code = c_.script.bytecode;
    c_.expression_args = end + 4 <= code.size() && code[end] == (op::kPushExecutionContext & 0xFF) &&
                         code[end + 1] == (op::kPushExecutionContext >> 8) && code[end + 2] == 0 && code[end + 3] == 0;
    std::string text = c_.expression_args ? "Begin _" : "Begin ";
    if (is_obse_function_block(type)) {
      text += "Function " + decode_function_parameters(c_, end);
    } else {
      text += block->name;
      if (r.position() < end) {
        auto params = block->params();
        std::uint16_t count = r.u16("argument count");
        if (c_.expression_args && count == op::kOverrideBlockType) {
          text += decode_obse_argument_list(c_, end, params.size());
        } else {
          if (count > params.size()) c_.fail(r.position() - 2, "block with more arguments than its type takes");
          for (std::uint16_t i = 0; i < count; ++i) text += " " + c_.argument(params[i].type);
        }
      }
    }
    if (r.position() != end) c_.fail(r.position(), "Begin statement length mismatch");
    if (c_.expression_args) r.skip(4, "@PushExecutionContext");
    indent_ = 1;
    line_raw(text);
  }

  void line_raw(const std::string& text) {
    body_ += text;
    body_ += '\n';
  }

  detail::DecodeContext c_;

 public:
  DecodeContext& context() { return c_; }

 private:
  std::string body_;
  int indent_ = 0;
};

}  // namespace detail

namespace {

// The editor keys the reference list by name: `player` and `PlayerRef` get entries of their
// own, except that OBSE names the calling reference of a command (`player.GetItemCount x` in a
// Let) `PlayerRef` whichever it writes. A first pass finds which entries for the player are used
// in which way, and the names are chosen so that each entry compiles back to itself: `PlayerRef`
// for an entry used as an OBSE calling reference, then `player` and `PlayerRef` in list order.
// The player's FormID written as an escape, `@00000014`, is a third name with an entry of its
// own (in OBSE calling position too): for a third entry, or a second one used as a calling
// reference. An entry first used as a bare operand of OBSE code is not named `player`: OBSE looks
// a bare `player` up by name, and with no entry of that name yet finds the Player base form.
std::map<std::uint16_t, std::string> player_names(const ScriptData& script, const DecompileOptions& options) {
  std::map<std::uint16_t, std::string> names;
  const ScriptRef player{ScriptRef::Kind::Object, kPlayerRef};
  if (std::find(script.refs.begin(), script.refs.end(), player) == script.refs.end()) return names;
  detail::PlayerUses uses;
  detail::Decompiler first(script, options);
  first.context().player_uses = &uses;
  try {
    first.run();
  } catch (const Error&) {
    return names;  // the real pass reports it
  }
  const std::string escape = fmt::format("@{:08X}", kPlayerRef);
  std::vector<std::string> free_names{"player", "PlayerRef", escape};
  std::vector<std::string> calling_names{"PlayerRef", escape};
  for (std::uint16_t index : uses.calling) {
    if (calling_names.empty()) break;  // no name left that keys a calling reference apart
    names[index] = calling_names.front();
    std::erase(free_names, calling_names.front());
    calling_names.erase(calling_names.begin());
  }
  for (std::uint16_t index : uses.named) {
    if (names.contains(index)) continue;
    // `player` first met as a bare OBSE operand would name the Player base form.
    auto name = std::find_if(free_names.begin(), free_names.end(), [&](const std::string& n) {
      return n != "player" || !uses.first_bare.contains(index);
    });
    if (name == free_names.end()) continue;
    names[index] = *name;
    free_names.erase(name);
  }
  return names;
}

}  // namespace

std::string decompile(const ScriptData& script, const DecompileOptions& options) {
  try {
    detail::Decompiler d(script, options);
    d.context().player_names = player_names(script, options);
    return d.run();
  } catch (const Error& e) {
    // Without the file offset of SCDA (compressed records), a short read's position is only a
    // position in the compiled script; say so rather than pass it off as a file offset.
    if (options.bytecode_offset != Error::kNoOffset || e.offset() == Error::kNoOffset) throw;
    throw Error(e.file(), Error::kNoOffset, e.record(), fmt::format("compiled script byte {}: {}", e.offset(), e.detail()));
  }
}

namespace detail {

Hints collect_hints(const ScriptData& original, std::span<const std::string> obse_plugins) {
  Hints hints;
  DecompileOptions options;
  options.obse_plugins.assign(obse_plugins.begin(), obse_plugins.end());
  Decompiler d(original, options);
  d.context().usage = &hints;
  try {
    d.run();
  } catch (const Error&) {
    // What was read before the damage still counts.
  }
  return hints;
}

std::string canonical_text(const ScriptData& script, std::span<const std::string> obse_plugins) {
  DecompileOptions options;
  options.obse_plugins.assign(obse_plugins.begin(), obse_plugins.end());
  Decompiler d(script, options);
  return d.run();
}

}  // namespace detail

}  // namespace tesmod::script
