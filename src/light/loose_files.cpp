#include "tesmod/light/loose_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include "tesmod/error.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/bsa_names.hpp"
#include "tesmod/io/counted.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/plugin_outline.hpp"

namespace tesmod::light {
namespace fs = std::filesystem;
namespace {

using ObjectMap = std::map<std::uint32_t, std::uint32_t>;

constexpr std::array<std::string_view, 5> kFaceGeomDir = {"meshes", "actors", "character", "facegendata", "facegeom"};
constexpr std::array<std::string_view, 5> kFaceTintDir = {"textures", "actors", "character", "facegendata", "facetint"};
constexpr std::array<std::string_view, 2> kVoiceDir = {"sound", "voice"};
constexpr std::array<std::string_view, 4> kVoiceExtensions = {".fuz", ".xwm", ".wav", ".lip"};

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
unsigned hex_value(char c) {
  if (c <= '9') return unsigned(c - '0');
  return unsigned(ascii::lower(c) - 'a' + 10);
}

bool ends_with_ci(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && ascii::iequals(s.substr(s.size() - suffix.size()), suffix);
}

// The object id of 8 hex digits that name a record of the plugin itself: "00" then 6 digits (the
// load-order byte written as 00). Anything else is no such name.
std::optional<std::uint32_t> own_id(std::string_view digits) {
  if (digits.size() != 8 || digits[0] != '0' || digits[1] != '0') return std::nullopt;
  std::uint32_t id = 0;
  for (char c : digits) {
    if (!is_hex(c)) return std::nullopt;
    id = id << 4 | hex_value(c);
  }
  return id;
}

// 8 hex digits for the id in the case style of the digits they replace.
std::string id_digits(std::uint32_t id, std::string_view old_digits) {
  const bool lower = std::any_of(old_digits.begin(), old_digits.end(), [](char c) { return c >= 'a' && c <= 'f'; }) &&
                     std::none_of(old_digits.begin(), old_digits.end(), [](char c) { return c >= 'A' && c <= 'F'; });
  return lower ? fmt::format("{:08x}", id) : fmt::format("{:08X}", id);
}

// Where the id is in a file's name, and which.
struct NamedId {
  std::size_t pos = 0;  // of the 8 digits in the name
  std::uint32_t id = 0;
};

// `<8 hex>.<ext>` (FaceGen mesh or tint).
std::optional<NamedId> facegen_name(std::string_view name, std::string_view ext) {
  if (name.size() != 8 + ext.size() || !ends_with_ci(name, ext)) return std::nullopt;
  if (auto id = own_id(name.substr(0, 8))) return NamedId{0, *id};
  return std::nullopt;
}

// `<anything>_<8 hex>_<response number>.<fuz|xwm|wav|lip>`.
std::optional<NamedId> voice_name(std::string_view name) {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string_view ext = name.substr(dot);
  if (std::none_of(kVoiceExtensions.begin(), kVoiceExtensions.end(), [&](std::string_view e) { return ascii::iequals(ext, e); }))
    return std::nullopt;
  const std::string_view stem = name.substr(0, dot);
  const std::size_t last = stem.rfind('_');
  if (last == std::string_view::npos || last + 1 == stem.size()) return std::nullopt;
  const std::string_view number = stem.substr(last + 1);
  if (!std::all_of(number.begin(), number.end(), is_digit)) return std::nullopt;
  if (last < 9 || stem[last - 9] != '_') return std::nullopt;  // `_` + 8 digits before the number's `_`
  if (auto id = own_id(stem.substr(last - 8, 8))) return NamedId{last - 8, *id};
  return std::nullopt;
}

std::string path_text(const fs::path& p) { return p.generic_string(); }
std::string folded(const fs::path& p) { return ascii::to_lower(p.generic_string()); }

// The entries of a folder, sorted by name; empty when it cannot be listed.
std::vector<fs::directory_entry> list_folder(const fs::path& dir) {
  std::vector<fs::directory_entry> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) out.push_back(*it);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
  return out;
}

bool is_dir(const fs::directory_entry& e) {
  std::error_code ec;
  return e.is_directory(ec);
}
bool is_file(const fs::directory_entry& e) {
  std::error_code ec;
  return e.is_regular_file(ec);
}

// Every folder under data/rel whose path is `names` ignoring case (a case-sensitive file system
// may hold several), as paths relative to data spelled as stored.
std::vector<fs::path> find_folders(const fs::path& data, const std::vector<fs::path>& from,
                                   std::span<const std::string_view> names) {
  std::vector<fs::path> level = from;
  for (std::string_view name : names) {
    std::vector<fs::path> next;
    for (const fs::path& rel : level)
      for (const auto& e : list_folder(data / rel))
        if (is_dir(e) && ascii::iequals(e.path().filename().string(), name)) next.push_back(rel / e.path().filename());
    level = std::move(next);
  }
  return level;
}

std::vector<std::uint8_t> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string(), Error::kNoOffset, std::nullopt, "cannot open the file");
  std::vector<std::uint8_t> out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error(path.string(), Error::kNoOffset, std::nullopt, "cannot read the file");
  return out;
}

std::vector<std::uint8_t> as_bytes(std::string_view s) { return {s.begin(), s.end()}; }

// Every `facetint<sep><plugin><sep><8 hex>.dds` of the bytes (any case, either slash) whose id
// the map renumbers: the 8 digits replaced.
std::vector<BytePatch> tint_patches(std::span<const std::uint8_t> bytes, std::string_view plugin, const ObjectMap& map) {
  constexpr std::string_view kTint = "facetint";
  const std::size_t need = kTint.size() + 1 + plugin.size() + 1 + 8 + 4;
  std::vector<BytePatch> out;
  if (bytes.size() < need) return out;
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  auto sep = [](char c) { return c == '\\' || c == '/'; };
  for (std::size_t i = 0; i + need <= text.size(); ++i) {
    if (!ascii::iequals(text.substr(i, kTint.size()), kTint)) continue;
    std::size_t p = i + kTint.size();
    if (!sep(text[p]) || !ascii::iequals(text.substr(p + 1, plugin.size()), plugin) || !sep(text[p + 1 + plugin.size()]))
      continue;
    p += 1 + plugin.size() + 1;
    const std::string_view digits = text.substr(p, 8);
    if (!ascii::iequals(text.substr(p + 8, 4), ".dds")) continue;
    const auto id = own_id(digits);
    if (!id) continue;
    const auto it = map.find(*id);
    if (it == map.end()) continue;
    out.push_back({p, as_bytes(digits), as_bytes(id_digits(it->second, digits))});
    i = p + 8 + 4 - 1;
  }
  return out;
}

class Planner {
 public:
  Planner(const fs::path& data, std::string_view plugin, const ObjectMap& map, const LooseFileOptions& options)
      : data_(data), plugin_(plugin), map_(map), options_(options) {
    const std::size_t dot = plugin_.rfind('.');
    base_ = dot == std::string::npos ? plugin_ : plugin_.substr(0, dot);
  }

  LooseFilePlan run() {
    std::error_code ec;
    if (!fs::is_directory(data_, ec))
      throw Error(data_.string(), Error::kNoOffset, std::nullopt, "not a folder (expected the game's Data folder)");
    if (!map_.empty()) {
      face_geometry();
      face_tints();
      voices();
      seq();
      if (options_.check_archives) archives();
    }
    std::sort(plan_.changes.begin(), plan_.changes.end(),
              [](const LooseFileChange& a, const LooseFileChange& b) { return a.from < b.from; });
    check_targets();
    return std::move(plan_);
  }

 private:
  const std::vector<fs::path> root_{fs::path()};

  std::vector<fs::path> plugin_folders(std::span<const std::string_view> prefix) {
    std::vector<fs::path> dirs = find_folders(data_, root_, prefix);
    const std::array<std::string_view, 1> plugin{plugin_};
    return find_folders(data_, dirs, plugin);
  }

  void error(std::string message) { plan_.problems.push_back({true, std::move(message)}); }
  void warning(std::string message) { plan_.problems.push_back({false, std::move(message)}); }

  // The file's bytes, or nullopt after an error naming rel when it does not read.
  std::optional<std::vector<std::uint8_t>> read_or_report(const fs::path& path, const fs::path& rel) {
    try {
      return read_bytes(path);
    } catch (const Error& err) {
      error(fmt::format("{}: {}", path_text(rel), err.detail()));
      return std::nullopt;
    }
  }

  // The change renaming rel (its id at pos) to the new id, if the map renumbers it.
  std::optional<LooseFileChange> rename(LooseFileKind kind, const fs::path& rel, const NamedId& named) {
    const auto it = map_.find(named.id);
    if (it == map_.end()) return std::nullopt;
    std::string name = rel.filename().string();
    name.replace(named.pos, 8, id_digits(it->second, std::string_view(name).substr(named.pos, 8)));
    LooseFileChange change;
    change.kind = kind;
    change.from = rel;
    change.to = rel.parent_path() / name;
    return change;
  }

  void face_geometry() {
    for (const fs::path& dir : plugin_folders(kFaceGeomDir)) {
      for (const auto& e : list_folder(data_ / dir)) {
        if (!is_file(e)) continue;
        const fs::path rel = dir / e.path().filename();
        const auto named = facegen_name(e.path().filename().string(), ".nif");
        if (!named) continue;
        auto read = read_or_report(e.path(), rel);
        if (!read) continue;
        std::vector<std::uint8_t>& bytes = *read;
        auto change = rename(LooseFileKind::FaceGeom, rel, *named);
        auto patches = tint_patches(bytes, plugin_, map_);
        if (!change && patches.empty()) continue;
        if (!change) change = LooseFileChange{LooseFileKind::FaceGeom, rel, rel, {}};
        change->patches = std::move(patches);
        plan_.changes.push_back(std::move(*change));
      }
    }
  }

  void face_tints() {
    for (const fs::path& dir : plugin_folders(kFaceTintDir))
      for (const auto& e : list_folder(data_ / dir)) {
        if (!is_file(e)) continue;
        if (const auto named = facegen_name(e.path().filename().string(), ".dds"))
          if (auto change = rename(LooseFileKind::FaceTint, dir / e.path().filename(), *named))
            plan_.changes.push_back(std::move(*change));
      }
  }

  void voices() {
    for (const fs::path& dir : plugin_folders(kVoiceDir))
      for (const auto& type : list_folder(data_ / dir)) {
        if (!is_dir(type)) continue;
        const fs::path type_rel = dir / type.path().filename();
        for (const auto& e : list_folder(type.path())) {
          if (!is_file(e)) continue;
          if (const auto named = voice_name(e.path().filename().string()))
            if (auto change = rename(LooseFileKind::Voice, type_rel / e.path().filename(), *named))
              plan_.changes.push_back(std::move(*change));
        }
      }
  }

  // The plugin's master count: given, or read from its header in Data.
  std::optional<std::uint32_t> own_index(const fs::path& seq_rel) {
    if (options_.own_index) return options_.own_index;
    for (const auto& e : list_folder(data_))
      if (is_file(e) && ascii::iequals(e.path().filename().string(), plugin_)) {
        try {
          return std::uint32_t(PluginOutline::open(e.path()).header().masters.size());
        } catch (const Error& err) {
          error(fmt::format("{}: cannot tell the plugin's own quests: {}", path_text(seq_rel), err.what()));
          return std::nullopt;
        }
      }
    error(fmt::format("{}: cannot tell the plugin's own quests: {} is not in the Data folder (its master count is needed)",
                      path_text(seq_rel), plugin_));
    return std::nullopt;
  }

  void seq() {
    const std::array<std::string_view, 1> seq_dir{"seq"};
    const std::string seq_name = base_ + ".seq";
    for (const fs::path& dir : find_folders(data_, root_, seq_dir))
      for (const auto& e : list_folder(data_ / dir)) {
        if (!is_file(e) || !ascii::iequals(e.path().filename().string(), seq_name)) continue;
        const fs::path rel = dir / e.path().filename();
        auto read = read_or_report(e.path(), rel);
        if (!read) continue;
        std::vector<std::uint8_t>& bytes = *read;
        if (bytes.size() % 4 != 0) {
          error(fmt::format("{}: {} is not a whole number of FormIDs (4 bytes each)", path_text(rel),
                            counted(bytes.size(), "byte")));
          continue;
        }
        const auto own = own_index(rel);
        if (!own) continue;
        LooseFileChange change{LooseFileKind::Seq, rel, rel, {}};
        for (std::size_t at = 0; at < bytes.size(); at += 4) {
          const std::uint32_t form_id = le::u32(bytes.data() + at);
          if (form_id >> 24 != *own) continue;
          const auto it = map_.find(form_id & 0xFFFFFF);
          if (it == map_.end()) continue;
          std::vector<std::uint8_t> after(4);
          le::store<std::uint32_t>(after.data(), (form_id & 0xFF000000) | it->second);
          change.patches.push_back({at, {bytes.begin() + std::ptrdiff_t(at), bytes.begin() + std::ptrdiff_t(at + 4)},
                                    std::move(after)});
        }
        if (!change.patches.empty()) plan_.changes.push_back(std::move(change));
      }
  }

  // What a file of an archive (path as stored, backslashes) would need: a rename by the map, or
  // the SEQ file (its content not read here).
  std::optional<std::string> archive_entry_issue(const std::string& stored) {
    std::vector<std::string> parts;
    std::string part;
    for (char c : stored) {
      if (c == '\\' || c == '/') {
        parts.push_back(std::move(part));
        part.clear();
      } else {
        part += c;
      }
    }
    parts.push_back(std::move(part));
    auto under = [&](std::span<const std::string_view> prefix, std::size_t extra) {
      if (parts.size() != prefix.size() + extra) return false;
      for (std::size_t i = 0; i < prefix.size(); ++i)
        if (!ascii::iequals(parts[i], prefix[i])) return false;
      return ascii::iequals(parts[prefix.size()], plugin_);
    };
    auto renumbered = [&](const std::optional<NamedId>& named) { return named && map_.count(named->id) != 0; };
    if ((under(kFaceGeomDir, 2) && renumbered(facegen_name(parts.back(), ".nif"))) ||
        (under(kFaceTintDir, 2) && renumbered(facegen_name(parts.back(), ".dds"))) ||
        (under(kVoiceDir, 3) && renumbered(voice_name(parts.back()))))
      return std::string("named by a renumbered FormID");
    if (parts.size() == 2 && ascii::iequals(parts[0], "seq") && ascii::iequals(parts[1], base_ + ".seq"))
      return std::string("the start-game-enabled quests by FormID, not read");
    return std::nullopt;
  }

  void archives() {
    const std::array<std::string, 2> names{base_ + ".bsa", base_ + " - Textures.bsa"};
    for (const auto& e : list_folder(data_)) {
      const std::string name = e.path().filename().string();
      if (!is_file(e) || std::none_of(names.begin(), names.end(), [&](const std::string& n) { return ascii::iequals(name, n); }))
        continue;
      BsaNames listing;
      try {
        listing = read_bsa_names(e.path());
      } catch (const Error& err) {
        error(fmt::format("{}: cannot list the archive: {}", name, err.what()));
        continue;
      }
      for (const std::string& stored : listing.paths)
        if (auto issue = archive_entry_issue(stored))
          warning(fmt::format("{} holds {}, {}: not changed", name, stored, *issue));
    }
  }

  // Targets that exist already (and are not renamed away themselves), or that two files take.
  void check_targets() {
    std::unordered_set<std::string> sources;  // folded paths renamed away
    for (const auto& c : plan_.changes)
      if (c.renamed()) sources.insert(folded(c.from));
    std::unordered_map<std::string, const LooseFileChange*> taken;
    std::unordered_map<std::string, std::vector<fs::directory_entry>> listings;
    for (const auto& c : plan_.changes) {
      if (!c.renamed()) continue;
      const std::string target = folded(c.to);
      if (const auto [it, fresh] = taken.emplace(target, &c); !fresh) {
        error(fmt::format("{} and {} would both be renamed to {}", path_text(it->second->from), path_text(c.from),
                          path_text(c.to)));
        continue;
      }
      const std::string dir = path_text(c.to.parent_path());
      auto [lit, fresh] = listings.try_emplace(dir);
      if (fresh) lit->second = list_folder(data_ / c.to.parent_path());
      const std::string name = c.to.filename().string();
      for (const auto& e : lit->second) {
        if (!ascii::iequals(e.path().filename().string(), name)) continue;
        const fs::path existing = c.to.parent_path() / e.path().filename();
        if (sources.count(folded(existing)) != 0) continue;
        error(fmt::format("{}: cannot rename {} to it: the file exists already", path_text(existing), path_text(c.from)));
      }
    }
  }

  fs::path data_;
  std::string plugin_;
  std::string base_;
  const ObjectMap& map_;
  LooseFileOptions options_;
  LooseFilePlan plan_;
};

std::string hex_bytes(const std::vector<std::uint8_t>& bytes) {
  std::string out;
  for (std::uint8_t b : bytes) out += fmt::format("{:02X}", b);
  return out;
}

// The bytes of the file a change writes: the source's, patched. Throws when a patch's bytes are
// not there any more.
std::vector<std::uint8_t> changed_bytes(const LooseFileChange& change, const fs::path& source) {
  std::vector<std::uint8_t> bytes = read_bytes(source);
  for (const BytePatch& p : change.patches) {
    if (p.offset > bytes.size() || p.before.size() > bytes.size() - p.offset ||
        !std::equal(p.before.begin(), p.before.end(), bytes.begin() + std::ptrdiff_t(p.offset)))
      throw Error(source.string(), p.offset, std::nullopt,
                  fmt::format("expected the bytes {} the plan replaces; the file changed since it was planned",
                              hex_bytes(p.before)));
    std::copy(p.after.begin(), p.after.end(), bytes.begin() + std::ptrdiff_t(p.offset));
  }
  return bytes;
}

void write_in_place(std::vector<LooseFileChange> pending, const fs::path& data) {
  // A rename waits while its target is still the source of another pending rename; a cycle of
  // such renames is broken by moving one source to a temporary name first.
  while (!pending.empty()) {
    std::unordered_set<std::string> sources;
    for (const auto& c : pending)
      if (c.renamed()) sources.insert(folded(c.from));
    auto ready = std::find_if(pending.begin(), pending.end(), [&](const LooseFileChange& c) {
      return !c.renamed() || sources.count(folded(c.to)) == 0;
    });
    if (ready == pending.end()) {
      LooseFileChange& c = pending.front();
      fs::path temp;
      for (unsigned n = 0;; ++n) {
        temp = c.from.parent_path() / fmt::format(".tesmod-{}-{}.tmp", n, c.from.filename().string());
        std::error_code ec;
        if (!fs::exists(data / temp, ec)) break;
      }
      std::error_code ec;
      fs::rename(data / c.from, data / temp, ec);
      if (ec)
        throw Error((data / c.from).string(), Error::kNoOffset, std::nullopt,
                    "cannot move the file to a temporary name: " + ec.message());
      c.from = temp;
      continue;
    }
    const LooseFileChange c = std::move(*ready);
    pending.erase(ready);
    write_file_atomic(data / c.to, changed_bytes(c, data / c.from));
    if (c.renamed()) {
      std::error_code ec;
      fs::remove(data / c.from, ec);
      if (ec)
        throw Error((data / c.from).string(), Error::kNoOffset, std::nullopt,
                    "written as " + path_text(c.to) + " but the old file cannot be removed: " + ec.message());
    }
  }
}

}  // namespace

std::string_view kind_key(LooseFileKind kind) {
  switch (kind) {
    case LooseFileKind::FaceGeom: return "facegeom";
    case LooseFileKind::FaceTint: return "facetint";
    case LooseFileKind::Voice: return "voice";
    case LooseFileKind::Seq: return "seq";
  }
  return "?";
}

bool LooseFilePlan::has_errors() const {
  return std::any_of(problems.begin(), problems.end(), [](const LooseFileProblem& p) { return p.error; });
}

LooseFilePlan plan_loose_files(const fs::path& data, std::string_view plugin, const ObjectMap& object_map,
                               const LooseFileOptions& options) {
  ObjectMap map;  // without the ids that stay
  for (const auto& [from, to] : object_map) {
    if (from > 0xFFFFFF || to > 0xFFFFFF)
      throw Error(std::string(plugin), Error::kNoOffset, std::nullopt,
                  fmt::format("object id {:X} -> {:X}: object ids have 24 bits", from, to));
    if (from != to) map.emplace(from, to);
  }
  return Planner(data, plugin, map, options).run();
}

void apply_loose_files(const LooseFilePlan& plan, const fs::path& data, const std::optional<fs::path>& output) {
  if (plan.has_errors()) {
    const auto first = std::find_if(plan.problems.begin(), plan.problems.end(), [](const auto& p) { return p.error; });
    const auto errors = std::count_if(plan.problems.begin(), plan.problems.end(), [](const auto& p) { return p.error; });
    throw Error(data.string(), Error::kNoOffset, std::nullopt,
                fmt::format("the loose files are not changed: the plan has {} (first: {})",
                            counted(std::uint64_t(errors), "error"), first->message));
  }
  // Everything checked before anything is written: the sources are there, the patched bytes too.
  for (const auto& c : plan.changes) {
    std::error_code ec;
    if (!fs::is_regular_file(data / c.from, ec))
      throw Error((data / c.from).string(), Error::kNoOffset, std::nullopt, "the file to change is not there any more");
    if (!c.patches.empty()) changed_bytes(c, data / c.from);
  }
  if (!output) {
    write_in_place(plan.changes, data);
    return;
  }
  for (const auto& c : plan.changes) {
    const fs::path target = *output / c.to;
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    if (ec) throw Error(target.parent_path().string(), Error::kNoOffset, std::nullopt, "cannot create the folder: " + ec.message());
    write_file_atomic(target, changed_bytes(c, data / c.from));
  }
}

std::vector<std::string> loose_file_lines(const LooseFilePlan& plan) {
  std::vector<std::string> out;
  for (const auto& c : plan.changes) {
    std::string line = c.renamed() ? path_text(c.from) + " -> " + path_text(c.to) : path_text(c.from) + ":";
    if (!c.patches.empty()) {
      const std::string what = counted(c.patches.size(), "FormID") + " rewritten";
      line += c.renamed() ? " (" + what + ")" : " " + what;
    }
    out.push_back(std::move(line));
  }
  for (const auto& p : plan.problems) out.push_back((p.error ? "error: " : "warning: ") + p.message);
  return out;
}

nlohmann::ordered_json loose_files_json(const LooseFilePlan& plan) {
  nlohmann::ordered_json changes = nlohmann::ordered_json::array();
  for (const auto& c : plan.changes) {
    nlohmann::ordered_json patches = nlohmann::ordered_json::array();
    for (const auto& p : c.patches)
      patches.push_back({{"offset", p.offset}, {"before", hex_bytes(p.before)}, {"after", hex_bytes(p.after)}});
    changes.push_back({{"kind", kind_key(c.kind)},
                       {"from", path_text(c.from)},
                       {"to", path_text(c.to)},
                       {"patches", std::move(patches)}});
  }
  nlohmann::ordered_json problems = nlohmann::ordered_json::array();
  for (const auto& p : plan.problems) problems.push_back({{"error", p.error}, {"message", p.message}});
  return {{"changes", std::move(changes)}, {"problems", std::move(problems)}};
}

}  // namespace tesmod::light
