// `tesmod diff`: match records by type and FormID, compare their bytes (fast: most records of
// two versions of a plugin are the same), and only for those that differ render both texts and
// diff their lines.
#include "tesmod/text/plugin_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

#include "tesmod/io/thread_count.hpp"
#include "tesmod/plugin/compressed_body.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "tesmod/text/record_text.hpp"
#include "tesmod/text/text_check.hpp"

namespace tesmod::text {
namespace {

constexpr Signature kSCTX{"SCTX"};
constexpr Signature kHEDR{"HEDR"};
constexpr std::uint32_t kCompressed = 0x00040000;

// Runs work(first, end) over [0, n) in chunks on up to `threads` threads; the first exception a
// chunk throws is thrown here once all have stopped.
template <class Work>
void parallel_chunks(std::size_t n, std::size_t chunk, unsigned threads, Work work) {
  const std::size_t chunks = (n + chunk - 1) / chunk;
  std::atomic<std::size_t> next{0};
  std::mutex lock;
  std::exception_ptr error;
  auto run = [&] {
    try {
      for (std::size_t c = next++; c < chunks; c = next++) work(c * chunk, std::min(n, (c + 1) * chunk));
    } catch (...) {
      next = chunks;
      std::lock_guard guard(lock);
      if (!error) error = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> pool;
    for (std::size_t t = 1; t < std::min<std::size_t>(thread_count(threads), chunks); ++t) pool.emplace_back(run);
    run();
  }
  if (error) std::rethrow_exception(error);
}

// ---- Matching -----------------------------------------------------------------------------

struct Pair {
  std::uint32_t old_entry, new_entry;
};

struct Matching {
  std::vector<Pair> pairs;             // in the new plugin's order
  std::vector<std::uint32_t> removed;  // old entries without a match, in order
  std::vector<std::uint32_t> added;    // new entries without a match, in order
};

std::uint64_t key_of(const IndexEntry& e) { return std::uint64_t(e.type.value()) << 32 | e.id; }

std::uint32_t next_record(std::span<const IndexEntry> entries, std::uint32_t i) {
  while (i < entries.size() && entries[i].is_group()) ++i;
  return i;
}

Matching match_records(const PluginFile& old_file, const PluginFile& new_file) {
  const auto a = old_file.entries(), b = new_file.entries();
  Matching m;
  // Walk both while the records come in the same order (the usual case, and one without
  // sorting); each key has then been seen equally often on both sides, so the rest matches by
  // occurrence on its own.
  std::uint32_t i = next_record(a, 0), j = next_record(b, 0);
  while (i < a.size() && j < b.size() && key_of(a[i]) == key_of(b[j])) {
    m.pairs.push_back({i, j});
    i = next_record(a, i + 1);
    j = next_record(b, j + 1);
  }
  struct Keyed {
    std::uint64_t key;
    std::uint32_t entry;
    auto operator<=>(const Keyed&) const = default;
  };
  auto rest = [](std::span<const IndexEntry> entries, std::uint32_t from) {
    std::vector<Keyed> out;
    for (std::uint32_t k = from; k < entries.size(); k = next_record(entries, k + 1))
      out.push_back({key_of(entries[k]), k});
    std::ranges::sort(out);  // by key, then file order: the n-th of a key meets the n-th
    return out;
  };
  const std::vector<Keyed> ra = rest(a, i), rb = rest(b, j);
  const std::size_t sorted_from = m.pairs.size();
  std::size_t x = 0, y = 0;
  while (x < ra.size() || y < rb.size()) {
    if (y == rb.size() || (x < ra.size() && ra[x].key < rb[y].key)) {
      m.removed.push_back(ra[x++].entry);
    } else if (x == ra.size() || rb[y].key < ra[x].key) {
      m.added.push_back(rb[y++].entry);
    } else {
      m.pairs.push_back({ra[x++].entry, rb[y++].entry});
    }
  }
  std::sort(m.pairs.begin() + std::ptrdiff_t(sorted_from), m.pairs.end(),
            [](const Pair& p, const Pair& q) { return p.new_entry < q.new_entry; });
  std::ranges::sort(m.removed);
  std::ranges::sort(m.added);
  return m;
}

// ---- Comparing bytes and places -------------------------------------------------------------

bool same_header(const RecordHeader& p, const RecordHeader& q) {
  return p.type == q.type && p.flags == q.flags && p.form_id == q.form_id && p.version_control == q.version_control &&
         p.form_version == q.form_version && p.version_control_2 == q.version_control_2;
}

// The TES4 body with HEDR's count of records zeroed: the count follows from the records.
std::vector<std::uint8_t> header_body_without_count(const PluginFile& file, const IndexEntry& e) {
  const auto stored = file.stored_body(e);
  std::vector<std::uint8_t> out(stored.begin(), stored.end());
  try {
    for (const SubrecordView& v : read_subrecords(stored, file.context(e)))
      if (v.type == kHEDR && v.data.size() >= 8) std::memset(out.data() + (v.data.data() - stored.data()) + 4, 0, 4);
  } catch (const Error&) {
    // Fields that do not read are compared as they are.
  }
  return out;
}

bool same_bytes(const PluginFile& a, const IndexEntry& ea, const PluginFile& b, const IndexEntry& eb) {
  if (!same_header(a.record_header(ea), b.record_header(eb))) return false;
  if (ea.type == kHeaderRecord) return header_body_without_count(a, ea) == header_body_without_count(b, eb);
  const auto p = a.stored_body(ea), q = b.stored_body(eb);
  return p.size() == q.size() && std::memcmp(p.data(), q.data(), p.size()) == 0;
}

// Groups whose label names the world, cell or topic their records belong to: where a record is
// (blocks above them follow from that record, and change with it, not with its children).
bool owner_group(std::int32_t type) { return type == 1 || type == 6 || type == 7; }

// Whether two records sit in the same place: their groups agree from the innermost out to the
// first owner group (or the top).
bool same_place(const PluginFile& a, std::uint32_t ga, const PluginFile& b, std::uint32_t gb) {
  while (ga != kNoParent && gb != kNoParent) {
    const IndexEntry& p = a.entry(ga);
    const IndexEntry& q = b.entry(gb);
    if (p.flags != q.flags || p.id != q.id) return false;
    if (owner_group(p.group_type())) return true;
    ga = p.parent;
    gb = q.parent;
  }
  return ga == gb;
}

// `CELL 01000810 MyCell`: the FormID, and the EditorID when the namer has one.
std::string owner_text(std::string_view type, std::uint32_t form_id, const FormNamer& namer) {
  std::string out = fmt::format("{} {:08X}", type, form_id);
  const std::string name = namer.name(form_id);
  if (name.find(':') == std::string::npos && !name.starts_with('@') && !name.starts_with("0x") && name != "NONE")
    out += ' ' + name;
  return out;
}

std::string describe_place(const PluginFile& file, std::uint32_t group, const FormNamer& namer) {
  std::vector<const IndexEntry*> chain;  // innermost first
  for (std::uint32_t g = group; g != kNoParent; g = file.entry(g).parent) {
    chain.push_back(&file.entry(g));
    if (owner_group(chain.back()->group_type())) break;
  }
  if (chain.empty()) return "top level";
  if (chain.size() > 1 && chain.back()->group_type() == 0) chain.pop_back();  // the blocks say more
  std::string out;
  std::int32_t previous = -1;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const std::uint32_t label = (*it)->id;
    const std::int32_t type = (*it)->group_type();
    if (!out.empty()) out += ' ';
    switch (type) {
      case 0: out += "group " + Signature::from_value(label).str(); break;
      case 1: out += owner_text("WRLD", label, namer); break;
      case 2: out += fmt::format("block {}", std::int32_t(label)); break;
      case 3: out += fmt::format("sub-block {}", std::int32_t(label)); break;
      case 4:
      case 5:  // grid Y in the low half, X in the high half
        out += fmt::format("{} x={} y={}", type == 4 ? "block" : "sub-block", std::int16_t(label >> 16),
                           std::int16_t(label & 0xFFFF));
        break;
      case 6: out += owner_text("CELL", label, namer); break;
      case 7: out += owner_text("DIAL", label, namer); break;
      case 8:
      case 9:
      case 10:
        if (previous != 6) out += owner_text("CELL", label, namer) + ' ';
        out += type == 8 ? "persistent" : type == 9 ? "temporary" : "visible distant";
        break;
      default: out += fmt::format("group type={} label=0x{:08X}", type, label); break;
    }
    previous = type;
  }
  return out;
}

// ---- Changed records as text ----------------------------------------------------------------

struct Side {
  const PluginFile& file;
  const TextNamer* namer = nullptr;
  RecordTextOptions options;
  // The new plugin's own forms without an EditorID are shown as the old one's (`Old.esp:` for
  // `New.esp:`): the records match by FormID, so their text should not differ by file name.
  std::string own_prefix, shown_as;
};

// The `Mod.esp:` before the object id of the plugin's own forms in its text ("" when none).
std::string own_prefix(const TextNamer& namer) {
  const std::string form = namer.file_form(std::uint32_t(namer.files().size() - 1) << 24);
  const std::size_t colon = form.rfind(':');
  return colon == std::string::npos ? std::string() : form.substr(0, colon + 1);
}

void replace_own_prefix(std::string& text, const Side& side) {
  const std::string& from = side.own_prefix;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    const char before = at ? text[at - 1] : ' ';
    if (std::isalnum(static_cast<unsigned char>(before)) || before == '_' || before == '.' || before == '-' ||
        before == '"') {  // the end of another file's name
      at += from.size();
      continue;
    }
    text.replace(at, from.size(), side.shown_as);
    at += side.shown_as.size();
  }
}

RecordRef record_ref(const PluginFile& file, const IndexEntry& e, const TextCodec& codec) {
  RecordRef r{e.type, e.id, {}};
  try {
    if (auto id = file.editor_id(e)) r.editor_id = codec.to_utf8(*id);
  } catch (const Error&) {
    // A record whose fields do not read has no EditorID to show.
  }
  return r;
}

struct RecordText {
  std::vector<std::string_view> lines;  // of text, without script sources and zlib-stored lines
  std::vector<std::string> sources;     // Oblivion script sources (SCTX), UTF-8
  std::string text;
};

void render(RecordText& out, const Side& side, const IndexEntry& e, const TextCodec& codec, Inflater& inflater) {
  const RecordHeader header = side.file.record_header(e);
  const auto stored = side.file.stored_body(e);
  append_record_text(out.text, header, stored, side.options, inflater);
  if (!side.shown_as.empty()) replace_own_prefix(out.text, side);
  const bool oblivion = side.file.game() == Game::Oblivion;
  bool in_source = false;  // inside the lines of an inline script source
  for (std::string_view line : split_lines(out.text)) {
    // The compressed stream is how the fields are stored, not what they say; script sources
    // get a diff of their own.
    if (in_source) {
      in_source = line != "  }";
      continue;
    }
    if (line.starts_with("  zlib-stored ") || (oblivion && line.starts_with("  SCTX \""))) continue;
    if (oblivion && line.starts_with("  SCTX ") && line.ends_with('{')) {
      in_source = true;
      continue;
    }
    out.lines.push_back(line);
  }
  if (!oblivion) return;
  try {
    const ErrorContext where = side.file.context(e);
    const auto body = (header.flags & kCompressed) ? inflate_record_body(stored, inflater, where) : stored;
    for (const SubrecordView& v : read_subrecords(body, where))
      if (v.type == kSCTX)
        out.sources.push_back(codec.to_utf8({reinterpret_cast<const char*>(v.data.data()), v.data.size()}));
  } catch (const Error&) {
    // Fields that do not read are shown as stored bytes by the text already.
  }
}

std::size_t indentation(std::string_view line) { return std::min(line.find_first_not_of(' '), line.size()); }

// A record text line as the diff shows it: after its op character, without field indentation.
std::string diff_line(char op, std::string_view line) {
  if (line.starts_with("  ")) line.remove_prefix(2);
  std::string out(1, op);
  out += line;
  return out;
}

std::string ordinal(std::size_t n) {
  const char* suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return fmt::format("{}{}", n, suffix);
}

// Where a hunk is, for a hunk whose lines the record holds more than once (one condition under
// three quest aliases, a repeated field): `@the 2nd of 3 lines alike, after ALID "Guard"`, the
// occurrence of its first line and the nearest line before it that the record holds only once.
class Places {
 public:
  Places(std::span<const std::string_view> a, std::span<const std::string_view> b) : a_(a), b_(b) {
    for (std::string_view line : a) ++count_a_[line];
    for (std::string_view line : b) ++count_b_[line];
  }

  std::optional<std::string> of(const DiffHunk& hunk) const {
    bool repeated = false;
    for (const LineEdit& e : hunk.edits)
      repeated = repeated || (e.op == LineOp::Added ? count_b_.at(b_[e.new_index]) : count_a_.at(a_[e.old_index])) > 1;
    if (!repeated) return std::nullopt;
    const LineEdit& first = hunk.edits.front();
    const bool added = first.op == LineOp::Added;
    const std::span<const std::string_view> side = added ? b_ : a_;
    const auto& counts = added ? count_b_ : count_a_;
    const std::size_t at = added ? first.new_index : first.old_index;
    std::vector<std::string> parts;
    if (const std::size_t n = counts.at(side[at]); n > 1) {
      const std::size_t k = std::size_t(std::count(side.begin(), side.begin() + std::ptrdiff_t(at) + 1, side[at]));
      parts.push_back(fmt::format("the {} of {} lines alike", ordinal(k), n));
    }
    // The record's header line (0) places nothing: every line is after it.
    for (std::size_t k = at; k-- > 1;)
      if (counts.at(side[k]) == 1) {
        std::string_view anchor = side[k];
        anchor.remove_prefix(indentation(anchor));
        parts.push_back(fmt::format("after {}", anchor));
        break;
      }
    if (parts.empty()) return std::nullopt;
    std::string out = "@";
    for (std::size_t k = 0; k < parts.size(); ++k) out += (k ? ", " : "") + parts[k];
    return out;
  }

 private:
  std::span<const std::string_view> a_, b_;
  std::unordered_map<std::string_view, std::size_t> count_a_, count_b_;
};

// The changed lines, each hunk after the unchanged lines that enclose it (its VMAD or package
// block, script, procedure ...) and were not shown yet, and, when the record holds its lines more
// than once, after a line that says where it is (Places).
std::vector<std::string> field_changes(std::span<const std::string_view> a, std::span<const std::string_view> b) {
  std::vector<std::string> out;
  const std::vector<LineEdit> edits = diff_lines(a, b);
  const Places places(a, b);
  std::size_t shown = 0;  // old lines before this were shown, or need not be
  for (const DiffHunk& hunk : diff_hunks(edits, 0)) {
    if (auto place = places.of(hunk)) out.push_back(std::move(*place));
    const LineEdit& first = hunk.edits.front();
    std::size_t limit = indentation(first.op == LineOp::Added ? b[first.new_index] : a[first.old_index]);
    std::vector<std::string_view> enclosing;
    for (std::size_t k = first.old_index; k-- > shown && limit > 2;) {
      const std::size_t in = indentation(a[k]);
      if (in < limit && in >= 2) {
        enclosing.push_back(a[k]);
        limit = in;
      }
    }
    for (auto it = enclosing.rbegin(); it != enclosing.rend(); ++it) out.push_back(diff_line(' ', *it));
    for (const LineEdit& e : hunk.edits)
      out.push_back(diff_line(char(e.op), e.op == LineOp::Added ? b[e.new_index] : a[e.old_index]));
    shown = hunk.edits.back().old_index + (hunk.edits.back().op == LineOp::Added ? 0 : 1);
  }
  return out;
}

// Lines of a script source without the CR of CR LF line breaks.
std::vector<std::string_view> source_lines(std::string_view source) {
  std::vector<std::string_view> lines = split_lines(source);
  for (std::string_view& line : lines)
    if (line.ends_with('\r')) line.remove_suffix(1);
  return lines;
}

std::vector<ScriptSourceDiff> script_changes(const std::vector<std::string>& a, const std::vector<std::string>& b,
                                             std::size_t context, std::vector<std::string>& notes) {
  std::vector<ScriptSourceDiff> out;
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::string_view old_source = i < a.size() ? std::string_view(a[i]) : std::string_view();
    const std::string_view new_source = i < b.size() ? std::string_view(b[i]) : std::string_view();
    if (old_source == new_source) continue;
    const std::vector<std::string_view> old_lines = source_lines(old_source), new_lines = source_lines(new_source);
    const std::string text = unified_diff(old_lines, new_lines, context);
    if (text.empty()) {
      notes.push_back("script source line breaks differ");
      continue;
    }
    ScriptSourceDiff d;
    d.index = i;
    for (std::string_view line : split_lines(text)) d.lines.emplace_back(line);
    out.push_back(std::move(d));
  }
  return out;
}

RecordChange record_change(const Side& a, const IndexEntry& ea, const Side& b, const IndexEntry& eb,
                           const TextCodec& codec, std::size_t context, Inflater& inflater) {
  RecordChange change;
  RecordText old_text, new_text;
  render(old_text, a, ea, codec, inflater);
  render(new_text, b, eb, codec, inflater);
  change.scripts = script_changes(old_text.sources, new_text.sources, context, change.notes);
  if (!change.scripts.empty()) {
    // The compiled code follows from the source, whose diff says what changed: its hex only
    // shows that it did.
    auto without_code = [](std::vector<std::string_view>& lines) {
      std::vector<std::string_view> code;
      std::erase_if(lines, [&code](std::string_view line) {
        if (!line.starts_with("  SCDA ")) return false;
        code.push_back(line);
        return true;
      });
      return code;
    };
    if (without_code(old_text.lines) != without_code(new_text.lines))
      change.notes.push_back("compiled code (SCDA) changed with it");
  }
  change.lines = field_changes(old_text.lines, new_text.lines);
  if (change.lines.empty() && change.scripts.empty() && change.notes.empty())
    change.notes.push_back((ea.flags & kCompressed) && (eb.flags & kCompressed)
                               ? "the same fields, compressed otherwise"
                               : "the same text, other stored bytes");
  return change;
}

}  // namespace

PluginDiff diff_plugins(const PluginFile& old_file, const PluginFile& new_file, const TextCodec& codec,
                        const DiffOptions& options) {
  if ((old_file.game() == Game::Oblivion) != (new_file.game() == Game::Oblivion))
    throw Error(new_file.name(), Error::kNoOffset, std::nullopt,
                fmt::format("is for {}, {} is for {}: only plugins of one game can be compared",
                            game_title(new_file.game()), old_file.name(), game_title(old_file.game())));
  const Matching m = match_records(old_file, new_file);

  // Which matched records differ, or sit elsewhere: bytes and groups only.
  std::vector<std::uint8_t> changed(m.pairs.size()), moved(m.pairs.size());
  parallel_chunks(m.pairs.size(), 4096, options.threads, [&](std::size_t first, std::size_t end) {
    for (std::size_t k = first; k < end; ++k) {
      const IndexEntry& ea = old_file.entry(m.pairs[k].old_entry);
      const IndexEntry& eb = new_file.entry(m.pairs[k].new_entry);
      changed[k] = !same_bytes(old_file, ea, new_file, eb);
      moved[k] = !same_place(old_file, ea.parent, new_file, eb.parent);
    }
  });
  std::vector<std::size_t> differing;
  for (std::size_t k = 0; k < m.pairs.size(); ++k)
    if (changed[k] || moved[k]) differing.push_back(k);

  PluginDiff diff;
  for (std::uint32_t e : m.added) diff.added.push_back(record_ref(new_file, new_file.entry(e), codec));
  for (std::uint32_t e : m.removed) diff.removed.push_back(record_ref(old_file, old_file.entry(e), codec));
  if (differing.empty()) return diff;

  // Text only now, with namers made only now: most diffs of a large master need none.
  std::optional<PluginNamer> old_names, new_names;
  Side a{old_file, options.old_namer, {}, {}, {}}, b{new_file, options.new_namer, {}, {}, {}};
  if (!a.namer) a.namer = &old_names.emplace(plugin_text_namer(old_file, options.naming)).namer;
  if (!b.namer) b.namer = &new_names.emplace(plugin_text_namer(new_file, options.naming)).namer;
  a.options = record_text_options(old_file, *a.namer, codec);
  b.options = record_text_options(new_file, *b.namer, codec);
  b.own_prefix = own_prefix(*b.namer);
  const std::string old_prefix = own_prefix(*a.namer);
  if (!old_prefix.empty() && !b.own_prefix.empty() && old_prefix != b.own_prefix) b.shown_as = old_prefix;

  std::vector<RecordChange> changes(differing.size());
  std::vector<RecordMove> moves(differing.size());
  parallel_chunks(differing.size(), 64, options.threads, [&](std::size_t first, std::size_t end) {
    Inflater inflater;
    for (std::size_t k = first; k < end; ++k) {
      const Pair& p = m.pairs[differing[k]];
      const IndexEntry& ea = old_file.entry(p.old_entry);
      const IndexEntry& eb = new_file.entry(p.new_entry);
      RecordRef ref = record_ref(new_file, eb, codec);
      if (ref.editor_id.empty()) ref.editor_id = record_ref(old_file, ea, codec).editor_id;
      if (changed[differing[k]]) {
        changes[k] = record_change(a, ea, b, eb, codec, options.script_context, inflater);
        changes[k].record = ref;
      }
      if (moved[differing[k]]) {
        moves[k].record = ref;
        moves[k].from = describe_place(old_file, ea.parent, *a.namer);
        moves[k].to = describe_place(new_file, eb.parent, *b.namer);
      }
    }
  });
  for (std::size_t k = 0; k < differing.size(); ++k) {
    if (changed[differing[k]]) diff.changed.push_back(std::move(changes[k]));
    if (moved[differing[k]]) diff.moved.push_back(std::move(moves[k]));
  }
  return diff;
}

}  // namespace tesmod::text
