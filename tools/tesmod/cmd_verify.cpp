#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/round_trip.hpp"

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
};

Outcome verify_one(const std::string& path, unsigned threads) {
  Outcome out;
  out.file = path;
  try {
    OpenOptions options;
    options.threads = threads;
    PluginFile file = PluginFile::open(path, options);
    out.bytes = file.bytes().size();
    const RoundTrip r = write_back_and_compare(file);
    out.written = r.written;
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

}  // namespace

Command add_verify(CLI::App& app, Common& common) {
  struct Args {
    std::vector<std::string> files;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand(
      "verify", "Read each plugin, write it back to memory and compare: OK when byte-identical");
  sub->add_option("FILE", args->files, "Plugins")->required();
  sub->add_flag("--json", args->json, "Print JSON");
  add_common_options(*sub, common);
  return {sub, [args, &common] {
            bool all_ok = true;
            nlohmann::ordered_json files = nlohmann::ordered_json::array();
            for (const std::string& path : args->files) {
              const Outcome o = verify_one(path, common.threads);
              all_ok = all_ok && o.status == Outcome::Identical;
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
                files.push_back(std::move(j));
              } else if (o.status == Outcome::Identical) {
                std::cout << "OK " << o.file << '\n';
              } else if (o.status == Outcome::Different) {
                std::cout << fmt::format("DIFFERENT {}: first difference at offset 0x{:X} ({}), in {}\n", o.file,
                                         o.offset, o.offset, o.where);
              } else {
                std::cout << "ERROR " << o.error << '\n';
              }
            }
            if (args->json) {
              nlohmann::ordered_json j;
              j["ok"] = all_ok;
              j["files"] = std::move(files);
              std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
            }
            return all_ok ? kExitOk : kExitError;
          }};
}

}  // namespace tesmod::cli
