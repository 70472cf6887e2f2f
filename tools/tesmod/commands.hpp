// The subcommands of the tesmod CLI. Each registers its options on the app and returns the
// function that runs it; the function returns the process exit code.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>

#include "tesmod/plugin/file_header.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/save/save_file.hpp"

namespace tesmod::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;

// Options every command that reads plugins shares.
struct Common {
  std::string encoding = "WINDOWS-1252";
  unsigned threads = 0;
};

struct Command {
  CLI::App* app;
  std::function<int()> run;
};

Command add_info(CLI::App& app, Common& common);
Command add_dump(CLI::App& app, Common& common);
Command add_verify(CLI::App& app, Common& common);
Command add_rewrite(CLI::App& app, Common& common);
Command add_script(CLI::App& app, Common& common);
Command add_conditions(CLI::App& app, Common& common);
Command add_vmad(CLI::App& app, Common& common);
Command add_pack(CLI::App& app, Common& common);
Command add_save(CLI::App& app, Common& common);
Command add_export(CLI::App& app, Common& common);
Command add_import(CLI::App& app, Common& common);
Command add_diff(CLI::App& app, Common& common);
Command add_load_order(CLI::App& app, Common& common);
Command add_conflicts(CLI::App& app, Common& common);
Command add_check(CLI::App& app, Common& common);
Command add_clean(CLI::App& app, Common& common);
Command add_patch(CLI::App& app, Common& common);
Command add_esl(CLI::App& app, Common& common);

// Adds --encoding and --threads to a subcommand.
void add_common_options(CLI::App& sub, Common& common);

// PluginFile::open and SaveFile::open, except that a save given for a plugin (or a plugin for a
// save, or a Skyrim save) fails with what the file is and the command that reads it.
PluginFile open_plugin(const std::string& path, const OpenOptions& options = {});
void expect_plugin(const std::string& path);  // the check alone
save::SaveFile open_save(const std::string& path);

// Thrown for a command line that is well-formed for CLI11 but wrong for the command.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A FormID as given on the command line: "0001ABCD", "0x0001ABCD", "@0001ABCD", or "File.esm:01ABCD"
// (the object id in the named file, which must be a master of the plugin or the plugin itself).
std::uint32_t parse_form_id_arg(const std::string& text, const FileHeader& header, const std::string& plugin_file_name);

}  // namespace tesmod::cli
