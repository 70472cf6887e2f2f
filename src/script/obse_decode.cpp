#include "obse_decode.hpp"

#include <fmt/format.h>

#include <vector>

#include "bytecode.hpp"
#include "lexer.hpp"
#include "obse_operators.hpp"

namespace tesmod::script::detail {
namespace {

constexpr char kVarTypeLetter[] = {'f', 's', 't', 'a', 'r'};
// Arguments a Call passes at most (the compiler's limit, as OBSE's).
constexpr std::size_t kMaxCallArguments = 10;

std::string wrap(const Operand& o, bool paren) { return paren ? "(" + o.text + ")" : o.text; }

class ObseDecoder {
 public:
  explicit ObseDecoder(DecodeContext& c) : c_(c) {}
  ObseDecoder(const ObseDecoder&) = delete;
  ObseDecoder& operator=(const ObseDecoder&) = delete;

  // A variable token's name; notes string/array locals for the declarations.
  std::string variable() {
    auto& r = c_.r;
    const std::size_t at = r.position();
    std::uint8_t type = r.u8("variable type");
    std::uint16_t ref = r.u16("variable owner");
    std::uint16_t index = r.u16("variable index");
    if (type > 4) c_.fail(at, fmt::format("variable type {} is not one of 0-4", type));
    if (ref == 0) {
      if (type == 2) c_.string_vars.insert(index);
      if (type == 3) c_.array_vars.insert(index);
      if (type == 4) c_.ref_vars.insert(index);
      return c_.local(index);
    }
    c_.note_remote(ref, index, static_cast<ObseVarType>(type));
    // The compiler keys the owner of `owner.var` in OBSE code like a command's calling
    // reference (the player as `PlayerRef`), so it is named like one.
    c_.obse_calling_ref = true;
    // A variable of an unavailable script comes out as `owner.@<type letter><index>`.
    std::string text = c_.remote_var(ref, static_cast<std::uint8_t>(kVarTypeLetter[type]), index);
    c_.obse_calling_ref = false;
    return text;
  }

  // One postfix token stream ending at end.
  std::string expression(std::size_t end) {
    auto& r = c_.r;
    const std::size_t start = r.position();
    std::vector<Operand> stack;
    auto pop = [&](std::size_t at) {
      if (stack.empty()) c_.fail(at, "OBSE operator without an operand");
      Operand o = std::move(stack.back());
      stack.pop_back();
      return o;
    };
    while (r.position() < end) {
      const std::size_t at = r.position();
      const std::uint8_t t = r.u8("OBSE token");
      switch (t) {
        case obse_token::kByte: stack.push_back({std::to_string(r.u8("byte literal"))}); break;
        case obse_token::kShort: stack.push_back({std::to_string(r.u16("short literal"))}); break;
        case obse_token::kLong: stack.push_back({std::to_string(r.u32("long literal"))}); break;
        case obse_token::kDouble: stack.push_back({c_.float_literal(r.u64("double literal"), at)}); break;
        case obse_token::kString: {
          std::uint16_t n = r.u16("string length");
          auto text = r.bytes(n, "string");
          stack.push_back({c_.literal(text)});
          break;
        }
        case obse_token::kForm: {
          c_.obse_bare_ref = true;
          stack.push_back({c_.ref(r.u16("reference index"))});
          c_.obse_bare_ref = false;
          break;
        }
        case obse_token::kGlobal: {
          std::uint16_t idx = r.u16("reference index");
          c_.note_global(idx);
          stack.push_back({c_.ref(idx)});
          break;
        }
        case obse_token::kVariable: stack.push_back({variable()}); break;
        case obse_token::kCommand: stack.push_back(command_token()); break;
        default: {
          const ObseOperator* op = obse_operator(t);
          if (!op) c_.fail(at, fmt::format("unknown OBSE expression token 0x{:02X}", t));
          if (op->unary) {
            Operand o = pop(at);
            stack.push_back({std::string(op->text) + wrap(o, o.precedence < op->precedence), op->precedence});
          } else if (op->code == kSubscript) {
            Operand idx = pop(at), arr = pop(at);
            stack.push_back({wrap(arr, arr.precedence < op->precedence) + "[" + idx.text + "]", op->precedence});
          } else {
            Operand rhs = pop(at), lhs = pop(at);
            // The compiler writes a string after `->`, the member's name: anything else (a form,
            // an expression of strings) would read back as that string.
            const bool one_string = rhs.text.size() >= 2 && rhs.text.front() == '"' && rhs.text.find('"', 1) == rhs.text.size() - 1;
            if (op->code == kMember && !one_string)
              c_.fail(at, fmt::format("'->' takes a string, the member's name; found {}", rhs.text));
            bool lp = op->right_assoc ? lhs.precedence <= op->precedence : lhs.precedence < op->precedence;
            bool rp = op->right_assoc ? rhs.precedence < op->precedence : rhs.precedence <= op->precedence;
            std::string text = op->code == kMember     ? wrap(lhs, lp) + "->" + member_name(rhs.text)  // b: a bare name
                               : op->code == kMakePair ? wrap(lhs, lp) + "::" + wrap(rhs, rp)
                                                       : wrap(lhs, lp) + " " + std::string(op->text) + " " + wrap(rhs, rp);
            stack.push_back({std::move(text), op->precedence});
          }
        }
      }
    }
    if (stack.size() != 1) c_.fail(start, fmt::format("OBSE expression leaves {} values, expected 1", stack.size()));
    return stack.back().text;
  }

  // u8 count, then count x (u16 length incl. itself + tokens). Returns the args, each as text.
  // More than max_args is an error: the compiler reads no more (the rest of the line is left
  // unread), so the text would compile to fewer.
  std::vector<std::string> arg_list(std::size_t end, std::size_t max_args) {
    auto& r = c_.r;
    std::vector<std::string> args;
    if (r.position() == end) return args;
    std::uint8_t n = r.u8("argument count");
    if (n > max_args) c_.fail(r.position() - 1, fmt::format("{} OBSE arguments where at most {} are read", n, max_args));
    for (std::uint8_t i = 0; i < n; ++i) {
      const std::size_t at = r.position();
      std::uint16_t len = r.u16("argument length");
      if (len < 2 || at + len > end) c_.fail(at, fmt::format("OBSE argument of {} bytes does not fit", len));
      args.push_back(expression(at + len));
    }
    if (r.position() != end) c_.fail(r.position(), "OBSE argument list ends before its length says");
    return args;
  }

  // Command arguments in OBSE form, joined for a call: compound args in parentheses.
  std::string call_args(const CommandInfo& cmd, std::size_t end) {
    std::string out(c_.command_name(cmd));
    if (cmd.parse == ParseStyle::Call) return out + call_block(end);
    return out + joined_args(end, cmd.param_count);
  }

  std::string joined_args(std::size_t end, std::size_t max_args) {
    std::string out;
    for (const std::string& a : arg_list(end, max_args)) out += " " + paren_if_compound(a);
    return out;
  }

  // `Call Fn args` data: version, function token, arg list.
  std::string call_block(std::size_t end) {
    auto& r = c_.r;
    const std::size_t at = r.position();
    if (r.u8("call version") != 1) c_.fail(at, "Call data version is not 1");
    const std::size_t fat = r.position();
    std::uint16_t flen = r.u16("function length");
    if (flen < 2 || fat + flen > end) c_.fail(fat, "Call function token does not fit");
    std::string fn = expression(fat + flen);
    std::string out = " " + paren_if_compound(fn);
    for (const std::string& a : arg_list(end, kMaxCallArguments)) out += " " + paren_if_compound(a);
    return out;
  }

  Operand command_token() {
    auto& r = c_.r;
    std::uint16_t ref = r.u16("calling reference");
    // Named before the arguments, so first use follows the bytes.
    std::string owner;
    if (ref) {
      c_.obse_calling_ref = true;
      owner = c_.ref(ref);
      c_.obse_calling_ref = false;
    }
    const std::size_t oat = r.position();
    const CommandInfo& cmd = c_.command(r.u16("opcode"), oat);
    const std::size_t lat = r.position();
    std::uint16_t len = r.u16("argument length");
    if (len < 2 || lat + len > c_.script.bytecode.size()) c_.fail(lat, "command token length does not fit");
    const std::size_t end = lat + len;
    std::string text;
    bool has_args;
    if (cmd.parse == ParseStyle::Default) {
      // Vanilla arguments, always with the count (0 when the command takes none).
      std::uint16_t count = r.u16("argument count");
      auto params = cmd.params();
      text = c_.command_name(cmd);
      if (c_.expression_args && count == op::kOverrideCommand && cmd.kind != CommandKind::Plugin) {
        text += joined_args(end, params.size());
      } else {
        if (count > params.size()) c_.fail(lat + 2, fmt::format("{} takes at most {} arguments", cmd.name, params.size()));
        for (std::uint16_t i = 0; i < count; ++i) text += " " + c_.argument(params[i].type);
      }
      if (r.position() != end) c_.fail(r.position(), fmt::format("{} arguments end before the token length says", cmd.name));
      has_args = text.size() > c_.command_name(cmd).size();
    } else {
      text = call_args(cmd, end);
      has_args = text.size() > c_.command_name(cmd).size();
    }
    if (ref) text = owner + "." + text;
    // A call that takes arguments but was given none would take what follows it (the next
    // argument, a value after `::`) as its own: written in parentheses, it cannot.
    if (!has_args && cmd.param_count > 0) return {"(" + text + ")", kAtom};
    // A call with arguments swallows what follows it; as an operand it needs parentheses.
    return {text, has_args ? 0 : kAtom};
  }

 private:
  // `a->b` for a member (a string literal) that reads back as a bare name; other strings stay
  // quoted (`a->"b c"`), which the compiler takes too.
  static std::string member_name(const std::string& quoted) {
    if (quoted.size() < 3) return quoted;
    const std::string name = quoted.substr(1, quoted.size() - 2);
    bool digits = true;  // all digits: a number, not a name
    for (char ch : name) {
      if (!is_word_char(ch)) return quoted;
      digits = digits && ch >= '0' && ch <= '9';
    }
    return digits ? quoted : name;
  }
  static std::string paren_if_compound(const std::string& a) {
    // `&` (box) and `*` (unbox) are binary operators too: after an argument they would join it.
    bool simple = !a.starts_with('&') && !a.starts_with('*');
    int depth = 0;
    bool in_string = false;
    for (char ch : a) {
      if (ch == '"') in_string = !in_string;
      if (in_string) continue;
      if (ch == '[' || ch == '(') ++depth;
      if (ch == ']' || ch == ')') --depth;
      if (ch == ' ' && depth == 0) simple = false;
    }
    return simple ? a : "(" + a + ")";
  }

  DecodeContext& c_;
};

}  // namespace

bool is_obse_function_block(std::uint16_t type) { return type == 0x07; }

std::string decode_function_parameters(DecodeContext& c, std::size_t end) {
  auto& r = c.r;
  const std::size_t at = r.position();
  if (r.u8("function header version") != 1) c.fail(at, "function header version is not 1");
  std::uint8_t n = r.u8("parameter count");
  std::string out = "{";
  for (std::uint8_t i = 0; i < n; ++i) {
    std::uint16_t index = r.u16("parameter variable");
    std::uint8_t type = r.u8("parameter type");
    if (type == 2) c.string_vars.insert(index);
    if (type == 3) c.array_vars.insert(index);
    if (type == 4) c.ref_vars.insert(index);
    out += (i ? ", " : "") + c.local(index);
  }
  out += "}";
  std::uint8_t arrays = r.u8("array variable count");
  for (std::uint8_t i = 0; i < arrays; ++i) c.array_vars.insert(r.u16("array variable"));
  if (r.position() != end) c.fail(r.position(), "function header ends before the Begin length says");
  return out;
}

std::string decode_obse_argument_list(DecodeContext& c, std::size_t end, std::size_t max_args) {
  return ObseDecoder(c).joined_args(end, max_args);
}

std::string decode_obse_arguments(DecodeContext& c, const CommandInfo& cmd, std::size_t end) {
  return ObseDecoder(c).call_args(cmd, end);
}

std::string decode_obse_statement(DecodeContext& c, const CommandInfo& cmd, std::size_t end, int& indent) {
  auto& r = c.r;
  ObseDecoder d(c);
  switch (cmd.parse) {
    case ParseStyle::Let: {
      auto args = d.arg_list(end, 0xFF);
      if (args.size() != 1) c.fail(r.position(), "let with other than one expression");
      return "Let " + args[0];
    }
    case ParseStyle::BeginLoop: {
      r.u32("loop end offset");
      auto args = d.arg_list(end, 0xFF);
      if (args.size() != 1) c.fail(r.position(), fmt::format("{} with other than one expression", cmd.name));
      return std::string(cmd.name) + " " + args[0];
    }
    case ParseStyle::Loop:
    case ParseStyle::Null:
      if (cmd.parse == ParseStyle::Loop) --indent;
      return std::string(cmd.name);
    default: return d.call_args(cmd, end);
  }
}

}  // namespace tesmod::script::detail
