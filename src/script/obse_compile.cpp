// OBSE's half of the compiler: its postfix expression bytecode (let, eval, while, foreach,
// commands parsed as expressions), Call, and the parameter header of `Begin Function`.
#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "bytecode.hpp"
#include "compile_context.hpp"
#include "tesmod/io/ascii.hpp"

namespace tesmod::script::detail {
namespace {

void write_number(Bytes& out, std::string_view text, const Token& at, CompileContext& c) {
  std::string s(text);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str()) c.fail(at, fmt::format("'{}' is not a number", text));
  if (v == std::floor(v) && v >= 0 && v <= 4294967295.0) {
    auto n = static_cast<std::uint32_t>(v);
    if (n <= 0xFF) {
      out.u8(obse_token::kByte);
      out.u8(static_cast<std::uint8_t>(n));
    } else if (n <= 0xFFFF) {
      out.u8(obse_token::kShort);
      out.u16(static_cast<std::uint16_t>(n));
    } else {
      out.u8(obse_token::kLong);
      out.u32(n);
    }
    return;
  }
  out.u8(obse_token::kDouble);
  out.f64(v);
}

void write_string(Bytes& out, std::string_view text, ObseProfile profile) {
  std::string s = obse_string(text, profile);
  out.u8(obse_token::kString);
  out.u16(static_cast<std::uint16_t>(s.size()));
  out.text(s);
}

void write_variable(Bytes& out, ObseVarType type, std::uint16_t ref, std::uint32_t index) {
  out.u8(obse_token::kVariable);
  out.u8(static_cast<std::uint8_t>(type));
  out.u16(ref);
  out.u16(static_cast<std::uint16_t>(index));
}

class ObseParser {
 public:
  ObseParser(CompileContext& c, Tokens& t) : c_(c), t_(t) {}

  // One expression; stops at the end of the line, a comma, an unmatched ')' or ']', or where
  // a value follows a value (the start of the next argument).
  void expression(Bytes& out) {
    struct Pending {
      const ObseOperator* op;  // nullptr: '('
    };
    std::vector<Pending> ops;
    bool expect_operand = true;
    auto flush = [&](int precedence) {
      while (!ops.empty() && ops.back().op) {
        const ObseOperator* top = ops.back().op;
        bool pop = top->right_assoc ? precedence < top->precedence : precedence <= top->precedence;
        if (!pop) break;
        out.u8(top->code);
        ops.pop_back();
      }
    };
    while (true) {
      const Token& tok = t_.peek();
      if (tok.kind == TokenKind::End || tok.is(",")) break;
      if (expect_operand) {
        if (tok.is("(")) {
          t_.next();
          expression(out);
          if (!t_.peek().is(")")) c_.fail(t_.peek(), "expected ')'");
          t_.next();
          expect_operand = false;
          continue;
        }
        if (tok.kind == TokenKind::Operator) {
          const ObseOperator* u = obse_operator(tok.text, true);
          if (!u) c_.fail(tok, fmt::format("expected a value, found '{}'", tok.text));
          t_.next();
          ops.push_back({u});
          continue;
        }
        operand(out);
        expect_operand = false;
        continue;
      }
      if (tok.kind != TokenKind::Operator || tok.is(")") || tok.is("]")) break;
      // `a -1`: a minus after a space and before its operand starts the next argument.
      if (tok.is("-") && t_.pos > 0 && t_.list[t_.pos - 1].end_column < tok.column &&
          t_.peek(1).column == tok.column + 1 && t_.peek(1).kind != TokenKind::End)
        break;
      if (tok.is("[")) {
        t_.next();
        flush(90);
        ops.push_back({obse_operator(kSubscript)});
        expression(out);
        if (!t_.peek().is("]")) c_.fail(t_.peek(), "expected ']'");
        t_.next();
        continue;
      }
      const ObseOperator* b = obse_operator(tok.text, false);
      if (!b) break;
      t_.next();
      flush(b->precedence);
      ops.push_back({b});
      if (b->code == kMember) {
        const Token& m = t_.next();
        if (!m.is_word() && m.kind != TokenKind::String) c_.fail(m, "expected a member name after '->'");
        write_string(out, m.text, c_.options.obse_profile);
        continue;
      }
      expect_operand = true;
    }
    if (expect_operand) c_.fail(t_.peek(), "expression ends where a value was expected");
    while (!ops.empty()) {
      out.u8(ops.back().op->code);
      ops.pop_back();
    }
  }

  // u8 count + count x (u16 length incl. itself + tokens); at most max_args. params: the vanilla
  // parameters the arguments stand for (compiler override), if any.
  void arg_list(Bytes& out, std::size_t max_args, std::span<const ParamSpec> params = {}) {
    Bytes args;
    std::uint8_t n = 0;
    const std::optional<std::uint8_t> outer = c_.argument_param;
    while (n < max_args) {
      while (t_.peek().is(",")) t_.next();
      const Token& p = t_.peek();
      if (p.kind == TokenKind::End || p.is(")") || p.is("]")) break;
      if (p.kind == TokenKind::Operator && !obse_operator(p.text, true) && !p.is("(")) break;
      Bytes e;
      c_.argument_param = n < params.size() ? std::optional<std::uint8_t>(params[n].type) : std::nullopt;
      expression(e);
      c_.argument_param = outer;
      args.u16(static_cast<std::uint16_t>(e.size() + 2));
      args.append(e);
      ++n;
    }
    out.u8(n);
    out.append(args);
  }

  void call_data(Bytes& out) {
    out.u8(1);
    Bytes fn;
    // The function: a script form, or a variable holding one.
    const Token& f = t_.peek();
    if (f.kind == TokenKind::Word && !c_.local(f.text) && !(t_.peek(1).is(".") || t_.peek(1).is("["))) {
      t_.next();
      auto r = c_.form(f, false);
      if (!r) c_.fail_unknown(f, fmt::format("unknown function script '{}'", f.text));
      fn.u8(obse_token::kForm);
      fn.u16(r->ref_index);
    } else {
      operand_only(fn);
    }
    out.u16(static_cast<std::uint16_t>(fn.size() + 2));
    out.append(fn);
    arg_list(out, 10);
  }

  // The arguments of a command parsed by OBSE.
  void command_args(const CommandInfo& cmd, Bytes& out) {
    if (cmd.parse == ParseStyle::Call) return call_data(out);
    if (cmd.parse == ParseStyle::Loop || cmd.parse == ParseStyle::Null) return;
    arg_list(out, cmd.parse == ParseStyle::Let || cmd.parse == ParseStyle::BeginLoop ? 1 : cmd.param_count);
  }

 private:
  // A single operand with its subscripts, for Call's function token; a compound one in
  // parentheses (`Call (ref.Command x)`), as the decompiler writes it: without them its
  // arguments would run on into the function's.
  void operand_only(Bytes& out) {
    if (t_.peek().is("(")) {
      t_.next();
      expression(out);
      if (!t_.peek().is(")")) c_.fail(t_.peek(), "expected ')'");
      t_.next();
    } else {
      operand(out);
    }
    while (t_.peek().is("[")) {
      t_.next();
      expression(out);
      if (!t_.peek().is("]")) c_.fail(t_.peek(), "expected ']'");
      t_.next();
      out.u8(kSubscript);
    }
  }

  void command_token(const CommandInfo& cmd, std::uint16_t calling, Bytes& out) {
    Bytes args;
    if (cmd.parse == ParseStyle::Default) vanilla_arguments(c_, t_, cmd, args, true);
    else command_args(cmd, args);
    out.u8(obse_token::kCommand);
    out.u16(calling);
    out.u16(cmd.opcode);
    out.u16(static_cast<std::uint16_t>(args.size() + 2));
    out.append(args);
  }

  void operand(Bytes& out) {
    const Token& tok = t_.peek();
    if (tok.kind == TokenKind::Number) {
      t_.next();
      return write_number(out, tok.text, tok, c_);
    }
    if (tok.kind == TokenKind::String) {
      t_.next();
      return write_string(out, tok.text, c_.options.obse_profile);
    }
    if (!tok.is_word()) c_.fail(tok, fmt::format("expected a value, found '{}'", tok.text));
    const Token& name = t_.next();
    if (t_.peek().is(".") && t_.peek(1).is_word()) {
      t_.next();
      const Token& member = t_.next();
      Resolved owner = c_.resolve(name, true);
      if (const CommandInfo* cmd = c_.command(member.text)) return command_token(*cmd, c_.owner_entry(owner, name), out);
      RemoteVar rv = c_.remote_var(owner, name, member);
      return write_variable(out, rv.type, rv.ref_index, rv.index);
    }
    // A bare word before `::` is a pair key (event filters: ref::x, object::y): a string.
    if (t_.peek().is("::") && !c_.local(name.text) && !c_.command(name.text) && !known_form(name))
      return unquoted_string(name, out);
    if (ascii::iequals(name.text, "player") && !c_.local(name.text)) {
      out.u8(obse_token::kForm);
      out.u16(c_.obse_bare_player());
      return;
    }
    Resolved r = c_.resolve(name, false);
    switch (r.kind) {
      case Resolved::Kind::Local: return write_variable(out, r.local->type, 0, r.local->index);
      case Resolved::Kind::Command: return command_token(*r.command, 0, out);
      case Resolved::Kind::Global:
        out.u8(obse_token::kGlobal);
        out.u16(r.ref_index);
        return;
      case Resolved::Kind::Form:
        out.u8(obse_token::kForm);
        out.u16(r.ref_index);
        return;
      case Resolved::Kind::None: return unquoted_string(name, out);
    }
  }

  // OBSE takes a bare word nothing resolves for a string (the editor warns). So would a
  // misspelled name be, so tesmod takes it only where CompileContext allows it.
  void unquoted_string(const Token& name, Bytes& out) {
    const std::string text = obse_string(name.text, c_.options.obse_profile);
    const bool fits = c_.argument_param && CompileContext::bare_word_fits(*c_.argument_param, name.text);
    if (!fits && !c_.unquoted_string_allowed(text))
      c_.fail_unknown(name, fmt::format("unknown name '{}': no form, variable or command has it (OBSE would take it for "
                                        "the string \"{}\": write it in quotes if that is meant)",
                                        name.text, name.text));
    write_string(out, name.text, c_.options.obse_profile);
  }

  bool known_form(const Token& name) const {
    if (ascii::iequals(name.text, "player") || ascii::iequals(name.text, "playerref")) return true;
    // `@0100237A` is a FormID written out, never a pair key.
    if (CompileContext::form_escape(name.text)) return true;
    return c_.options.names && c_.options.names->find(name.text).has_value();
  }

  CompileContext& c_;
  Tokens& t_;
};

}  // namespace

void obse_arguments(CompileContext& c, Tokens& t, const CommandInfo& cmd, Bytes& out) {
  ObseParser p(c, t);
  const std::size_t count_at = out.size();
  p.command_args(cmd, out);
  if (cmd.parse == ParseStyle::Let || cmd.parse == ParseStyle::BeginLoop) {
    if (!t.at_end()) c.fail(t.peek(), fmt::format("unexpected '{}' after the {} expression", t.peek().text, cmd.name));
    // `let` alone would compile to an empty argument list, which is no statement OBSE runs.
    if (out.b[count_at] == 0) c.fail(t.peek(), fmt::format("{} without an expression", cmd.name));
  }
}

void obse_argument_list(CompileContext& c, Tokens& t, std::span<const ParamSpec> params, Bytes& out) {
  ObseParser(c, t).arg_list(out, params.size(), params);
}

void obse_function_header(CompileContext& c, Tokens& t, Bytes& out) {
  out.u8(1);
  const Token& open = t.next();
  if (!open.is("{")) c.fail(open, "expected '{' after Begin Function");
  Bytes params;
  std::uint8_t n = 0;
  while (!t.peek().is("}")) {
    const Token& p = t.next();
    if (p.is(",")) continue;
    if (p.kind == TokenKind::End) c.fail(p, "expected '}' to close the function parameters");
    const Local* v = c.local(p.text);
    if (!v) c.fail(p, fmt::format("function parameter '{}' is not a declared variable", p.text));
    if (n == 0xFF) c.fail(p, "more than 255 function parameters (the count is a byte)");
    params.u16(static_cast<std::uint16_t>(v->index));
    params.u8(static_cast<std::uint8_t>(v->type));
    ++n;
  }
  t.next();
  out.u8(n);
  out.append(params);
  // Every array variable of the script, in declaration order.
  Bytes arrays;
  std::uint8_t na = 0;
  for (const Local& v : c.locals)
    if (v.type == ObseVarType::Array) {
      if (na == 0xFF) c.fail(open, "more than 255 array variables for a function header (the count is a byte)");
      arrays.u16(static_cast<std::uint16_t>(v.index));
      ++na;
    }
  out.u8(na);
  out.append(arrays);
}

}  // namespace tesmod::script::detail
