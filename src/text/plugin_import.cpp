// `tesmod import`: walk the folder in the order its listings give (pass 1: which files, which
// EditorIDs, how many records and groups), then read every file into bytes on every core and
// write them in order (pass 2), group sizes filled in as each group ends. Scripts whose source
// changed are compiled last, against the finished plugin, as the editor recompiles in place.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "folder_format.hpp"
#include "record_text_common.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/io/file_bytes.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/io/thread_count.hpp"
#include "tesmod/io/workers.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/strings_file.hpp"
#include "tesmod/script/compiler.hpp"
#include "tesmod/script/plugin_names.hpp"
#include "tesmod/script/plugin_scripts.hpp"
#include "tesmod/script/script_in_plugin.hpp"
#include "tesmod/text/plugin_text.hpp"
#include "tesmod/text/plugin_text_namer.hpp"
#include "tesmod/text/record_text.hpp"

namespace tesmod::text {
namespace {

namespace fs = std::filesystem;

// Reads a whole file into `buffer`, grown as needed and never shrunk, and returns the bytes read.
// Sized by the file plus one byte, to see the end without a second read; a file that grows
// meanwhile is read to its end.
std::size_t read_file_into(const fs::path& path, std::string& buffer) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw Error(path.string(), Error::kNoOffset, std::nullopt, "cannot open the file");
  std::error_code size_error;
  const std::uintmax_t size = fs::file_size(path, size_error);
  const std::size_t want = size_error ? std::size_t(1) << 16 : std::size_t(size) + 1;
  if (buffer.size() < want) buffer.resize(want);
  std::size_t have = 0;
  for (std::size_t n; (n = std::fread(buffer.data() + have, 1, buffer.size() - have, f)) > 0;) {
    have += n;
    if (have == buffer.size()) buffer.resize(buffer.size() * 2);
  }
  const bool bad = std::ferror(f);
  std::fclose(f);
  if (bad) throw Error(path.string(), Error::kNoOffset, std::nullopt, "cannot read the file");
  return have;
}

std::string read_text_file(const fs::path& path) {
  std::string out;
  out.resize(read_file_into(path, out));
  return out;
}

// Reads record files into one buffer it keeps: a worker reads hundreds of them, twice, and a
// fresh string for each was zeroed and faulted in each time (mapping them cost more on small
// folders: each unmap interrupts the other cores).
class TextFileReader {
 public:
  std::string_view read(const fs::path& path) {
    const std::size_t n = read_file_into(path, buffer_);  // first: it may move the buffer
    return {buffer_.data(), n};
  }

 private:
  std::string buffer_;
};

// A text error as `path:line:column: message`.
[[noreturn]] void fail_text(const fs::path& path, const SyntaxError& e) {
  if (e.line() == 0) throw Error(path.string(), Error::kNoOffset, std::nullopt, e.message());
  throw Error(fmt::format("{}:{}:{}", path.string(), e.line(), e.column()), Error::kNoOffset, std::nullopt, e.message());
}

// What import does, in order: enter a folder (a group), read a file, leave the folder.
struct Step {
  enum Kind : std::uint8_t { Open, File, Close } kind;
  fs::path path;  // the folder, or the file
};

class Walker {
 public:
  Walker(const fs::path& root, ImportSummary& summary) : root_(root), summary_(summary) {}

  std::vector<Step> walk(const detail::Contents& top) {
    contents(root_, top, true);
    return std::move(steps_);
  }

 private:
  void contents(const fs::path& folder, const detail::Contents& listed, bool root) {
    std::set<std::string> seen;  // lower case
    for (const std::string& entry : listed) {
      const bool is_folder = entry.ends_with('/');
      const std::string name = is_folder ? entry.substr(0, entry.size() - 1) : entry;
      if (!seen.insert(ascii::to_lower(name)).second)
        throw Error((root ? folder / detail::kPluginFile : folder / detail::kGroupFile).string(), Error::kNoOffset,
                    std::nullopt, fmt::format("'{}' is listed twice", entry));
      std::error_code ec;
      fs::path path = folder / name;
      if (!fs::exists(path, ec))
        if (auto other = find_file_nocase(folder, name)) path = *other;
      if (!fs::exists(path, ec)) {
        summary_.missing.push_back(fs::relative(folder / name, root_).string() + (is_folder ? "/" : ""));
        continue;
      }
      if (is_folder) group(path);
      else steps_.push_back({Step::File, path});
    }
    // Files and folders nobody listed: new ones, added at the end in name order.
    std::vector<fs::path> extra;
    for (const auto& e : fs::directory_iterator(folder)) {
      const std::string name = e.path().filename().string();
      if (seen.count(ascii::to_lower(name)) || name.starts_with('.')) continue;
      std::error_code ec;
      if (e.is_directory(ec)) {
        if (fs::exists(e.path() / detail::kGroupFile, ec)) extra.push_back(e.path());
      } else if (!root && e.path().extension() == ".txt" && name != detail::kGroupFile) {
        extra.push_back(e.path());
      }
    }
    std::ranges::sort(extra);
    for (const fs::path& p : extra) {
      std::error_code ec;
      const bool dir = fs::is_directory(p, ec);
      summary_.unlisted.push_back(fs::relative(p, root_).string() + (dir ? "/" : ""));
      if (dir) group(p);
      else steps_.push_back({Step::File, p});
    }
  }

  void group(const fs::path& folder) {
    const fs::path listing = folder / detail::kGroupFile;
    std::error_code ec;
    if (!fs::exists(listing, ec))
      throw Error(listing.string(), Error::kNoOffset, std::nullopt, "is missing: every group folder has one");
    steps_.push_back({Step::Open, folder});
    // Only the listed names matter here; the group line is read in pass 2, once names resolve.
    detail::Contents listed;
    bool header = true;
    const std::string text = read_text_file(listing);
    std::size_t pos = 0;
    while (pos < text.size()) {
      std::size_t end = text.find('\n', pos);
      if (end == std::string::npos) end = text.size();
      const std::string_view line = trim_line(std::string_view(text).substr(pos, end - pos));
      pos = end + 1;
      if (line.empty() || line.front() == '#') continue;
      if (header) {
        header = false;
        continue;
      }
      listed.emplace_back(line);
    }
    contents(folder, listed, false);
    steps_.push_back({Step::Close, folder});
  }

  fs::path root_;
  ImportSummary& summary_;
  std::vector<Step> steps_;
};

// What pass 1 learns from a file without reading it fully: its records, groups and EditorIDs.
struct FileScan {
  std::uint64_t bytes = 0;  // of text
  std::uint64_t records = 0, groups = 0;
  std::vector<std::pair<std::uint32_t, std::string>> editor_ids;
};

// Whether a record line's flags say Compressed (the flags' names depend on the record type).
bool compressed_record_line(std::string_view line, Game game, Signature type) {
  const std::size_t at = line.find(" flags=");
  if (at == std::string_view::npos) return false;
  std::size_t end = at + 7;
  while (end < line.size() && line[end] != ' ' && line[end] != '\t') ++end;
  const auto flags = detail::parse_record_flags(game, type, line.substr(at + 7, end - at - 7));
  return flags && (*flags & record_flags::kCompressed);
}

FileScan scan(std::string_view text, const TextCodec& codec, Game game) {
  FileScan out;
  out.bytes = text.size();
  bool waiting = false;  // for the EDID of the record last seen
  bool first_only = false;  // and only as its first field (export names a compressed record so)
  std::uint32_t record = 0;
  std::size_t pos = 0;
  std::uint32_t number = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view raw = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    const std::string_view line = trim_line(raw);
    if (line.starts_with("record ")) {
      ++out.records;
      waiting = false;
      LineScanner s(line, number);
      s.word();
      const auto type = detail::parse_signature(s.word());
      if (auto id = parse_uint("0x" + std::string(s.word())); type && id && *id <= 0xFFFFFFFF) {
        record = std::uint32_t(*id);
        waiting = true;
        first_only = compressed_record_line(line, game, *type);
      }
    } else if (line.starts_with("group ")) {
      ++out.groups;
      waiting = false;
    } else if (waiting && line.starts_with("EDID \"")) {
      try {
        LineScanner s(line, number);
        s.word();
        out.editor_ids.emplace_back(record, s.quoted_string(codec));
      } catch (const SyntaxError&) {
        // Pass 2 reports it.
      }
      waiting = false;
    } else if (waiting && first_only && !line.empty() && !line.starts_with('#')) {
      waiting = false;
    }
  }
  return out;
}

// Script sources beside a record file.
class FolderScriptFiles final : public ScriptFiles {
 public:
  explicit FolderScriptFiles(fs::path folder) : folder_(std::move(folder)) {}
  std::string store(const RecordHeader&, std::string_view, std::size_t, std::string_view) override { return {}; }
  std::optional<std::string> load(std::string_view file) override {
    const fs::path path = folder_ / fs::path(std::string(file));
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return std::nullopt;
    return read_text_file(path);
  }

 private:
  fs::path folder_;
};

struct ChangedScriptAt {
  ChangedScript script;
  fs::path file;  // the source file
};

// Sets HEDR's record count (bytes 4-7 of its data) in a TES4 record's bytes.
void set_record_count(std::vector<std::uint8_t>& tes4, Game game, std::uint64_t count) {
  std::size_t pos = header_size(game);
  if (tes4.size() >= 12 && (le::u32(tes4.data() + 8) & detail::kCompressedFlag)) return;
  while (pos + 6 <= tes4.size()) {
    const Signature type = Signature::from_bytes(tes4.data() + pos);
    const std::uint16_t size = le::u16(tes4.data() + pos + 4);
    if (type == Signature("HEDR") && size >= 8 && pos + 6 + size <= tes4.size()) {
      le::store(tes4.data() + pos + 10, std::int32_t(std::min<std::uint64_t>(count, INT32_MAX)));
      return;
    }
    pos += 6 + size;
  }
}

// Compiles the changed scripts into the plugin's bytes, as the editor recompiles in place.
std::vector<std::uint8_t> compile_changed(std::vector<std::uint8_t> bytes, const fs::path& out,
                                          const std::vector<ChangedScriptAt>& changed, const script::MasterFacts& facts,
                                          const ImportOptions& options, ImportSummary& summary) {
  const PluginFile file = PluginFile::parse(FileBytes::hold(std::move(bytes), out.string()));
  const std::vector<script::PluginScript> scripts = script::plugin_scripts(file);
  script::PluginNames::Options naming;
  naming.master_dirs = options.master_dirs;
  const std::unique_ptr<script::PluginNames> names = script::PluginNames::build(file, naming);
  const std::vector<std::string> builds = script::obse_evidence(scripts).plugins;
  Plugin plugin = Plugin::from_file(file);
  for (const ChangedScriptAt& c : changed) {
    const script::PluginScript* s = nullptr;
    for (const script::PluginScript& candidate : scripts)
      if (candidate.record_type == c.script.record_type && candidate.form_id == c.script.form_id &&
          candidate.index == c.script.index)
        s = &candidate;
    if (!s || s->error)
      throw Error(c.file.string(), Error::kNoOffset, std::nullopt,
                  fmt::format("the script of {} {:08X} does not read: {}", c.script.record_type.str(), c.script.form_id,
                              s && s->error ? *s->error : "not found"));
    script::CompileOptions o;
    o.names = names.get();
    o.previous = &s->data;
    o.result_script = s->is_result_script();
    o.result_locals = o.result_script ? script::result_locals(*s, *names) : nullptr;
    o.type = static_cast<script::ScriptType>(s->data.header.type);
    o.obse_plugins = builds;
    // Names of masters that are not at hand: what the scripts showed of them at export (names.txt).
    // The record's SCTX is the edited source now, so its stored code is not paired with it.
    o.facts = &facts;
    script::CompileResult r;
    try {
      r = script::compile(c.script.source, o);
    } catch (const script::CompileError& compile_error) {
      const script::CompileError e = script::with_masters_note(compile_error, *names);
      throw Error(fmt::format("{}:{}:{}", c.file.string(), e.line(), e.column()), Error::kNoOffset, std::nullopt, e.message());
    }
    summary.script_hints += r.hints_used;
    ++summary.scripts_compiled;
    Record* record = plugin.find(s->form_id);
    if (!record) throw Error(c.file.string(), Error::kNoOffset, s->where.record, "the script's record was not found again");
    std::vector<Field>& fields = record->edit_fields();
    const std::vector<Field> encoded = script::encode_script(r.script);
    fields.erase(fields.begin() + std::ptrdiff_t(s->span.first), fields.begin() + std::ptrdiff_t(s->span.last));
    fields.insert(fields.begin() + std::ptrdiff_t(s->span.first), encoded.begin(), encoded.end());
  }
  return plugin.serialize();
}

}  // namespace

ImportSummary import_plugin(const fs::path& dir, const fs::path& out, const ImportOptions& options) {
  ImportSummary summary;
  const unsigned threads = thread_count(options.threads);
  const fs::path plugin_txt = dir / detail::kPluginFile;
  std::error_code ec;
  if (!fs::exists(plugin_txt, ec))
    throw Error(dir.string(), Error::kNoOffset, std::nullopt, "holds no plugin.txt: not a folder tesmod export wrote");
  const std::string plugin_text = read_text_file(plugin_txt);
  detail::PluginFileParts parts;
  try {
    parts = detail::parse_plugin_file(plugin_text);
  } catch (const SyntaxError& e) {
    fail_text(plugin_txt, e);
  }
  const detail::FolderSettings& settings = parts.settings;
  const TextCodec codec(settings.encoding);

  // The file list FormIDs index: the masters (MAST lines of the header record), then the plugin.
  std::vector<std::string> files;
  try {
    files = detail::file_list(parts, codec);
  } catch (const SyntaxError& e) {
    fail_text(plugin_txt, e);
  }

  // Pass 1.
  const std::vector<Step> steps = Walker(dir, summary).walk(parts.top);
  std::vector<std::size_t> file_steps;
  std::uint64_t folders = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].kind == Step::File) file_steps.push_back(i);
    folders += steps[i].kind == Step::Open;
  }
  std::vector<FileScan> scans(file_steps.size());
  run_workers(file_steps.size(), threads, [&](auto claim) {
    TextFileReader reader;
    for (std::size_t k = claim(); k < file_steps.size(); k = claim())
      scans[k] = scan(reader.read(steps[file_steps[k]].path), codec, settings.game);
  });
  TextNamer namer(files);
  std::uint64_t items = folders;
  for (const FileScan& s : scans) {
    items += s.records + s.groups;
    for (const auto& [id, edid] : s.editor_ids) namer.add(id, edid, TextNamer::Source::Plugin);
  }
  script::MasterFacts script_facts;  // names.txt's script-form and script-variable lines
  {
    const fs::path names_txt = dir / detail::kNamesFile;
    if (fs::exists(names_txt, ec)) {
      const TextNamer file_namer(files);
      try {
        const detail::NamesFile names = detail::parse_names_file(read_text_file(names_txt));
        const auto resolve = [&](const std::string& name, const std::string& form) {
          const auto id = file_namer.resolve(form);
          if (!id) throw Error(names_txt.string(), Error::kNoOffset, std::nullopt, fmt::format("'{}': unknown file in '{}'", name, form));
          return *id;
        };
        for (const auto& [name, form] : names.forms) namer.add(resolve(name, form), name, TextNamer::Source::NamesFile);
        for (const detail::NamesFile::ScriptForm& f : names.script_forms)
          script_facts.forms[f.name] = {resolve(f.name, f.form), f.global};
        for (const auto& [key, v] : names.script_variables) script_facts.variables[key] = v;
      } catch (const SyntaxError& e) {
        fail_text(names_txt, e);
      }
    }
    std::vector<fs::path> dirs = options.master_dirs;
    if (dirs.empty()) dirs.push_back(fs::absolute(out).parent_path());
    for (std::uint32_t m = 0; m + 1 < files.size(); ++m) {
      std::optional<fs::path> path;
      for (const fs::path& d : dirs)
        if (!path) path = find_file_nocase(d, files[m]);
      if (!path) continue;
      try {
        add_master_names(namer, PluginFile::open(*path, OpenOptions{.threads = threads, .count_subrecords = false, .game = std::nullopt}), m, threads);
      } catch (const Error&) {
        // A master that does not read adds no names; references to it must then be File:ID.
      }
    }
  }
  namer.finish();

  RecordTextOptions record_options;
  record_options.game = settings.game;
  record_options.namer = &namer;
  record_options.codec = &codec;
  record_options.default_form_version = settings.form_version;

  // The header record first: whether it is localized decides how lstrings read.
  std::vector<std::uint8_t> header;
  try {
    read_entries_text(parts.header_record, record_options, header);
  } catch (const SyntaxError& e) {
    fail_text(plugin_txt, e.shifted(parts.header_first_line - 1));
  }
  if (header.size() < header_size(settings.game) || Signature::from_bytes(header.data()) != Signature("TES4"))
    throw Error(plugin_txt.string(), Error::kNoOffset, std::nullopt, "the first record must be the TES4 header record");
  record_options.localized = settings.game != Game::Oblivion && (le::u32(header.data() + 8) & 0x80) != 0;
  // The HEDR count follows the contents once records or groups were added or removed.
  if (items != settings.items) set_record_count(header, settings.game, items);

  // Pass 2.
  AtomicFile sink(out);
  sink.write(header);
  summary.records = 1;
  std::vector<std::uint64_t> open_groups;
  std::vector<ChangedScriptAt> changed;
  // A batch of files is read on every core, then written in order with the folders around them;
  // batches are bounded in files and in text so that memory stays bounded for any folder.
  constexpr std::size_t kBatchFiles = 256;
  constexpr std::uint64_t kBatchText = 64ull << 20;
  std::vector<std::uint64_t> text_bytes(steps.size(), 0);
  for (std::size_t k = 0; k < file_steps.size(); ++k) text_bytes[file_steps[k]] = scans[k].bytes;
  std::size_t step = 0;
  while (step < steps.size()) {
    std::vector<std::size_t> batch;
    std::uint64_t batch_text = 0;
    for (std::size_t s = step; s < steps.size() && batch.size() < kBatchFiles && batch_text < kBatchText; ++s)
      if (steps[s].kind == Step::File) {
        batch.push_back(s);
        batch_text += text_bytes[s];
      }
    const std::size_t batch_end = batch.empty() ? steps.size() : batch.back() + 1;
    std::vector<std::vector<std::uint8_t>> bytes(batch.size());
    std::vector<EntriesRead> reads(batch.size());
    run_workers(batch.size(), threads, [&](auto claim) {
      TextFileReader reader;
      for (std::size_t k = claim(); k < batch.size(); k = claim()) {
        const fs::path& path = steps[batch[k]].path;
        FolderScriptFiles scripts(path.parent_path());
        RecordTextOptions o = record_options;
        o.scripts = &scripts;
        const std::string_view text = reader.read(path);
        try {
          reads[k] = read_entries_text(text, o, bytes[k]);
        } catch (const SyntaxError& e) {
          fail_text(path, e);
        }
      }
    });
    std::size_t k = 0;
    for (; step < batch_end; ++step) {
      const Step& s = steps[step];
      if (s.kind == Step::File) {
        sink.write(bytes[k]);
        summary.records += reads[k].records;
        summary.groups += reads[k].groups;
        ++summary.files;
        for (ChangedScript& c : reads[k].changed_scripts) {
          const fs::path file = s.path.parent_path() / c.file;
          changed.push_back({std::move(c), file});
        }
        std::vector<std::uint8_t>().swap(bytes[k]);
        ++k;
      } else if (s.kind == Step::Open) {
        const fs::path listing = s.path / detail::kGroupFile;
        GroupHeader h;
        try {
          h = detail::parse_group_file(read_text_file(listing), settings.game, namer).header;
        } catch (const SyntaxError& e) {
          fail_text(listing, e);
        }
        open_groups.push_back(sink.position());
        std::vector<std::uint8_t> raw(header_size(settings.game));
        h.write(raw.data(), settings.game);
        sink.write(raw);
        ++summary.groups;
      } else {
        const std::uint64_t start = open_groups.back();
        open_groups.pop_back();
        const std::uint64_t size = sink.position() - start;
        if (size > 0xFFFFFFFF) throw Error(s.path.string(), Error::kNoOffset, std::nullopt, "the group holds more than 4 GB");
        std::uint8_t le_size[4];
        le::store(le_size, std::uint32_t(size));
        sink.overwrite(start + 4, le_size);
      }
    }
  }

  if (changed.empty()) {
    sink.commit();
    return summary;
  }
  const std::vector<std::uint8_t> compiled = compile_changed(sink.read_back(), out, changed, script_facts, options, summary);
  write_file_atomic(out, compiled);
  return summary;
}

}  // namespace tesmod::text
