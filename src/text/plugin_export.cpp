// `tesmod export`: plan the folder from the plugin's index (one pass, one thread: names and order
// must not depend on timing), then render the files on every core.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <random>

#include "folder_format.hpp"
#include "folder_names.hpp"
#include "tesmod/script/obse_profile.hpp"
#include "tesmod/script/plugin_master_facts.hpp"
#include "tesmod/script/plugin_names.hpp"
#include "tesmod/script/plugin_scripts.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/thread_count.hpp"
#include "tesmod/io/workers.hpp"
#include "tesmod/plugin/group_type.hpp"
#include "tesmod/plugin/strings_file.hpp"
#include "tesmod/text/plugin_text.hpp"
#include "tesmod/text/plugin_text_namer.hpp"
#include "tesmod/text/record_text.hpp"
#include "tesmod/text/text_check.hpp"

namespace tesmod::text {
namespace {

namespace fs = std::filesystem;

// A plugin of more records than this (a master) is written compactly (see plugin_text.hpp): one
// file per record and cell would mean hundreds of thousands of files, minutes to write and read.
constexpr std::uint64_t kCompactAbove = 50000;
constexpr std::size_t kChunkLimit = 1000;  // records per chunk file at most

bool compact_layout(const PluginFile& file) { return file.stats().records > kCompactAbove; }

// A file to write: the index entries [first, end), each record with the groups that belong to it.
struct FileTask {
  fs::path folder;  // relative to the export root
  std::string name;
  std::uint32_t first = 0, end = 0;
  bool own = false;  // one record (and its children): its script files are named after the file
};

struct FolderTask {
  fs::path path;  // relative
  std::uint32_t group = 0;  // index entry of the group
  detail::Contents contents;
};

struct Plan {
  std::vector<FileTask> files;
  std::vector<FolderTask> folders;
  detail::Contents top;
};

std::string stem_of(std::string_view file_name) { return std::string(file_name.substr(0, file_name.rfind('.'))); }

class Planner {
 public:
  explicit Planner(const PluginFile& file) : file_(file), entries_(file.entries()), compact_(compact_layout(file)) {}

  Plan plan() {
    detail::FolderNames names;
    names.claim("plugin", ".txt");
    names.claim("names", ".txt");
    plan_children(kNoParent, fs::path(), names, plan_.top);
    return std::move(plan_);
  }

 private:
  // The direct children of a group (or, with group == kNoParent, the top level after TES4).
  std::vector<std::uint32_t> children(std::uint32_t group) const {
    std::vector<std::uint32_t> out;
    std::uint32_t i = group == kNoParent ? 1 : group + 1;
    const std::uint32_t end = group == kNoParent ? std::uint32_t(entries_.size()) : entries_[group].end;
    while (i < end) {
      out.push_back(i);
      i = entries_[i].is_group() ? entries_[i].end : i + 1;
    }
    return out;
  }

  static bool folder_group(std::int32_t type) { return type >= 0 && type <= 5; }
  // Groups that hold a record's children, written with the record.
  static bool child_group(std::int32_t type) { return type == 6 || type == 7; }

  std::string editor_id(std::uint32_t i) const {
    try {
      return file_.editor_id(entries_[i]).value_or(std::string());
    } catch (const Error&) {
      return {};
    }
  }

  std::string folder_name(std::uint32_t g, const std::string& previous_stem) const {
    const IndexEntry& e = entries_[g];
    const std::uint32_t label = e.id;
    switch (e.group_type()) {
      case 0: {
        std::string sig;
        for (int k = 0; k < 4; ++k) sig += char((label >> (8 * k)) & 0xFF);
        return detail::safe_name_part(sig).size() == 4 ? sig : fmt::format("group {:08X}", label);
      }
      case 1: return previous_stem.empty() ? fmt::format("world children [{:08X}]", label) : previous_stem;
      case 2: return fmt::format("block {}", std::int32_t(label));
      case 3: return fmt::format("sub-block {}", std::int32_t(label));
      case 4: return fmt::format("block x={} y={}", std::int16_t(label >> 16), std::int16_t(label & 0xFFFF));
      default: return fmt::format("sub-block x={} y={}", std::int16_t(label >> 16), std::int16_t(label & 0xFFFF));
    }
  }

  struct Unit {
    std::uint32_t first, end;
    bool record;  // starts with a record (else a group on its own)
  };

  void plan_children(std::uint32_t group, const fs::path& path, detail::FolderNames& names,
                     detail::Contents& contents) {
    const std::vector<std::uint32_t> kids = children(group);
    const bool chunked = compact_ && group != kNoParent;

    std::vector<Unit> pending;
    std::string last_stem;  // of the last record file, for the world children folder after it
    auto flush = [&] {
      if (chunked) flush_chunks(pending, path, names, contents);
      else
        for (const Unit& u : pending) {
          FileTask task;
          task.folder = path;
          task.first = u.first;
          task.end = u.end;
          task.own = u.record;
          const std::string stem = u.record ? detail::record_stem(editor_id(u.first), entries_[u.first].id)
                                            : fmt::format("group {} {:08X}", group_type_name(entries_[u.first].group_type()),
                                                          entries_[u.first].id);
          task.name = names.claim(stem, ".txt");
          last_stem = stem_of(task.name);
          contents.push_back(task.name);
          plan_.files.push_back(std::move(task));
        }
      pending.clear();
    };
    for (std::size_t k = 0; k < kids.size(); ++k) {
      const std::uint32_t c = kids[k];
      const IndexEntry& e = entries_[c];
      if (!e.is_group()) {
        Unit u{c, c + 1, true};
        if (k + 1 < kids.size()) {
          const IndexEntry& next = entries_[kids[k + 1]];
          if (next.is_group() && child_group(next.group_type()) && next.id == e.id) {
            u.end = next.end;
            ++k;
          }
        }
        pending.push_back(u);
        continue;
      }
      if (!folder_group(e.group_type())) {
        pending.push_back(Unit{c, e.end, false});
        continue;
      }
      flush();
      if (compact_ && (e.group_type() == 3 || e.group_type() == 5)) {
        // A sub-block of cells, in one file.
        FileTask task;
        task.folder = path;
        task.first = c;
        task.end = e.end;
        task.name = names.claim(folder_name(c, {}), ".txt");
        contents.push_back(task.name);
        plan_.files.push_back(std::move(task));
        continue;
      }
      // A world's children folder is named after the world record just before it.
      const bool after_world = e.group_type() == 1 && k > 0 && !entries_[kids[k - 1]].is_group() &&
                               entries_[kids[k - 1]].id == e.id;
      const std::string name = names.claim(folder_name(c, after_world ? last_stem : std::string()), "");
      contents.push_back(name + "/");
      FolderTask folder;
      folder.path = path / name;
      folder.group = c;
      detail::FolderNames inner;
      inner.claim("_group", ".txt");
      plan_children(c, folder.path, inner, folder.contents);
      plan_.folders.push_back(std::move(folder));
    }
    flush();
  }

  // Consecutive records whose FormIDs share their upper 16 bits, at most kChunkLimit per file:
  // records keep their file when others are added or removed (FormIDs of a type are spread over
  // the whole range in a master, so narrower ranges would mean a file per few records).
  void flush_chunks(const std::vector<Unit>& units, const fs::path& path, detail::FolderNames& names,
                    detail::Contents& contents) {
    std::size_t i = 0;
    while (i < units.size()) {
      const std::uint32_t bucket = entries_[units[i].first].id >> 16;
      std::size_t j = i + 1;
      while (j < units.size() && j - i < kChunkLimit && entries_[units[j].first].id >> 16 == bucket) ++j;
      FileTask task;
      task.folder = path;
      task.first = units[i].first;
      task.end = units[j - 1].end;
      task.own = false;
      task.name = names.claim(fmt::format("{:04X}xxxx", bucket), ".txt");
      contents.push_back(task.name);
      plan_.files.push_back(std::move(task));
      i = j;
    }
  }

  const PluginFile& file_;
  std::span<const IndexEntry> entries_;
  bool compact_;
  Plan plan_;
};

void write_text_file(const fs::path& path, std::string_view text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw Error(path.string(), Error::kNoOffset, std::nullopt, "cannot create the file");
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok) throw Error(path.string(), Error::kNoOffset, std::nullopt, "cannot write the file");
}

// Script sources of the records of one file, written beside it.
class FileScripts final : public ScriptFiles {
 public:
  FileScripts(const fs::path& folder, std::string stem, bool own, const TextCodec& codec)
      : folder_(folder), stem_(std::move(stem)), own_(own), codec_(codec) {}

  void start_record(std::size_t ordinal) { ordinal_ = ordinal; }
  std::uint64_t written() const { return written_.size(); }

  std::string store(const RecordHeader& record, std::string_view, std::size_t index, std::string_view source) override {
    const auto key = std::make_pair(ordinal_, index);
    auto it = written_.find(key);
    if (it == written_.end()) {
      std::string stem = own_ ? stem_ : fmt::format("{} {:08X}", stem_, record.form_id);
      if (index) stem += fmt::format(" {}", index + 1);
      it = written_.emplace(key, names_.claim(stem, detail::kScriptExtension)).first;
    }
    write_text_file(folder_ / it->second, codec_.to_utf8(source));
    return it->second;
  }
  std::optional<std::string> load(std::string_view) override { return std::nullopt; }

 private:
  fs::path folder_;
  std::string stem_;
  bool own_;
  const TextCodec& codec_;
  std::size_t ordinal_ = 0;
  std::map<std::pair<std::size_t, std::size_t>, std::string> written_;
  detail::FolderNames names_;
};

struct RenderCounts {
  std::uint64_t records = 0, groups = 0, hex = 0, stored = 0, scripts = 0, bytes = 0;
  void add(const RenderCounts& o) {
    records += o.records;
    groups += o.groups;
    hex += o.hex;
    stored += o.stored;
    scripts += o.scripts;
    bytes += o.bytes;
  }
};

// Renders entries [first, end) with the groups among them inline.
void render_entries(std::string& out, const PluginFile& file, std::uint32_t first, std::uint32_t end,
                    const RecordTextOptions& options, FileScripts* scripts, Inflater& inflater, RenderCounts& counts,
                    bool check_plain) {
  const auto entries = file.entries();
  std::vector<std::uint32_t> open;  // ends of the open groups
  std::size_t ordinal = 0;
  for (std::uint32_t i = first; i < end; ++i) {
    while (!open.empty() && i >= open.back()) {
      open.pop_back();
      append_group_close(out, int(open.size()) * 2);
    }
    const IndexEntry& e = entries[i];
    const int indent = int(open.size()) * 2;
    if (e.is_group()) {
      append_group_open(out, file.group_header(e), file.game(), *options.namer, indent);
      open.push_back(e.end);
      ++counts.groups;
      continue;
    }
    if (indent == 0 && i != first) out += '\n';
    if (scripts) scripts->start_record(ordinal++);
    const RecordTextForm form =
        append_record_text_checked(out, file.record_header(e), file.stored_body(e), options, inflater, indent, check_plain);
    ++counts.records;
    counts.hex += form == RecordTextForm::Hex;
    counts.stored += form == RecordTextForm::Stored;
  }
  while (!open.empty()) {
    open.pop_back();
    append_group_close(out, int(open.size()) * 2);
  }
}

// The folder beside target that export writes into before renaming.
fs::path temporary_beside(const fs::path& target, std::string_view what) {
  std::random_device rd;
  return target.parent_path() / fmt::format(".{}.{}-{:08x}", target.filename().string(), what, rd());
}

void check_target(const fs::path& dir, bool replace) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;
  if (!fs::is_directory(dir, ec)) throw Error(dir.string(), Error::kNoOffset, std::nullopt, "exists and is not a folder");
  if (fs::is_empty(dir, ec)) return;
  if (!fs::exists(dir / detail::kPluginFile, ec))
    throw Error(dir.string(), Error::kNoOffset, std::nullopt,
                "is not empty and holds no earlier export (no plugin.txt): choose another folder");
  if (!replace)
    throw Error(dir.string(), Error::kNoOffset, std::nullopt, "holds an earlier export: pass --replace to replace it");
}

// Moves the finished export into place; an earlier export there is replaced, its dot files kept.
void commit_export(const fs::path& temp, const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec) || fs::is_empty(dir, ec)) {
    if (fs::exists(dir, ec)) fs::remove(dir, ec);
    fs::rename(temp, dir);
    return;
  }
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().starts_with('.')) fs::rename(entry.path(), temp / entry.path().filename());
  const fs::path old = temporary_beside(dir, "old");
  fs::rename(dir, old);
  fs::rename(temp, dir);
  fs::remove_all(old, ec);
}

// What the plugin's scripts use of its masters (names.txt), so that import can compile an edited
// script without them: its stored source is then the edited one, no longer paired with the code.
script::MasterFacts script_master_facts(const PluginFile& file, const ExportOptions& options) {
  if (file.game() != Game::Oblivion) return {};
  const std::vector<script::PluginScript> scripts = script::plugin_scripts(file);
  if (scripts.empty()) return {};
  script::PluginNames::Options naming;
  naming.load_masters = options.load_masters;
  naming.master_dirs = options.master_dirs;
  const std::unique_ptr<script::PluginNames> names = script::PluginNames::build(file, naming);
  return script::plugin_master_facts(file, scripts, *names, script::obse_evidence(scripts).plugins).facts;
}

}  // namespace

std::string plugin_text(const PluginFile& file, const TextNamer& namer, const TextCodec& codec) {
  const RecordTextOptions options = record_text_options(file, namer, codec);
  detail::FolderSettings settings;
  settings.game = file.game();
  settings.plugin_name = fs::path(file.name()).filename().string();
  settings.encoding = codec.code_page();
  settings.form_version = options.default_form_version;
  settings.items = file.stats().groups + file.stats().records;
  Inflater inflater;
  std::string header;
  append_record_text_checked(header, file.record_header(file.entry(0)), file.stored_body(file.entry(0)), options, inflater);
  std::string out = detail::plugin_file_text(settings, header, {});
  RenderCounts counts;
  render_entries(out, file, 1, std::uint32_t(file.entries().size()), options, nullptr, inflater, counts, true);
  return out;
}

ExportSummary export_plugin(const fs::path& plugin_path, const fs::path& dir, const ExportOptions& options) {
  check_target(dir, options.replace);
  const unsigned threads = thread_count(options.threads);
  OpenOptions open;
  open.threads = threads;
  const PluginFile file = PluginFile::open(plugin_path, open);
  const TextCodec codec(options.encoding);
  PluginNamerOptions naming;
  naming.load_masters = options.load_masters;
  naming.master_dirs = options.master_dirs;
  naming.threads = threads;
  const PluginNamer names = plugin_text_namer(file, naming);

  RecordTextOptions record_options = record_text_options(file, names.namer, codec);
  std::optional<LocalizedStrings> strings;
  if (record_options.localized) {
    try {
      strings = LocalizedStrings::load(plugin_path, options.language);
      record_options.string_text = [&strings](Signature record, Signature field, std::uint32_t id) -> std::optional<std::string> {
        const auto kind = lstring_kind(record.str(), field.str()).value_or(StringsKind::Strings);
        if (auto s = strings->lookup(id, kind)) return std::string(*s);
        return std::nullopt;
      };
    } catch (const Error&) {
      // Without readable tables the ids are shown alone.
    }
  }

  const bool compact = compact_layout(file);
  const Plan plan = Planner(file).plan();
  const fs::path temp = temporary_beside(fs::absolute(dir), "export");
  ExportSummary summary;
  summary.masters_missing = names.masters_missing;
  try {
    fs::create_directories(temp);
    for (const FolderTask& f : plan.folders) fs::create_directories(temp / f.path);

    std::mutex lock;
    RenderCounts totals;
    run_workers(plan.files.size(), threads, [&](auto claim) {
      Inflater inflater;
      RenderCounts counts;
      std::string out;
      for (std::size_t t = claim(); t < plan.files.size(); t = claim()) {
        const FileTask& task = plan.files[t];
        FileScripts scripts(temp / task.folder, stem_of(task.name), task.own, codec);
        RecordTextOptions o = record_options;
        o.scripts = file.game() == Game::Oblivion ? &scripts : nullptr;
        out.clear();
        render_entries(out, file, task.first, task.end, o, &scripts, inflater, counts, !compact);
        write_text_file(temp / task.folder / task.name, out);
        counts.scripts += scripts.written();
        counts.bytes += out.size();
      }
      std::lock_guard guard(lock);
      totals.add(counts);
    });

    for (const FolderTask& f : plan.folders) {
      const std::string text = detail::group_file_text(file.group_header(file.entry(f.group)), file.game(), names.namer, f.contents);
      write_text_file(temp / f.path / detail::kGroupFile, text);
      totals.bytes += text.size();
      ++totals.groups;
    }
    // The header record, and the settings import needs.
    Inflater inflater;
    std::string header;
    const RecordTextForm header_form = append_record_text_checked(header, file.record_header(file.entry(0)),
                                                                  file.stored_body(file.entry(0)), record_options, inflater);
    totals.records += 1;
    totals.hex += header_form == RecordTextForm::Hex;
    totals.stored += header_form == RecordTextForm::Stored;
    detail::FolderSettings settings;
    settings.game = file.game();
    settings.plugin_name = fs::path(plugin_path).filename().string();
    settings.encoding = codec.code_page();
    settings.form_version = record_options.default_form_version;
    settings.items = file.stats().groups + file.stats().records;
    const std::string plugin_text = detail::plugin_file_text(settings, header, plan.top);
    write_text_file(temp / detail::kPluginFile, plugin_text);
    // Only the file part of a master form is needed to read it back.
    const TextNamer file_namer(names.namer.files());
    const std::string names_text =
        detail::names_file_text(names.namer.used_master_names(), script_master_facts(file, options), file_namer);
    write_text_file(temp / detail::kNamesFile, names_text);
    totals.bytes += plugin_text.size() + names_text.size();

    commit_export(temp, dir);
    summary.records = totals.records;
    summary.groups = totals.groups;
    summary.files = plan.files.size();
    summary.folders = plan.folders.size();
    summary.script_files = totals.scripts;
    summary.hex_records = totals.hex;
    summary.stored_records = totals.stored;
    summary.text_bytes = totals.bytes;
  } catch (...) {
    std::error_code ec;
    fs::remove_all(temp, ec);
    throw;
  }
  return summary;
}

}  // namespace tesmod::text
