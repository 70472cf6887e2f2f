#include "tesmod/script/script_check.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <map>
#include <set>

#include "tesmod/io/ascii.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/script/compiler.hpp"
#include "tesmod/script/decompiler.hpp"
#include "tesmod/script/master_facts.hpp"
#include "tesmod/script/plugin_names.hpp"
#include "tesmod/script/plugin_scripts.hpp"
#include "compile_context.hpp"
#include "lexer.hpp"

namespace tesmod::script {
namespace {

constexpr std::uint16_t kOpScriptName = 0x1D, kOpReferencePrefix = 0x1C, kOpBegin = 0x10, kOpWhile = 0x176B,
                        kOpForEach = 0x176D;

std::optional<std::size_t> first_mismatch(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  const auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  if (ia == a.end() && ib == b.end()) return std::nullopt;
  return static_cast<std::size_t>(ia - a.begin());
}

std::string byte_text(std::span<const std::uint8_t> d, std::size_t at) {
  return at < d.size() ? fmt::format("0x{:02X}", d[at]) : std::string("the end");
}

// "0xAA in the original, 0xBB compiled", and the sizes when they differ.
std::string describe_bytes(std::span<const std::uint8_t> original, std::span<const std::uint8_t> compiled, std::size_t at) {
  std::string text = fmt::format("{} in the original, {} compiled", byte_text(original, at), byte_text(compiled, at));
  if (original.size() != compiled.size()) text += fmt::format(" ({} bytes in the original, {} compiled)", original.size(), compiled.size());
  return text;
}

// Statement starts in compiled bytecode: each is `u16 opcode, u16 length, data`, a `1C 00 u16`
// calling-reference prefix belonging to the statement after it.
std::vector<std::size_t> statement_starts(std::span<const std::uint8_t> code) {
  std::vector<std::size_t> starts;
  std::size_t p = 0;
  while (p < code.size()) {
    starts.push_back(p);
    if (p + 4 > code.size()) break;  // a truncated statement is one too
    if (le::u16(code.data() + p) == kOpReferencePrefix) {
      p += 4;
      if (p + 4 > code.size()) break;
    }
    p += 4 + le::u16(code.data() + p + 2);
  }
  return starts;
}

// A statement's bytes without the fields that hold offsets of later statements (a Begin's block
// length, a while/foreach's loop end): those differ whenever anything after them does.
std::vector<std::uint8_t> masked_statement(std::span<const std::uint8_t> st) {
  std::vector<std::uint8_t> out(st.begin(), st.end());
  std::size_t op = 0;
  if (out.size() >= 4 && le::u16(out.data()) == kOpReferencePrefix) op = 4;
  if (out.size() < op + 4) return out;
  const std::uint16_t code = le::u16(out.data() + op);
  std::size_t from = 0, to = 0;
  if (code == kOpBegin) from = op + 6, to = op + 10;
  if (code == kOpWhile || code == kOpForEach) from = op + 4, to = op + 8;
  for (std::size_t i = from; i < std::min(to, out.size()); ++i) out[i] = 0;
  return out;
}

// Where the first statement that differs starts to differ, in the original and in the compiled
// bytecode; none when the statements pair up and differ only in offset fields.
std::optional<std::pair<std::size_t, std::size_t>> first_statement_difference(std::span<const std::uint8_t> a,
                                                                              std::span<const std::uint8_t> b) {
  const std::vector<std::size_t> sa = statement_starts(a), sb = statement_starts(b);
  const std::size_t n = std::min(sa.size(), sb.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t ea = i + 1 < sa.size() ? sa[i + 1] : a.size(), eb = i + 1 < sb.size() ? sb[i + 1] : b.size();
    const auto ma = masked_statement(a.subspan(sa[i], ea - sa[i])), mb = masked_statement(b.subspan(sb[i], eb - sb[i]));
    if (auto at = first_mismatch(ma, mb)) return std::pair(sa[i] + *at, sb[i] + *at);
  }
  if (sa.size() == sb.size()) return std::nullopt;
  return std::pair(n < sa.size() ? sa[n] : a.size(), n < sb.size() ? sb[n] : b.size());
}

std::optional<ScriptDifference> presence(const char* field, bool original, bool compiled) {
  if (original == compiled) return std::nullopt;
  return ScriptDifference{field, 0, original ? "missing from the compiled script" : "not in the original", std::nullopt};
}

// 1-based numbers of the lines that compile to a statement: not blank, not only a comment,
// not a declaration.
std::vector<std::uint32_t> statement_lines(std::string_view source) {
  // SCTX may end in a terminator.
  while (!source.empty() && source.back() == '\0') source.remove_suffix(1);
  std::vector<std::uint32_t> lines;
  std::uint32_t number = 0;
  for (std::string_view line : detail::split_lines(source)) {
    ++number;
    const auto tokens = detail::tokenize(line);
    if (tokens.front().kind != detail::TokenKind::End && !detail::declaration_type(tokens.front()))
      lines.push_back(number);
  }
  return lines;
}

}  // namespace

std::string_view to_string(ScriptCheckKind kind) {
  switch (kind) {
    case ScriptCheckKind::Recompile: return "recompile";
    case ScriptCheckKind::CompileFresh: return "compile_fresh";
    case ScriptCheckKind::Decompile: return "decompile";
    case ScriptCheckKind::DecompileInPlace: break;
  }
  return "decompile_in_place";
}

void ScriptCheckReport::add(const ScriptCheckReport& o) {
  for (auto [mine, theirs] : {std::pair{&recompile, &o.recompile}, std::pair{&compile_fresh, &o.compile_fresh},
                              std::pair{&decompile, &o.decompile}, std::pair{&decompile_in_place, &o.decompile_in_place}}) {
    mine->total += theirs->total;
    mine->identical += theirs->identical;
    mine->byte_identical += theirs->byte_identical;
  }
  unsourced += o.unsourced;
  hinted += o.hinted;
  hints += o.hints;
  early_obse += o.early_obse;
  failures.insert(failures.end(), o.failures.begin(), o.failures.end());
}

namespace {

// The decompiled body without its declarations (compared by name apart), line by line.
std::vector<std::string> canonical_body(const ScriptData& s, std::span<const std::string> obse_plugins) {
  std::vector<std::string> lines;
  const std::string text = detail::canonical_text(s, obse_plugins);
  for (std::string_view line : detail::split_lines(text)) {
    const auto tokens = detail::tokenize(line);
    if (tokens.front().kind == detail::TokenKind::End || detail::declaration_type(tokens.front())) continue;
    lines.emplace_back(line);
  }
  return lines;
}

// What an entry names: a FormID, or a local variable by lower-case name.
std::string entry_meaning(const ScriptData& s, const ScriptRef& r) {
  if (r.kind == ScriptRef::Kind::Object) return fmt::format("{:08X}", r.value);
  const LocalVariable* v = s.variable(r.value);
  return "var " + (v ? ascii::to_lower(v->name) : fmt::format("#{}", r.value));
}

}  // namespace

std::optional<ScriptDifference> compare_by_meaning(const ScriptData& a, const ScriptData& b,
                                                   std::span<const std::string> obse_plugins) {
  // No code and empty code mean the same (the editor keeps an SCDA it once wrote).
  if (!a.bytecode.empty() || !b.bytecode.empty())
    if (auto d = presence("SCDA", a.has_bytecode, b.has_bytecode)) return d;
  if (a.bytecode.size() != b.bytecode.size())
    return ScriptDifference{"SCDA", std::min(a.bytecode.size(), b.bytecode.size()),
                            fmt::format("{} bytes in the original, {} compiled", a.bytecode.size(), b.bytecode.size()),
                            std::nullopt};
  std::vector<std::string> ta, tb;
  try {
    ta = canonical_body(a, obse_plugins);
  } catch (const std::exception& e) {
    return ScriptDifference{"SCDA", 0, fmt::format("the original does not decompile: {}", e.what()), std::nullopt};
  }
  try {
    tb = canonical_body(b, obse_plugins);
  } catch (const std::exception& e) {
    return ScriptDifference{"SCDA", 0, fmt::format("the compiled code does not decompile: {}", e.what()), std::nullopt};
  }
  for (std::size_t i = 0; i < std::max(ta.size(), tb.size()); ++i) {
    const std::string none = "(nothing)";
    const std::string& la = i < ta.size() ? ta[i] : none;
    const std::string& lb = i < tb.size() ? tb[i] : none;
    if (la != lb)
      return ScriptDifference{"SCDA", 0, fmt::format("statement {}: '{}' in the original, '{}' compiled", i + 1, la, lb),
                              std::nullopt};
  }
  // Variables by name and type.
  const auto vars = [](const ScriptData& s) {
    std::map<std::string, bool> out;
    for (const LocalVariable& v : s.variables) out[ascii::to_lower(v.name)] = v.is_integer();
    return out;
  };
  const auto va = vars(a), vb = vars(b);
  for (const auto& [name, integer] : va) {
    auto it = vb.find(name);
    if (it == vb.end())
      return ScriptDifference{"SLSD", 0, fmt::format("variable '{}' is missing from the compiled script", name), std::nullopt};
    if (it->second != integer)
      return ScriptDifference{"SLSD", 0, fmt::format("variable '{}' is {} in the original, {} compiled", name,
                                                     integer ? "an integer" : "a float", it->second ? "an integer" : "a float"),
                              std::nullopt};
  }
  for (const auto& [name, integer] : vb)
    if (!va.count(name))
      return ScriptDifference{"SLSD", 0, fmt::format("variable '{}' is not in the original", name), std::nullopt};
  // Reference lists as multisets of what their entries name.
  std::multiset<std::string> ra, rb;
  for (const ScriptRef& r : a.refs) ra.insert(entry_meaning(a, r));
  for (const ScriptRef& r : b.refs) rb.insert(entry_meaning(b, r));
  if (ra != rb) {
    std::vector<std::string> only_a, only_b;
    std::set_difference(ra.begin(), ra.end(), rb.begin(), rb.end(), std::back_inserter(only_a));
    std::set_difference(rb.begin(), rb.end(), ra.begin(), ra.end(), std::back_inserter(only_b));
    return ScriptDifference{"SCRO", 0,
                            fmt::format("references only in the original: [{}]; only compiled: [{}]", fmt::join(only_a, ", "),
                                        fmt::join(only_b, ", ")),
                            std::nullopt};
  }
  if (a.header.type != b.header.type)
    return ScriptDifference{"SCHR", 16, fmt::format("type: {} in the original, {} compiled", a.header.type, b.header.type),
                            std::nullopt};
  return std::nullopt;
}

std::optional<ScriptDifference> compare_scripts(const ScriptData& a, const ScriptData& b) {
  if (auto d = presence("SCDA", a.has_bytecode, b.has_bytecode)) return d;
  if (auto at = first_mismatch(a.bytecode, b.bytecode)) {
    // The first statement that differs is the cause; a Begin block length before it is not.
    const auto st = first_statement_difference(a.bytecode, b.bytecode).value_or(std::pair(*at, *at));
    std::string message = fmt::format("{} in the original, {} compiled", byte_text(a.bytecode, st.first),
                                      byte_text(b.bytecode, st.second));
    if (st.first != st.second) message += fmt::format(" (compiled byte {})", st.second);
    if (a.bytecode.size() != b.bytecode.size())
      message += fmt::format(" ({} bytes in the original, {} compiled)", a.bytecode.size(), b.bytecode.size());
    return ScriptDifference{"SCDA", st.first, message, st.first};
  }

  for (std::size_t i = 0; i < std::max(a.variables.size(), b.variables.size()); ++i) {
    if (i >= a.variables.size() || i >= b.variables.size()) {
      const bool extra = i >= a.variables.size();
      const LocalVariable& v = extra ? b.variables[i] : a.variables[i];
      return ScriptDifference{"SLSD", 0,
                              fmt::format("variable {} ('{}', index {}) {}", i + 1, v.name, v.index,
                                          extra ? "is not in the original" : "is missing from the compiled script"),
                              std::nullopt};
    }
    const LocalVariable& va = a.variables[i];
    const LocalVariable& vb = b.variables[i];
    if (auto at = first_mismatch(va.slsd, vb.slsd))
      return ScriptDifference{"SLSD", *at,
                              fmt::format("variable {} ('{}', index {}): {}", i + 1, va.name, va.index,
                                          describe_bytes(va.slsd, vb.slsd, *at)),
                              std::nullopt};
    if (va.has_name != vb.has_name || va.name != vb.name) {
      const auto bytes = [](const std::string& n) { return std::span(reinterpret_cast<const std::uint8_t*>(n.data()), n.size()); };
      const std::size_t at = first_mismatch(bytes(va.name), bytes(vb.name)).value_or(0);
      return ScriptDifference{"SCVR", at,
                              fmt::format("variable {}: named '{}' in the original, '{}' compiled", i + 1, va.name, vb.name),
                              std::nullopt};
    }
  }

  for (std::size_t i = 0; i < std::max(a.refs.size(), b.refs.size()); ++i) {
    const auto kind = [](const ScriptRef& r) { return r.kind == ScriptRef::Kind::Object ? "SCRO" : "SCRV"; };
    const auto text = [&](const ScriptRef& r) { return fmt::format("{} {:08X}", kind(r), r.value); };
    if (i >= a.refs.size())
      return ScriptDifference{kind(b.refs[i]), 0, fmt::format("reference {} ({}) is not in the original", i + 1, text(b.refs[i])),
                              std::nullopt};
    if (i >= b.refs.size())
      return ScriptDifference{kind(a.refs[i]), 0,
                              fmt::format("reference {} ({}) is missing from the compiled script", i + 1, text(a.refs[i])),
                              std::nullopt};
    if (a.refs[i] == b.refs[i]) continue;
    std::array<std::uint8_t, 4> ra{}, rb{};
    le::store<std::uint32_t>(ra.data(), a.refs[i].value);
    le::store<std::uint32_t>(rb.data(), b.refs[i].value);
    const std::size_t at = first_mismatch(ra, rb).value_or(0);
    return ScriptDifference{kind(a.refs[i]), at,
                            fmt::format("reference {}: {} in the original, {} compiled", i + 1, text(a.refs[i]), text(b.refs[i])),
                            std::nullopt};
  }

  if (auto d = presence("SCHR", a.has_header, b.has_header)) return d;
  const auto ha = a.header.encode(), hb = b.header.encode();
  if (auto at = first_mismatch(ha, hb)) {
    static constexpr const char* kNames[] = {"unused", "reference count", "compiled size", "variable count", "type"};
    return ScriptDifference{"SCHR", *at,
                            fmt::format("{}: {} in the original, {} compiled", kNames[*at / 4],
                                        le::u32(ha.data() + *at / 4 * 4), le::u32(hb.data() + *at / 4 * 4)),
                            std::nullopt};
  }
  return std::nullopt;
}

std::uint32_t source_line_at(std::span<const std::uint8_t> bytecode, std::uint64_t offset, std::string_view source) {
  const std::vector<std::size_t> starts = statement_starts(bytecode);
  std::vector<std::uint32_t> lines = statement_lines(source);
  // A result script has no ScriptName statement, though its decompiled text starts with the line.
  const bool named = bytecode.size() >= 2 && le::u16(bytecode.data()) == kOpScriptName;
  if (!named && starts.size() + 1 == lines.size()) lines.erase(lines.begin());
  if (starts.empty() || starts.size() != lines.size()) return 0;
  const auto it = std::upper_bound(starts.begin(), starts.end(), static_cast<std::size_t>(std::min<std::uint64_t>(offset, bytecode.size())));
  if (it == starts.begin()) return 0;
  return lines[static_cast<std::size_t>(it - starts.begin()) - 1];
}

ScriptCheckReport check_scripts(const PluginFile& file, const ScriptCheckOptions& options) {
  ScriptCheckReport report;
  const std::vector<PluginScript> scripts = plugin_scripts(file);
  if (scripts.empty()) return report;
  const std::unique_ptr<PluginNames> names = PluginNames::build(file);
  // The OBSE setup the plugin's scripts were compiled with, as their bytes show it.
  ObseProfile profile = ObseProfile::Current;
  if (options.detect_obse_profile) {
    ObseEvidence e = obse_evidence(scripts);
    if (e.early_strings) profile = ObseProfile::Early;
    report.obse_plugins = std::move(e.plugins);
  }

  for (const PluginScript& s : scripts) {
    const auto fail = [&](ScriptCheckKind kind, std::string field, std::uint64_t byte, std::uint32_t line,
                          std::uint32_t column, std::string message) {
      report.failures.push_back(
          {s.record_type, s.form_id, s.editor_id, s.index, kind, std::move(field), byte, line, column, std::move(message)});
    };
    const auto fail_all = [&](const std::string& message) {
      for (ScriptCheckKind k : {ScriptCheckKind::Recompile, ScriptCheckKind::CompileFresh, ScriptCheckKind::Decompile,
                                ScriptCheckKind::DecompileInPlace})
        fail(k, "", 0, 0, 0, message);
    };
    if (!s.error) {
      // Scripts calling commands whose opcodes no public source gives are counted apart.
      bool unsourced = false;
      try {
        unsourced = detail::collect_hints(s.data, report.obse_plugins).unsourced_commands;
      } catch (const std::exception&) {
      }
      if (unsourced) {
        ++report.unsourced;
        continue;
      }
    }
    ++report.recompile.total;
    ++report.compile_fresh.total;
    ++report.decompile.total;
    ++report.decompile_in_place.total;
    if (s.error) {
      fail_all(*s.error);
      continue;
    }
    const ScriptData& original = s.data;
    CompileOptions fresh;
    fresh.names = names.get();
    fresh.result_script = s.is_result_script();
    fresh.result_locals = fresh.result_script ? result_locals(s, *names) : nullptr;
    fresh.type = static_cast<ScriptType>(original.header.type);
    fresh.obse_profile = profile;
    fresh.obse_plugins = report.obse_plugins;
    fresh.unquoted_strings = true;  // the checks measure what the editor makes of the text
    if (profile == ObseProfile::Early) ++report.early_obse;
    MasterFacts facts;
    if (options.hints) facts = learn_master_facts(original, fresh, file.header().masters.size());
    fresh.facts = &facts;
    CompileOptions in_place = fresh;
    in_place.previous = &original;

    bool hinted = false;
    // Compiles source and compares (byte for byte, or by meaning); true when identical.
    const auto check = [&](ScriptCheckKind kind, std::string_view source, const CompileOptions& co, bool by_meaning,
                           ScriptCheckCounts& counts) {
      try {
        const CompileResult r = compile(source, co);
        hinted = hinted || r.hints_used > 0;
        report.hints += r.hints_used;
        const auto bytes = compare_scripts(original, r.script);
        const auto diff = by_meaning && bytes ? compare_by_meaning(original, r.script, report.obse_plugins) : bytes;
        if (!diff) {
          ++counts.identical;
          if (!bytes) ++counts.byte_identical;
          return;
        }
        const std::uint32_t line = diff->bytecode_offset ? source_line_at(original.bytecode, *diff->bytecode_offset, source) : 0;
        std::string message = diff->message;
        if (by_meaning && !facts.problem.empty()) message += fmt::format(" (no master facts: {})", facts.problem);
        fail(kind, diff->field, diff->byte, line, 0, std::move(message));
      } catch (const CompileError& e) {
        std::string message = e.message();
        if (!facts.problem.empty()) message += fmt::format(" (no master facts: {})", facts.problem);
        fail(kind, "", 0, e.line(), e.column(), std::move(message));
      } catch (const std::exception& e) {  // a compiler bug must not stop the check of the rest
        fail(kind, "", 0, 0, 0, e.what());
      }
    };

    check(ScriptCheckKind::Recompile, original.source, in_place, false, report.recompile);
    check(ScriptCheckKind::CompileFresh, original.source, fresh, true, report.compile_fresh);

    std::string text;
    try {
      DecompileOptions dopt;
      dopt.names = names.get();
      dopt.script_name = s.is_result_script() ? std::string() : s.editor_id;
      dopt.where = s.where;
      dopt.bytecode_offset = s.bytecode_offset;
      dopt.obse_plugins = report.obse_plugins;
      text = decompile(original, dopt);
    } catch (const std::exception& e) {
      fail(ScriptCheckKind::Decompile, "", 0, 0, 0, fmt::format("does not decompile: {}", e.what()));
      fail(ScriptCheckKind::DecompileInPlace, "", 0, 0, 0, fmt::format("does not decompile: {}", e.what()));
      if (hinted) ++report.hinted;
      continue;
    }
    // The decompiled text names unknown forms by FormID; the facts still say which are globals.
    check(ScriptCheckKind::Decompile, text, fresh, true, report.decompile);
    check(ScriptCheckKind::DecompileInPlace, text, in_place, false, report.decompile_in_place);
    if (hinted) ++report.hinted;
  }
  return report;
}

}  // namespace tesmod::script
