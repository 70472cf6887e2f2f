#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/round_trip.hpp"
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
};

struct DeepOptions {
  bool deep = false;
  bool hints = true;
};

Outcome verify_one(const std::string& path, unsigned threads, const DeepOptions& deep) {
  Outcome out;
  out.file = path;
  try {
    OpenOptions options;
    options.threads = threads;
    PluginFile file = PluginFile::open(path, options);
    out.bytes = file.bytes().size();
    const RoundTrip r = write_back_and_compare(file);
    out.written = r.written;
    if (deep.deep && file.game() == Game::Oblivion) out.scripts = script::check_scripts(file, {.hints = deep.hints});
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
  return fmt::format("scripts: compile {}/{} identical, decompile {}/{} identical, {} used hints", r.compile.identical,
                     r.compile.total, r.decompile.identical, r.decompile.total, r.hinted);
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
                "Oblivion: also compile every script from its source and from its decompiled text, and compare "
                "with the compiled script stored");
  sub->add_flag("--no-hints", args->no_hints,
         "With --deep: do not let the compiler take facts of missing masters from the stored script")
      ->needs(deep_flag);
  add_common_options(*sub, common);
  return {sub, [args, &common] {
            bool all_ok = true;
            nlohmann::ordered_json files = nlohmann::ordered_json::array();
            script::ScriptCheckReport total;
            const DeepOptions deep{args->deep, !args->no_hints};
            for (const std::string& path : args->files) {
              const Outcome o = verify_one(path, common.threads, deep);
              all_ok = all_ok && o.status == Outcome::Identical;
              if (o.scripts) {
                all_ok = all_ok && o.scripts->all_identical();
                total.compile.total += o.scripts->compile.total;
                total.compile.identical += o.scripts->compile.identical;
                total.decompile.total += o.scripts->decompile.total;
                total.decompile.identical += o.scripts->decompile.identical;
                total.hinted += o.scripts->hinted;
              }
              if (args->json) {
                nlohmann::ordered_json j;
                j["file"] = o.file;
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
                  j["checks"] = {{"script_compile", {{"total", r.compile.total}, {"identical", r.compile.identical}}},
                                 {"script_decompile", {{"total", r.decompile.total}, {"identical", r.decompile.identical}}},
                                 {"script_hints", r.hinted}};
                  nlohmann::ordered_json failures = nlohmann::ordered_json::array();
                  for (const auto& f : r.failures) failures.push_back(failure_json(f));
                  j["script_failures"] = std::move(failures);
                }
                files.push_back(std::move(j));
                continue;
              }
              if (o.status == Outcome::Identical) {
                std::cout << "OK " << o.file << '\n';
              } else if (o.status == Outcome::Different) {
                std::cout << fmt::format("DIFFERENT {}: first difference at offset 0x{:X} ({}), in {}\n", o.file,
                                         o.offset, o.offset, o.where);
              } else {
                std::cout << "ERROR " << o.error << '\n';
              }
              if (o.scripts) {
                std::cout << "  " << summary_text(*o.scripts) << '\n';
                for (const auto& f : o.scripts->failures) std::cout << "    " << failure_text(f) << '\n';
              }
            }
            if (args->deep && !args->json && args->files.size() > 1)
              std::cout << fmt::format("total: {} files, {}\n", args->files.size(), summary_text(total));
            if (args->json) {
              nlohmann::ordered_json j;
              j["ok"] = all_ok;
              if (args->deep)
                j["script_totals"] = {
                    {"script_compile", {{"total", total.compile.total}, {"identical", total.compile.identical}}},
                    {"script_decompile", {{"total", total.decompile.total}, {"identical", total.decompile.identical}}},
                    {"script_hints", total.hinted}};
              j["files"] = std::move(files);
              std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
            }
            return all_ok ? kExitOk : kExitError;
          }};
}

}  // namespace tesmod::cli
