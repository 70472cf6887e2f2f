// libFuzzer entry: plugins as text, read back the way `tesmod import DIR` reads a folder, from
// the single text `tesmod export --stdout` prints (plugin.txt's settings and TES4 record, then
// after `contents` every group and record inline). The folder walk itself is file handling; what
// it feeds each file to, and what is fuzzed here, is parse_plugin_file for plugin.txt and
// read_entries_text for the header record and for the entries.
//
// Oracle: the text either raises SyntaxError with a line and column (import reports it as
// file:line:column; line 0 only for plugin.txt as a whole), or tesmod::Error about the text as a
// whole (its code page, no TES4 record first), or imports to plugin bytes. Those bytes either do
// not read as a plugin (the reader checks what text cannot know: a HEDR version, records outside
// groups), or they export, by the same code as `tesmod export`, to a text that imports to the
// same bytes.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "folder_format.hpp"
#include "learning_namer.hpp"
#include "oracle.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/file_bytes.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/text/plugin_text.hpp"
#include "tesmod/text/plugin_text_namer.hpp"
#include "tesmod/text/record_text.hpp"
#include "tesmod/text/text_syntax.hpp"

using namespace tesmod;
using namespace tesmod::text;

namespace {

struct Imported {
  detail::FolderSettings settings;
  std::vector<std::uint8_t> bytes;  // the plugin
};

// read_entries_text, held to what import_plugin reports: a SyntaxError, which it names by file,
// line and column (line_offset: lines of the file before text). Any other exception would reach
// the user without saying where in the text it lies.
void read_entries_located(std::string_view text, const RecordTextOptions& options, std::vector<std::uint8_t>& out,
                          std::uint32_t line_offset) {
  try {
    read_entries_text(text, options, out);
  } catch (const SyntaxError& e) {
    TESMOD_FUZZ_CHECK(e.line() != 0 && e.column() != 0);
    throw e.shifted(line_offset);
  } catch (const Error& e) {
    std::fprintf(stderr, "\n%s\n", e.what());
    TESMOD_FUZZ_CHECK(!"read_entries_text raised tesmod::Error, not SyntaxError");
  }
}

// The text as import reads it. namer: the names to read it with; null for a LearningNamer over
// the text's own file list. Raises SyntaxError or tesmod::Error as import does.
Imported import_text(std::string_view text, const FormNamer* namer) {
  Imported out;
  const detail::PluginFileParts parts = detail::parse_plugin_file(text);
  out.settings = parts.settings;
  const TextCodec codec(parts.settings.encoding);
  const TextNamer files(detail::file_list(parts, codec));
  const fuzz::LearningNamer learning(files);
  RecordTextOptions options;
  options.game = parts.settings.game;
  options.namer = namer ? namer : &learning;
  options.codec = &codec;
  options.default_form_version = parts.settings.form_version;
  read_entries_located(parts.header_record, options, out.bytes, parts.header_first_line - 1);
  const std::size_t header = header_size(parts.settings.game);
  if (out.bytes.size() < header || Signature::from_bytes(out.bytes.data()) != kHeaderRecord)
    throw Error("plugin.txt", Error::kNoOffset, std::nullopt, "the first record must be the TES4 header record");
  options.localized = parts.settings.game != Game::Oblivion && (le::u32(out.bytes.data() + 8) & 0x80) != 0;
  // The entries follow the `contents` line, which ends the header record's text.
  const std::size_t contents_at = std::size_t(parts.header_record.data() + parts.header_record.size() - text.data());
  const std::size_t contents_end = text.find('\n', contents_at);
  const std::string_view entries = contents_end == std::string_view::npos ? std::string_view() : text.substr(contents_end + 1);
  const std::uint32_t entries_first_line =
      std::uint32_t(std::count(text.begin(), text.begin() + std::ptrdiff_t(text.size() - entries.size()), '\n'));
  read_entries_located(entries, options, out.bytes, entries_first_line);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Imported first;
  try {
    first = import_text(text, nullptr);
  } catch (const SyntaxError&) {
    return 0;  // with a line and column, or (line 0) about plugin.txt as a whole
  } catch (const Error&) {
    return 0;  // about the text as a whole: an unknown code page, no TES4 record first
  }
  // A fixed file name: the text's own may be no file name at all ("/"), which export cannot write.
  std::optional<PluginFile> plugin;
  try {
    plugin.emplace(PluginFile::parse(FileBytes::hold(first.bytes, "Fuzz.esp"),
                                     OpenOptions{.threads = 1, .count_subrecords = false, .game = first.settings.game}));
  } catch (const Error& e) {
    TESMOD_FUZZ_CHECK(e.offset() != Error::kNoOffset);
    return 0;
  }
  const PluginNamer names = plugin_text_namer(*plugin, PluginNamerOptions{.load_masters = false, .master_dirs = {}, .threads = 1});
  const std::string exported = plugin_text(*plugin, names.namer, TextCodec(first.settings.encoding));
  const Imported again = import_text(exported, &names.namer);  // must import: throws out otherwise
  TESMOD_FUZZ_CHECK(again.bytes == first.bytes);
  return 0;
}
