#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "tesmod/io/counted.hpp"
#include "tesmod/fields/field_check.hpp"
#include "tesmod/fields/condition_check.hpp"
#include "tesmod/fields/package_check.hpp"
#include "tesmod/fields/vmad_plugin.hpp"
#include "tesmod/text/plugin_text_namer.hpp"
#include "tesmod/text/text_check.hpp"
#include "tesmod/plugin/form_names.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/round_trip.hpp"
#include "tesmod/save/save_check.hpp"
#include "tesmod/save/save_file.hpp"
#include "tesmod/script/script_check.hpp"

namespace tesmod::cli {
namespace {

struct Outcome {
  std::string file;
  enum { Identical, Different, Failed } status = Identical;
  std::uint64_t bytes = 0;
  std::uint64_t written = 0;
  std::uint64_t offset = 0;
  std::optional<RecordRef> record;
  std::string where;  // group or record at the difference, rendered
  std::string error;
  std::optional<script::ScriptCheckReport> scripts;  // --deep, Oblivion plugins
  // --deep: the field checks (checks.vmad, checks.pack, checks.ctda ...), in report order.
  std::vector<std::pair<std::string, fields::FieldCheck>> checks;
  std::optional<text::TextCoverage> coverage;  // --deep, plugins: what the text shows typed
};

// `typed_fields 6132/6140 (99.87%)`-style figures of a coverage.
std::string coverage_text(const text::TextCoverage& c) {
  // Rounded down: 69,140 of 69,210 is 99.898 %, not "99.90 %".
  const double share = c.fields ? std::floor(100000.0 * double(c.typed_fields) / double(c.fields)) / 1000.0 : 100.0;
  std::string s = fmt::format("typed_fields: {}/{} typed ({:.3f}%)", c.typed_fields, c.fields, share);
  if (c.compiled_scripts) s += fmt::format(" (and {} counted apart)", counted(c.compiled_scripts, "compiled script field"));
  s += fmt::format("; unnamed_flags: {} of {}", c.unnamed_flags, counted(c.records, "record header"));
  if (!c.hex_fields.empty()) {
    std::vector<std::string> parts;
    for (const auto& [key, n] : c.hex_fields) parts.push_back(fmt::format("{} {} {}", key.first.str(), key.second.str(), n));
    s += fmt::format("\n    as hex: {}", fmt::join(parts, ", "));
  }
  return s;
}

nlohmann::ordered_json coverage_json(const text::TextCoverage& c) {
  nlohmann::ordered_json hex = nlohmann::ordered_json::array();
  for (const auto& [key, n] : c.hex_fields) hex.push_back({{"record_type", key.first.str()}, {"field", key.second.str()}, {"count", n}});
  return {{"typed_fields", {{"total", c.fields}, {"typed", c.typed_fields}, {"compiled_scripts", c.compiled_scripts}}},
          {"unnamed_flags", {{"records", c.records}, {"unnamed", c.unnamed_flags}}},
          {"hex_fields", std::move(hex)}};
}

// Runs the deep field checks that apply to the plugin's game.
void check_fields(const PluginFile& file, unsigned threads, const TextCodec& codec, Outcome& out) {
  if (file.game() != Game::Oblivion) out.checks.emplace_back("vmad", fields::check_vmad(file));
  out.checks.emplace_back("pack", fields::check_packages(file));
  const PluginFormNamer namer = PluginFormNamer::build(file, {.load_masters = true, .threads = threads});
  fields::ConditionChecks conditions = fields::check_conditions(file, namer);
  out.checks.emplace_back("ctda", std::move(conditions.ctda));
  out.checks.emplace_back("ctda_text", std::move(conditions.ctda_text));
  // Every record as its editable text (tesmod export) and back.
  text::PluginNamerOptions naming;
  naming.threads = threads;
  const text::PluginNamer names = text::plugin_text_namer(file, naming);
  text::TextCoverage coverage;
  out.checks.emplace_back("text_round_trip", text::check_text_round_trip(file, names.namer, codec, threads, &coverage));
  out.coverage = std::move(coverage);
}

// A save: the whole file written back, and its NPC_/CREA change records decoded and re-encoded.
Outcome verify_save(const std::string& path, bool deep) {
  Outcome out;
  out.file = path;
  try {
    const save::SaveFile file = save::SaveFile::open(path);
    out.bytes = file.input().size();
    save::SaveCheck c = save::check_save(file);
    out.written = c.written;
    if (deep) out.checks.emplace_back("save_change_records", std::move(c.change_records));
    if (c.identical) return out;
    out.status = Outcome::Different;
    out.offset = c.first_difference;
    if (const save::ChangeRecord* r = file.change_record_at(out.offset)) {
      out.record = r->ref();
      out.where = describe(r->ref());
    } else {
      out.where = "the save, outside the change records";
    }
  } catch (const Error& e) {
    out.status = Outcome::Failed;
    out.error = e.what();
  }
  return out;
}

// The checks a file failed, each named with its figures (`script_recompile 11/12 identical`),
// the write-back first: what its first line and its JSON verdict say.
std::vector<std::string> failing_checks(const Outcome& o, std::vector<std::string>* names = nullptr) {
  std::vector<std::string> out;
  const auto add = [&](std::string_view name, std::uint64_t identical, std::uint64_t total, bool failed) {
    if (identical == total && !failed) return;
    out.push_back(fmt::format("{} {}/{} identical", name, identical, total));
    if (names) names->emplace_back(name);
  };
  if (o.status == Outcome::Different) {
    out.push_back(fmt::format("written back: first difference at offset 0x{:X} ({}), in {}", o.offset, o.offset, o.where));
    if (names) names->emplace_back("write_back");
  }
  if (o.scripts) {
    const script::ScriptCheckReport& r = *o.scripts;
    const auto failed = [&r](script::ScriptCheckKind kind) {
      return std::ranges::any_of(r.failures, [kind](const auto& f) { return f.check == kind; });
    };
    add("script_recompile", r.recompile.identical, r.recompile.total, failed(script::ScriptCheckKind::Recompile));
    add("script_compile_fresh", r.compile_fresh.identical, r.compile_fresh.total,
        failed(script::ScriptCheckKind::CompileFresh));
    add("script_decompile", r.decompile.identical, r.decompile.total, failed(script::ScriptCheckKind::Decompile));
    add("script_decompile_in_place", r.decompile_in_place.identical, r.decompile_in_place.total,
        failed(script::ScriptCheckKind::DecompileInPlace));
  }
  for (const auto& [name, c] : o.checks) add(name, c.identical, c.total, !c.failures.empty());
  return out;
}

std::string field_failure_text(const std::string& check, const fields::FieldFailure& f) {
  std::string text = fmt::format("{}: {}", check, describe(f.record));
  if (f.offset != Error::kNoOffset) text += fmt::format(" at offset 0x{:X}", f.offset);
  return text + ": " + f.message;
}

nlohmann::ordered_json field_failure_json(const std::string& check, const fields::FieldFailure& f) {
  nlohmann::ordered_json j;
  j["check"] = check;
  j["record_type"] = f.record.type.str();
  j["form_id"] = fmt::format("{:08X}", f.record.form_id);
  j["editor_id"] = f.record.editor_id;
  if (f.offset != Error::kNoOffset) j["offset"] = f.offset;
  j["message"] = f.message;
  return j;
}

struct DeepOptions {
  bool deep = false;
  bool hints = true;
  std::string encoding = "WINDOWS-1252";
};

Outcome verify_one(const std::string& path, unsigned threads, const DeepOptions& deep) {
  if (save::is_save_file(path)) return verify_save(path, deep.deep);
  Outcome out;
  out.file = path;
  try {
    OpenOptions options;
    options.threads = threads;
    PluginFile file = PluginFile::open(path, options);
    out.bytes = file.bytes().size();
    const RoundTrip r = write_back_and_compare(file);
    out.written = r.written;
    if (deep.deep && file.game() == Game::Oblivion) out.scripts = script::check_scripts(file, {.hints = deep.hints, .detect_obse_profile = deep.hints});
    if (deep.deep) check_fields(file, threads, TextCodec(deep.encoding), out);
    if (r.identical) return out;
    out.status = Outcome::Different;
    out.offset = r.first_difference;
    if (auto i = file.entry_at(out.offset)) {
      const IndexEntry& e = file.entry(*i);
      const ErrorContext ctx = file.context(e);
      out.record = ctx.record;
      out.where = ctx.record ? describe(*ctx.record)
                             : fmt::format("group at offset 0x{:X}", e.offset);
    } else {
      out.where = "past the end of the input";
    }
  } catch (const Error& e) {
    out.status = Outcome::Failed;
    out.error = e.what();
  }
  return out;
}

std::string failure_text(const script::ScriptCheckFailure& f) {
  std::string text = fmt::format("{} {:08X}", f.record_type.str(), f.form_id);
  if (!f.editor_id.empty()) text += " '" + f.editor_id + "'";
  text += fmt::format(" script {}: {}:", f.script_index + 1, script::to_string(f.check));
  if (!f.field.empty()) text += fmt::format(" {} byte {}", f.field, f.byte);
  if (f.line) text += f.column ? fmt::format(" line {}:{}", f.line, f.column) : fmt::format(" line {}", f.line);
  return text + (f.field.empty() && !f.line ? " " : ": ") + f.message;
}

nlohmann::ordered_json script_checks_json(const script::ScriptCheckReport& r) {
  const auto counts = [](const script::ScriptCheckCounts& c, bool by_meaning) {
    nlohmann::ordered_json j = {{"total", c.total}, {"identical", c.identical}};
    if (by_meaning) j["byte_identical"] = c.byte_identical;
    return j;
  };
  return {{"script_recompile", counts(r.recompile, false)},
          {"script_compile_fresh", counts(r.compile_fresh, true)},
          {"script_decompile", counts(r.decompile, true)},
          {"script_decompile_in_place", counts(r.decompile_in_place, false)},
          {"script_unsourced", r.unsourced},
          {"script_hinted", r.hinted},
          {"script_hints", r.hints},
          {"script_early_obse", r.early_obse}};
}

nlohmann::ordered_json failure_json(const script::ScriptCheckFailure& f) {
  nlohmann::ordered_json j;
  j["record_type"] = f.record_type.str();
  j["form_id"] = fmt::format("{:08X}", f.form_id);
  j["editor_id"] = f.editor_id;
  j["script_index"] = f.script_index;
  j["check"] = script::to_string(f.check);
  j["field"] = f.field;
  j["byte"] = f.byte;
  j["line"] = f.line;
  j["column"] = f.column;
  j["message"] = f.message;
  return j;
}

std::string summary_text(const script::ScriptCheckReport& r) {
  std::string s = fmt::format(
      "scripts: recompile {}/{} identical; compile fresh {}/{} identical by meaning ({} byte for byte); decompile {}/{} "
      "by meaning ({} byte for byte), {}/{} recompiled in place; {} used master facts ({})",
      r.recompile.identical, r.recompile.total, r.compile_fresh.identical, r.compile_fresh.total,
      r.compile_fresh.byte_identical, r.decompile.identical, r.decompile.total, r.decompile.byte_identical,
      r.decompile_in_place.identical, r.decompile_in_place.total, r.hinted, counted(r.hints, "fact"));
  if (r.unsourced)
    s += fmt::format("; {} left out ({} commands no public source gives)", r.unsourced, r.unsourced == 1 ? "it calls" : "they call");
  if (r.early_obse) s += fmt::format(", {} compiled as by an early OBSE", r.early_obse);
  if (!r.obse_plugins.empty()) s += fmt::format("; OBSE plugins: {}", fmt::join(r.obse_plugins, ", "));
  return s;
}

}  // namespace

Command add_verify(CLI::App& app, Common& common) {
  struct Args {
    std::vector<std::string> files;
    bool json = false;
    bool deep = false;
    bool no_hints = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand(
      "verify", "Read each plugin, write it back to memory and compare: OK when byte-identical");
  sub->add_option("FILE", args->files, "Plugins")->required();
  sub->add_flag("--json", args->json, "Print JSON");
  auto* deep_flag = sub->add_flag("--deep", args->deep,
                "Also decode and re-encode the typed fields (VMAD, PACK, conditions, and conditions through their\n"
                "text), write every record as its editable text (tesmod export) and read it back, and, for Oblivion,\n"
                "compile every script from its source and from its decompiled text; compare each with the bytes stored");
  sub->add_flag("--no-hints", args->no_hints,
         "With --deep: do not let the compiler take facts of missing masters from the stored script, nor\n"
         "detect scripts compiled by an early OBSE")
      ->needs(deep_flag);
  add_common_options(*sub, common);
  return {sub, [args, &common] {
            std::uint64_t passed = 0, failed = 0;
            nlohmann::ordered_json files = nlohmann::ordered_json::array();
            script::ScriptCheckReport total;
            std::vector<std::pair<std::string, std::pair<std::uint64_t, std::uint64_t>>> check_totals;
            text::TextCoverage coverage_total;
            const DeepOptions deep{args->deep, !args->no_hints, common.encoding};
            for (const std::string& path : args->files) {
              const Outcome o = verify_one(path, common.threads, deep);
              std::vector<std::string> failing_names;
              const std::vector<std::string> failing = failing_checks(o, &failing_names);
              const bool ok = o.status != Outcome::Failed && failing.empty();
              ++(ok ? passed : failed);
              for (const auto& [name, c] : o.checks) {
                // A structured binding named in a lambda: C++20, but not in clang before 16 (fuzz builds).
                const std::string& check_name = name;
                auto it = std::find_if(check_totals.begin(), check_totals.end(),
                                       [&](const auto& t) { return t.first == check_name; });
                if (it == check_totals.end()) it = check_totals.insert(check_totals.end(), {name, {0, 0}});
                it->second.first += c.total;
                it->second.second += c.identical;
              }
              if (o.scripts) total.add(*o.scripts);
              if (o.coverage) coverage_total.add(*o.coverage);
              // Errors are reported as every command reports them; the file counts as failed.
              if (o.status == Outcome::Failed) {
                std::cout << std::flush;  // in order with the lines before it, also through 2>&1
                std::cerr << "tesmod: error: " << o.error << '\n';
              }
              if (args->json) {
                nlohmann::ordered_json j;
                j["file"] = o.file;
                j["verdict"] = ok ? "ok" : o.status == Outcome::Failed ? "error" : "differs";
                j["failing_checks"] = failing_names;
                j["identical"] = o.status == Outcome::Identical;
                j["status"] = o.status == Outcome::Identical ? "identical"
                              : o.status == Outcome::Different ? "different"
                                                               : "error";
                j["bytes"] = o.bytes;
                if (o.status == Outcome::Different) {
                  j["written"] = o.written;
                  j["first_difference"] = o.offset;
                  if (o.record) {
                    j["record"] = {{"type", o.record->type.str()},
                                   {"form_id", fmt::format("{:08X}", o.record->form_id)},
                                   {"editor_id", o.record->editor_id}};
                  }
                  j["where"] = o.where;
                }
                if (o.status == Outcome::Failed) j["error"] = o.error;
                if (o.scripts) {
                  const script::ScriptCheckReport& r = *o.scripts;
                  j["checks"] = script_checks_json(r);
                  j["script_obse_plugins"] = r.obse_plugins;
                  nlohmann::ordered_json failures = nlohmann::ordered_json::array();
                  for (const auto& f : r.failures) failures.push_back(failure_json(f));
                  j["script_failures"] = std::move(failures);
                }
                if (args->deep && o.status != Outcome::Failed) {
                  nlohmann::ordered_json failures = nlohmann::ordered_json::array();
                  for (const auto& [name, c] : o.checks) {
                    j["checks"][name] = {{"total", c.total}, {"identical", c.identical}};
                    for (const auto& f : c.failures) failures.push_back(field_failure_json(name, f));
                  }
                  if (o.coverage) {
                    const nlohmann::ordered_json c = coverage_json(*o.coverage);
                    j["checks"]["typed_fields"] = c["typed_fields"];
                    j["checks"]["unnamed_flags"] = c["unnamed_flags"];
                    j["hex_fields"] = c["hex_fields"];
                  }
                  j["field_failures"] = std::move(failures);
                }
                files.push_back(std::move(j));
                continue;
              }
              // The first line says what the exit code says: OK, DIFFERS (and what), or ERROR.
              if (o.status == Outcome::Failed) std::cout << "ERROR " << o.file << '\n';  // the message: on stderr
              else if (ok) std::cout << "OK " << o.file << '\n';
              else std::cout << fmt::format("DIFFERS {}: {}\n", o.file, fmt::join(failing, "; "));
              // A check with nothing to check (a plugin without packages: pack 0/0) is not shown.
              if (o.scripts && (o.scripts->recompile.total || o.scripts->unsourced)) {
                std::cout << "  " << summary_text(*o.scripts) << '\n';
                for (const auto& f : o.scripts->failures) std::cout << "    " << failure_text(f) << '\n';
              }
              for (const auto& [name, c] : o.checks) {
                if (c.total == 0 && c.failures.empty()) continue;
                std::cout << fmt::format("  {}: {}/{} identical\n", name, c.identical, c.total);
                for (const auto& f : c.failures) std::cout << "    " << field_failure_text(name, f) << '\n';
              }
              if (o.coverage) std::cout << "  " << coverage_text(*o.coverage) << '\n';
            }
            if (!args->json && args->files.size() > 1) {
              std::cout << fmt::format("total: {}; {} passed, {} failed\n", counted(args->files.size(), "file"), passed,
                                       failed);
              if (args->deep) {
                if (total.recompile.total || total.unsourced) std::cout << "  " << summary_text(total) << '\n';
                for (const auto& [name, t] : check_totals)
                  if (t.first) std::cout << fmt::format("  {}: {}/{} identical\n", name, t.second, t.first);
                if (coverage_total.records) {
                  std::ranges::sort(coverage_total.hex_fields, {}, [](const auto& h) {
                    return std::pair(h.first.first.str(), h.first.second.str());
                  });
                  std::cout << "  " << coverage_text(coverage_total) << '\n';
                }
              }
            }
            if (args->json) {
              nlohmann::ordered_json j;
              j["ok"] = failed == 0;
              j["passed"] = passed;
              j["failed"] = failed;
              if (args->deep) {
                j["script_totals"] = script_checks_json(total);
                nlohmann::ordered_json totals = nlohmann::ordered_json::object();
                for (const auto& [name, t] : check_totals) totals[name] = {{"total", t.first}, {"identical", t.second}};
                if (coverage_total.records) {
                  std::ranges::sort(coverage_total.hex_fields, {}, [](const auto& h) {
                    return std::pair(h.first.first.str(), h.first.second.str());
                  });
                  nlohmann::ordered_json c = coverage_json(coverage_total);
                  totals["typed_fields"] = c["typed_fields"];
                  totals["unnamed_flags"] = c["unnamed_flags"];
                  j["hex_fields"] = c["hex_fields"];
                }
                j["check_totals"] = std::move(totals);
              }
              j["files"] = std::move(files);
              std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
            }
            return failed == 0 ? kExitOk : kExitError;
          }};
}

}  // namespace tesmod::cli
