#include "tesmod/loadorder/load_order.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iterator>
#include <mutex>
#include <unordered_map>

#include "order_rules.hpp"
#include "record_type_table.hpp"
#include "tesmod/error.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/io/thread_count.hpp"
#include "tesmod/io/workers.hpp"
#include "tesmod/loadorder/plugin_list.hpp"
#include "tesmod/plugin/plugin_outline.hpp"

namespace tesmod::loadorder {

namespace fs = std::filesystem;

struct LoadOrder::Lazy {
  std::optional<PluginOutline> outline;  // read at open: the header and the top-level groups
  std::mutex outline_lock;               // PluginOutline::group is not thread-safe
  std::once_flag full_once;
  std::optional<PluginFile> full;
  std::exception_ptr full_error;
  std::atomic<bool> full_ready{false};  // full is built (readers that do not wait check this)
  std::once_flag ids_once;
  // Stored FormID -> entry index, open addressing (a plugin of a million records is looked up
  // for every reference that names it: one cache miss a lookup, not a node chase). Entry 0 (the
  // TES4 record) marks an empty slot.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> by_form_id;
  std::mutex types_lock;
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> ids_of_type;  // record type -> sorted FormIDs
  std::once_flag type_table_once;
  RecordTypeTable type_table;
};

std::string LoadIndex::text() const {
  return light ? fmt::format("FE {:03X}", value) : fmt::format("{:02X}", value);
}

namespace {

std::string path_text(const fs::path& p) { return p.string(); }

// A file in `dir` whose name equals `name` without regard to case.
std::optional<fs::path> find_in(const fs::path& dir, std::string_view name) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return std::nullopt;
  const fs::path exact = dir / std::string(name);
  if (fs::is_regular_file(exact, ec)) return exact;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (ascii::iequals(it->path().filename().string(), name) && it->is_regular_file(ec)) return it->path();
  return std::nullopt;
}

std::vector<std::uint8_t> read_whole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path_text(path), Error::kNoOffset, std::nullopt, "cannot open the file");
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

PluginList read_list(const fs::path& path, ListStyle style, std::vector<Problem>& problems) {
  const std::vector<std::uint8_t> bytes = read_whole(path);
  PluginList list = parse_plugin_list(bytes, style);
  for (const ListIssue& issue : list.issues)
    problems.push_back({path.filename().string(), fmt::format("line {} (offset {}): {}", issue.line, issue.offset, issue.message)});
  return list;
}

std::int64_t mtime_of(const fs::path& path) {
  std::error_code ec;
  const auto t = fs::last_write_time(path, ec);
  if (ec) return 0;
  return std::int64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
}

// The form version of the first record after the file header (Skyrim), 0 when there is none.
std::uint16_t first_form_version(const PluginOutline& outline) {
  if (outline.game() == Game::Oblivion || outline.top_groups().empty()) return 0;
  const auto bytes = outline.bytes();
  const std::uint64_t at = outline.top_groups()[0].offset + 24;
  if (at + 24 > bytes.size() || std::equal(bytes.begin() + std::ptrdiff_t(at), bytes.begin() + std::ptrdiff_t(at) + 4,
                                           "GRUP"))
    return 0;
  return le::u16(bytes.data() + at + 20);
}

}  // namespace

struct LoadOrderBuilder {
  static LoadOrder build(const LoadOrderSource& source);
};

LoadOrder::LoadOrder() = default;
LoadOrder::LoadOrder(LoadOrder&&) noexcept = default;
LoadOrder& LoadOrder::operator=(LoadOrder&&) noexcept = default;
LoadOrder::~LoadOrder() = default;

LoadOrder LoadOrder::open(const LoadOrderSource& source) { return LoadOrderBuilder::build(source); }

bool select_game(LoadOrderSource& source, std::string_view id) {
  if (id == "oblivionremastered") {
    source.game = Game::Oblivion;
    source.rules = OrderRules::OblivionRemastered;
    return true;
  }
  const std::optional<Game> game = parse_game(id);
  if (!game) return false;
  source.game = game;
  source.rules = OrderRules::Format;
  return true;
}

std::string_view LoadOrder::game_id() const {
  return rules_ == OrderRules::OblivionRemastered ? "oblivionremastered" : tesmod::game_id(game_);
}

std::string_view LoadOrder::game_title() const {
  return rules_ == OrderRules::OblivionRemastered ? "Oblivion Remastered" : tesmod::game_title(game_);
}

LoadOrder LoadOrderBuilder::build(const LoadOrderSource& source) {
  LoadOrder out;
  out.threads_ = thread_count(source.threads);
  std::vector<Problem>& problems = out.problems_;
  if (source.rules == OrderRules::OblivionRemastered && source.game && *source.game != Game::Oblivion)
    throw Error(path_text(source.data), Error::kNoOffset, std::nullopt,
                fmt::format("Oblivion Remastered reads Oblivion's plugins, not {}'s", game_title(*source.game)));

  // The candidates: the named files, or every plugin file in the data folder.
  struct Candidate {
    LoadOrderPlugin plugin;
    std::int64_t mtime = 0;
    std::optional<PluginOutline> outline;
    std::uint16_t form_version = 0;
  };
  std::vector<Candidate> candidates;
  const bool explicit_files = !source.files.empty();
  auto add_candidate = [&](const fs::path& path) {
    Candidate c;
    bool ghosted = false;
    c.plugin.name = std::string(strip_ghost(path.filename().string(), &ghosted));
    c.plugin.ghosted = ghosted;
    c.plugin.path = path;
    c.mtime = mtime_of(path);
    candidates.push_back(std::move(c));
  };
  if (explicit_files) {
    for (const fs::path& p : source.files) {
      std::error_code ec;
      if (!fs::is_regular_file(p, ec)) {
        problems.push_back({p.filename().string(), fmt::format("no such plugin file: {}", path_text(p))});
        continue;
      }
      add_candidate(p);
    }
  } else {
    std::error_code ec;
    if (!fs::is_directory(source.data, ec))
      throw Error(path_text(source.data), Error::kNoOffset, std::nullopt, "not a folder (expected the game's Data folder)");
    std::unordered_map<std::string, std::size_t> seen;  // lower-case name -> candidate
    std::vector<fs::path> files;
    for (fs::directory_iterator it(source.data, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code fec;
      if (!it->is_regular_file(fec)) continue;
      const std::string file = it->path().filename().string();
      if (!has_plugin_extension(strip_ghost(file))) continue;
      files.push_back(it->path());
    }
    if (ec) throw Error(path_text(source.data), Error::kNoOffset, std::nullopt, "cannot list the folder: " + ec.message());
    std::sort(files.begin(), files.end());
    // A plugin and its ghost both there: the game reads the plugin.
    std::stable_sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
      bool ga = false, gb = false;
      strip_ghost(a.filename().string(), &ga);
      strip_ghost(b.filename().string(), &gb);
      return !ga && gb;
    });
    for (const fs::path& p : files) {
      bool ghosted = false;
      const std::string name(strip_ghost(p.filename().string(), &ghosted));
      const auto [it, fresh] = seen.emplace(ascii::to_lower(name), candidates.size());
      if (!fresh) {
        problems.push_back({p.filename().string(), fmt::format("left out: '{}' is already there under that name "
                                                               "(names are compared without regard to case)",
                                                               candidates[it->second].plugin.path.filename().string())});
        continue;
      }
      add_candidate(p);
    }
  }

  // Every header, on several threads.
  auto read_headers = [&](std::size_t from) {
    run_workers(candidates.size() - from, out.threads_, [&](auto claim) {
      for (std::size_t k = claim(); k < candidates.size() - from; k = claim()) {
        Candidate& c = candidates[from + k];
        try {
          OpenOptions options;
          options.threads = 1;
          PluginOutline outline = PluginOutline::open(c.plugin.path, options);
          c.plugin.header = outline.header();
          c.plugin.format = outline.game();
          for (const MasterFile& m : c.plugin.header.masters) c.plugin.masters.push_back(m.name);
          c.form_version = first_form_version(outline);
          c.outline = std::move(outline);
        } catch (const std::exception& e) {
          c.plugin.error = e.what();
        }
      }
    });
  };
  read_headers(0);

  // Explicit lists: masters they do not name are looked for beside the plugins needing them.
  if (explicit_files) {
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const std::size_t before = candidates.size();
      for (const std::string& m : std::vector<std::string>(candidates[i].plugin.masters)) {
        const bool named = std::any_of(candidates.begin(), candidates.end(),
                                       [&](const Candidate& c) { return ascii::iequals(c.plugin.name, m); });
        if (named) continue;
        const fs::path dir = candidates[i].plugin.path.parent_path().empty() ? fs::path(".")
                                                                              : candidates[i].plugin.path.parent_path();
        auto found = find_in(dir, m);
        if (!found) found = find_in(dir, m + ".ghost");
        if (!found) continue;
        problems.push_back({m, fmt::format("a master of '{}' not named on the command line: read from {}",
                                           candidates[i].plugin.name, path_text(*found))});
        add_candidate(*found);
      }
      if (candidates.size() > before) read_headers(before);
    }
  }
  for (const Candidate& c : candidates)
    if (!c.plugin.readable()) problems.push_back({c.plugin.name, c.plugin.error});

  // The rules: Oblivion Remastered when asked for, or (no game given) when the folder is its Data
  // folder and no plugin there is a Skyrim one.
  if (source.rules) {
    out.rules_ = *source.rules;
  } else if (!source.game) {
    const bool skyrim = std::any_of(candidates.begin(), candidates.end(), [](const Candidate& c) {
      return c.plugin.readable() && c.plugin.format != Game::Oblivion;
    });
    bool remastered_folder = false;
    if (!explicit_files) {
      remastered_folder = detail::is_oblivion_remastered_data(source.data);
    } else {
      for (const Candidate& c : candidates)
        if (detail::is_oblivion_remastered_data(c.plugin.path.parent_path().empty() ? fs::path(".")
                                                                                     : c.plugin.path.parent_path()))
          remastered_folder = true;
    }
    if (remastered_folder && !skyrim) out.rules_ = OrderRules::OblivionRemastered;
  }
  const bool remastered = out.rules_ == OrderRules::OblivionRemastered;

  // The lists.
  detail::Lists lists;
  bool load_order_found = false;
  if (!explicit_files) {
    std::optional<fs::path> plugins_path;
    if (source.plugins_file) {
      std::error_code ec;
      if (!fs::is_regular_file(*source.plugins_file, ec))
        throw Error(path_text(*source.plugins_file), Error::kNoOffset, std::nullopt, "no such plugins file");
      plugins_path = *source.plugins_file;
    } else {
      plugins_path = find_in(source.data, "plugins.txt");
    }
    std::optional<fs::path> load_order_path;
    if (source.load_order_file) {
      std::error_code ec;
      if (!fs::is_regular_file(*source.load_order_file, ec))
        throw Error(path_text(*source.load_order_file), Error::kNoOffset, std::nullopt, "no such loadorder.txt file");
      load_order_path = *source.load_order_file;
    } else {
      load_order_path = find_in(plugins_path ? plugins_path->parent_path() : source.data, "loadorder.txt");
    }
    load_order_found = load_order_path.has_value();
    if (plugins_path) {
      lists.plugins_name = plugins_path->filename().string();
      // The style only decides how lines without '*' count; both are read the same way here and
      // the game decides once it is known.
      lists.plugins = read_list(*plugins_path, ListStyle::Names, problems);
    } else if (remastered) {
      problems.push_back({"Plugins.txt", fmt::format("not found in {}: no plugin is active (Oblivion Remastered "
                                                     "activates only the plugins it lists)",
                                                     path_text(source.data))});
    } else {
      problems.push_back({"plugins.txt", fmt::format("not found in {}: only the game's own masters are active",
                                                     path_text(source.data))});
    }
    std::vector<detail::Installed> probe;
    std::vector<std::uint16_t> versions;
    for (const Candidate& c : candidates) {
      probe.push_back({c.plugin, c.mtime});
      versions.push_back(c.form_version);
    }
    out.game_ = remastered    ? Game::Oblivion
                : source.game ? *source.game
                              : detail::detect_game(probe, lists, versions, load_order_found);
    if (plugins_path && out.game_ == Game::SkyrimSE)
      lists.plugins = parse_plugin_list(read_whole(*plugins_path), ListStyle::Asterisk);
    // Oblivion Remastered: libloadorder reads (and writes) a loadorder.txt beside Plugins.txt.
    if (load_order_path && (out.game_ == Game::SkyrimLE || remastered)) {
      lists.load_order_name = load_order_path->filename().string();
      lists.load_order = read_list(*load_order_path, ListStyle::Names, problems);
    }
    if (out.game_ == Game::SkyrimSE) {
      std::optional<fs::path> ccc = find_in(source.data.parent_path().empty() ? fs::path("..") : source.data.parent_path(),
                                            "Skyrim.ccc");
      if (!ccc) ccc = find_in(source.data, "Skyrim.ccc");
      if (ccc)
        for (const ListEntry& e : read_list(*ccc, ListStyle::Names, problems).entries) lists.ccc.push_back(e.name);
    }
  } else {
    std::vector<detail::Installed> probe;
    std::vector<std::uint16_t> versions;
    for (const Candidate& c : candidates) {
      probe.push_back({c.plugin, c.mtime});
      versions.push_back(c.form_version);
    }
    out.game_ = remastered    ? Game::Oblivion
                : source.game ? *source.game
                              : detail::detect_game(probe, lists, versions, false);
  }

  // Plugins of another game than the load order's cannot load in it.
  for (Candidate& c : candidates) {
    if (!c.plugin.readable()) continue;
    if ((c.plugin.format == Game::Oblivion) != (out.game_ == Game::Oblivion)) {
      c.plugin.error = fmt::format("is {} plugin; the load order is {}",
                                   c.plugin.format == Game::Oblivion ? "an Oblivion" : "a Skyrim",
                                   out.game_title());
      problems.push_back({c.plugin.name, c.plugin.error});
    }
  }
  // Oblivion Remastered: no plugin loads as a master (libloadorder's is_master_file is false for
  // every plugin of that game), so nothing below moves a plugin for its ESM flag.
  for (Candidate& c : candidates) {
    c.plugin.master = !remastered && detail::loads_as_master(out.game_, c.plugin);
    c.plugin.light = detail::loads_as_light(out.game_, c.plugin);
  }

  // The order.
  std::unordered_map<std::string, std::optional<PluginOutline>> outlines;
  std::vector<detail::Installed> installed;
  for (Candidate& c : candidates) {
    outlines.emplace(ascii::to_lower(c.plugin.name), std::move(c.outline));
    installed.push_back({std::move(c.plugin), c.mtime});
  }
  if (explicit_files) {
    for (detail::Installed& i : installed) i.plugin.active = true;
    for (detail::Installed& i : installed) out.plugins_.push_back(std::move(i.plugin));
    std::stable_partition(out.plugins_.begin(), out.plugins_.end(), [](const LoadOrderPlugin& p) { return p.master; });
  } else {
    out.plugins_ = detail::arrange(out.game_, out.rules_, std::move(installed), lists, problems);
  }
  // Oblivion Remastered moves no plugin for its masters (libloadorder hoists nothing there).
  if (remastered) detail::report_late_masters(out.plugins_, problems);
  else detail::hoist_masters(out.plugins_, problems);
  detail::assign_indices(out.game_, out.plugins_, problems);

  for (std::uint32_t i = 0; i < out.plugins_.size(); ++i) {
    auto lazy = std::make_unique<LoadOrder::Lazy>();
    auto it = outlines.find(ascii::to_lower(out.plugins_[i].name));
    if (it != outlines.end()) lazy->outline = std::move(it->second);
    out.lazy_.push_back(std::move(lazy));
    if (out.plugins_[i].index) out.active_.push_back(i);
  }
  return out;
}

std::optional<std::uint32_t> LoadOrder::find(std::string_view name) const {
  for (std::uint32_t i = 0; i < plugins_.size(); ++i)
    if (ascii::iequals(plugins_[i].name, name)) return i;
  return std::nullopt;
}

std::optional<FormKey> LoadOrder::key(std::uint32_t position, std::uint32_t stored_form_id) const {
  const LoadOrderPlugin& p = plugins_[position];
  const std::uint32_t file_index = stored_form_id >> 24;
  const std::uint32_t object_id = stored_form_id & 0xFFFFFF;
  if (file_index < p.masters.size()) {
    const auto& m = p.master_positions[file_index];
    if (!m) return std::nullopt;
    return FormKey{*m, object_id};
  }
  return FormKey{position, object_id};
}

std::optional<std::uint32_t> LoadOrder::load_order_form_id(const FormKey& key) const {
  if (key.plugin >= plugins_.size() || !plugins_[key.plugin].index) return std::nullopt;
  return plugins_[key.plugin].index->form_id(key.object_id);
}

std::optional<FormKey> LoadOrder::from_load_order_form_id(std::uint32_t form_id) const {
  const std::uint32_t top = form_id >> 24;
  const bool light = game_ == Game::SkyrimSE && top == 0xFE;
  for (std::uint32_t position : active_) {
    const LoadIndex& index = *plugins_[position].index;
    if (index.light != light) continue;
    if (light ? index.value == ((form_id >> 12) & 0xFFF) : index.value == top)
      return FormKey{position, light ? form_id & 0xFFF : form_id & 0xFFFFFF};
  }
  return std::nullopt;
}

std::optional<std::uint32_t> LoadOrder::stored_form_id(std::uint32_t position, const FormKey& key) const {
  const LoadOrderPlugin& p = plugins_[position];
  if (key.plugin == position) return std::uint32_t(p.masters.size()) << 24 | key.object_id;
  for (std::size_t k = 0; k < p.master_positions.size(); ++k)
    if (p.master_positions[k] == key.plugin) return std::uint32_t(k) << 24 | key.object_id;
  return std::nullopt;
}

const PluginFile& LoadOrder::file(std::uint32_t position) const { return open_file(position, threads_); }

const PluginFile& LoadOrder::open_file(std::uint32_t position, unsigned threads) const {
  Lazy& lazy = *lazy_[position];
  std::call_once(lazy.full_once, [&] {
    try {
      const LoadOrderPlugin& p = plugins_[position];
      if (!p.readable()) throw Error(p.name, Error::kNoOffset, std::nullopt, p.error);
      OpenOptions options;
      options.threads = threads;
      options.game = p.format == Game::Oblivion ? Game::Oblivion : game_;
      lazy.full = PluginFile::open(p.path, options);
      lazy.full_ready = true;
    } catch (...) {
      lazy.full_error = std::current_exception();
    }
  });
  if (lazy.full_error) std::rethrow_exception(lazy.full_error);
  return *lazy.full;
}

void LoadOrder::read_files(std::span<const std::uint32_t> positions) const {
  // Largest first, each on one thread (an index walk is bound by memory latency: a second thread
  // does not speed one file up), so that the small ones are read beside the large one.
  std::vector<std::pair<std::uintmax_t, std::uint32_t>> by_size;
  for (std::uint32_t p : positions) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(plugins_[p].path, ec);
    by_size.emplace_back(ec ? 0 : size, p);
  }
  std::sort(by_size.begin(), by_size.end(), std::greater<>());
  run_workers(by_size.size(), threads_, [&](auto claim) {
    for (std::size_t k = claim(); k < by_size.size(); k = claim()) {
      try {
        open_file(by_size[k].second, 1);
      } catch (const std::exception&) {
      }
    }
  });
}

std::vector<IndexEntry> LoadOrder::find_records(std::uint32_t position, const RecordWanted& want,
                                                std::uint32_t* entry_count) const {
  Lazy& lazy = *lazy_[position];
  std::vector<IndexEntry> out;
  if (lazy.full_ready || !lazy.outline) {
    const auto entries = file(position).entries();
    for (std::uint32_t i = 1; i < entries.size(); ++i) {  // not the TES4 record
      IndexEntry e = entries[i];
      if (e.is_group()) continue;
      e.parent = kNoParent;
      if (want(e)) out.push_back(e);
    }
    if (entry_count) *entry_count = std::uint32_t(entries.size());
    return out;
  }
  const PluginOutline& outline = *lazy.outline;
  const auto groups = outline.top_groups();
  // The work: runs of the top-level groups' children, a group's whole contents unless it is
  // larger than a share of the file (a game master's worlds can be most of it), so that the
  // threads end together.
  struct Run {
    std::size_t group;
    std::uint64_t begin, end;
  };
  std::uint64_t total = 0;
  for (const IndexEntry& g : groups) total += g.size;
  const std::uint64_t share = threads_ > 1 ? std::max<std::uint64_t>(total / (threads_ * 4), 1 << 20) : ~std::uint64_t(0);
  const std::uint64_t header = outline.header_size();
  std::vector<Run> runs;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].size <= share) {
      runs.push_back({g, groups[g].offset + header, groups[g].offset + groups[g].size});
      continue;
    }
    for (const auto& [begin, end] : outline.split_group(g, share)) runs.push_back({g, begin, end});
  }
  std::vector<std::size_t> by_size(runs.size());
  for (std::size_t r = 0; r < runs.size(); ++r) by_size[r] = r;
  std::stable_sort(by_size.begin(), by_size.end(), [&](std::size_t a, std::size_t b) {
    return runs[a].end - runs[a].begin > runs[b].end - runs[b].begin;
  });
  std::vector<FoundRecords> found(runs.size());
  std::vector<std::exception_ptr> errors(runs.size());
  run_workers(by_size.size(), threads_, [&](auto claim) {
    for (std::size_t k = claim(); k < by_size.size(); k = claim()) {
      const Run& r = runs[by_size[k]];
      try {
        found[by_size[k]] = outline.find_records(r.group, r.begin, r.end, want);
      } catch (...) {
        errors[by_size[k]] = std::current_exception();
      }
    }
  });
  // The first damage in file order, as a full index reports it.
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  // Numbered as the full index numbers them: the TES4 record first, then each group's header and
  // its runs' entries in order (a run counts from the entry before its first item).
  std::uint32_t base = 1;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    if (r == 0 || runs[r - 1].group != runs[r].group) ++base;  // the group's header
    for (IndexEntry e : found[r].records) {
      e.end += base - 1;
      out.push_back(e);
    }
    base += found[r].entries;
  }
  if (entry_count) *entry_count = base;
  return out;
}

bool LoadOrder::is_read(std::uint32_t position) const { return lazy_[position]->full_ready; }

std::optional<IndexEntry> LoadOrder::find_record(std::uint32_t position, std::uint32_t stored_form_id) const {
  const PluginFile& f = file(position);
  Lazy& lazy = *lazy_[position];
  auto slot_of = [](std::uint32_t id, std::size_t mask) { return std::size_t(id * 0x9E3779B1u) & mask; };
  std::call_once(lazy.ids_once, [&] {
    const auto entries = f.entries();
    std::size_t capacity = 16;
    while (capacity < entries.size() * 2) capacity *= 2;
    lazy.by_form_id.assign(capacity, {0, 0});
    const std::size_t mask = capacity - 1;
    for (std::uint32_t i = 1; i < entries.size(); ++i) {
      if (entries[i].is_group()) continue;
      for (std::size_t at = slot_of(entries[i].id, mask);; at = (at + 1) & mask) {
        auto& slot = lazy.by_form_id[at];
        if (slot.second == 0) {
          slot = {entries[i].id, i};
          break;
        }
        if (slot.first == entries[i].id) break;  // a duplicate: the first one stays
      }
    }
  });
  const std::size_t mask = lazy.by_form_id.size() - 1;
  for (std::size_t at = slot_of(stored_form_id, mask);; at = (at + 1) & mask) {
    const auto& slot = lazy.by_form_id[at];
    if (slot.second == 0) return std::nullopt;
    if (slot.first == stored_form_id) return f.entry(slot.second);
  }
}

const RecordTypeTable& LoadOrder::type_table(std::uint32_t position) const {
  const PluginFile& f = file(position);
  Lazy& lazy = *lazy_[position];
  std::call_once(lazy.type_table_once, [&] {
    lazy.type_table = RecordTypeTable::build(f.entries(), std::uint32_t(plugins_[position].masters.size()));
  });
  return lazy.type_table;
}

std::optional<Signature> LoadOrder::record_type(std::uint32_t position, std::uint32_t stored_form_id) const {
  return type_table(position).find(stored_form_id);
}

std::span<const std::pair<std::uint32_t, std::uint32_t>> LoadOrder::duplicate_form_ids(std::uint32_t position) const {
  return type_table(position).duplicates();
}

std::optional<Signature> LoadOrder::record_type_in(const FormKey& key, std::span<const Signature> types) const {
  if (key.plugin >= plugins_.size() || !plugins_[key.plugin].readable()) return std::nullopt;
  const auto stored = stored_form_id(key.plugin, key);
  if (!stored) return std::nullopt;
  Lazy& lazy = *lazy_[key.plugin];
  if (lazy.full_ready) {
    const auto e = find_record(key.plugin, *stored);
    if (e && std::find(types.begin(), types.end(), e->type) != types.end()) return e->type;
    return std::nullopt;
  }
  if (!lazy.outline) return std::nullopt;
  for (Signature type : types) {
    std::scoped_lock guard(lazy.types_lock, lazy.outline_lock);
    auto it = lazy.ids_of_type.find(type.value());
    if (it == lazy.ids_of_type.end()) {
      std::vector<std::uint32_t> ids;  // filled before it is kept: a group that does not read throws
      for (std::size_t g : lazy.outline->groups_holding(type))
        for (const IndexEntry& e : lazy.outline->group(g))
          if (!e.is_group() && e.type == type) ids.push_back(e.id);
      std::sort(ids.begin(), ids.end());
      it = lazy.ids_of_type.emplace(type.value(), std::move(ids)).first;
    }
    if (std::binary_search(it->second.begin(), it->second.end(), *stored)) return type;
  }
  return std::nullopt;
}

std::vector<RecordVersion> LoadOrder::versions(const FormKey& key) const {
  std::vector<RecordVersion> out;
  for (std::uint32_t position : active_) {
    const LoadOrderPlugin& p = plugins_[position];
    if (position != key.plugin &&
        std::find(p.master_positions.begin(), p.master_positions.end(), std::optional<std::uint32_t>(key.plugin)) ==
            p.master_positions.end())
      continue;
    const auto stored = stored_form_id(position, key);
    if (!stored) continue;
    if (auto e = find_record(position, *stored)) out.push_back({position, *e});
  }
  return out;
}

std::optional<RecordVersion> LoadOrder::winner(const FormKey& key) const {
  auto all = versions(key);
  if (all.empty()) return std::nullopt;
  return all.back();
}

std::vector<RecordVersion> LoadOrder::winning(Signature type) const {
  std::vector<RecordVersion> out;
  for (FormVersions& fv : versions_of(type)) out.push_back(fv.versions.back());  // a later plugin wins
  return out;
}

std::vector<FormVersions> LoadOrder::versions_of(Signature type) const {
  std::unordered_map<FormKey, std::size_t> slot;  // form -> its place in out
  std::vector<FormVersions> out;
  for (std::uint32_t position : active_) {
    Lazy& lazy = *lazy_[position];
    if (!lazy.outline) continue;
    std::lock_guard guard(lazy.outline_lock);
    PluginOutline& outline = *lazy.outline;
    for (std::size_t g : outline.groups_holding(type)) {
      for (const IndexEntry& e : outline.group(g)) {
        if (e.is_group() || e.type != type) continue;
        const auto k = key(position, e.id);
        if (!k) continue;
        const auto [it, fresh] = slot.emplace(*k, out.size());
        if (fresh) out.push_back({*k, {}});
        out[it->second].versions.push_back({position, e});
      }
    }
  }
  return out;
}

const PluginBytes& LoadOrder::bytes(std::uint32_t position) const {
  Lazy& lazy = *lazy_[position];
  if (lazy.full_ready) return *lazy.full;
  if (lazy.outline) return *lazy.outline;
  return file(position);
}

}  // namespace tesmod::loadorder
