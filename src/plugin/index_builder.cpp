#include "index_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <exception>
#include <thread>
#include <unordered_map>

#include "tesmod/io/counted.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/io/thread_count.hpp"
#include "tesmod/plugin/compressed_body.hpp"
#include "tesmod/plugin/file_kind.hpp"
#include "tesmod/plugin/group_type.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace tesmod {
namespace {

// Real plugins nest groups six deep at most (WRLD > world children > block > sub-block > cell
// children > temporary children); anything far deeper is corrupt.
constexpr std::size_t kMaxDepth = 32;

bool known_skyrim_version(float v) {
  auto near = [&](double x) { return std::fabs(double(v) - x) < 0.005; };
  return near(0.94) || near(1.70) || near(1.71);
}

// Skyrim LE and SE share the container; SE is told by HEDR 1.71, the ESL flag, or records saved
// with form version 44 (HEDR 1.70 alone is written by both). This is what the header tells.
bool header_says_se(const FileHeader& h) {
  return std::fabs(h.version - 1.71f) < 0.005f || (h.flags & record_flags::kLight);
}

}  // namespace

// What a walk over one byte range collects besides the entries.
struct LocalStats {
  std::uint64_t groups = 0;
  std::uint64_t records = 0;
  std::uint64_t compressed = 0;
  std::array<std::uint64_t, kMaxGroupType + 1> groups_by_type{};
  std::unordered_map<std::uint32_t, std::uint64_t> by_type;
  std::unordered_map<std::uint16_t, std::uint64_t> form_versions;
  SubrecordStats subrecords;

  // Records come in long runs of one type and form version, so counting a run and flushing it
  // when the value changes keeps hash lookups out of the inner loop.
  Signature run_type;
  std::uint64_t run_count = 0;
  std::uint16_t run_version = 0;
  std::uint64_t run_version_count = 0;

  void count_record(Signature type, std::uint16_t form_version, bool track_versions) {
    if (type != run_type) {
      if (run_count) by_type[run_type.value()] += run_count;
      run_type = type;
      run_count = 0;
    }
    ++run_count;
    if (track_versions) {
      if (form_version != run_version) {
        if (run_version_count) form_versions[run_version] += run_version_count;
        run_version = form_version;
        run_version_count = 0;
      }
      ++run_version_count;
    }
  }
  void flush_runs() {
    if (run_count) by_type[run_type.value()] += run_count;
    if (run_version_count) form_versions[run_version] += run_version_count;
    run_count = run_version_count = 0;
  }
};

namespace {

// The group an item is read in (offset kTopLevel for the file's top level), for messages.
constexpr std::uint64_t kTopLevel = ~std::uint64_t{0};

// Reads and checks one item header at pos, inside a parent that ends at limit.
struct Item {
  Signature type;
  std::uint32_t size;  // record: data size; group: whole size
  std::uint32_t flags;
  std::uint32_t id;
  bool group;
  std::uint64_t total;  // bytes the item occupies
};

class Walker {
 public:
  Walker(const PluginBytes& file, std::span<const std::uint8_t> bytes, Game game)
      : file_(file), bytes_(bytes), game_(game), hs_(header_size(game)) {}

  ErrorContext record_context(std::uint64_t pos, Signature type, std::uint32_t form_id, std::uint64_t available) const {
    RecordRef ref{type, form_id, {}};
    const std::uint64_t body = pos + hs_;
    const std::uint32_t flags = le::u32(bytes_.data() + pos + 8);
    if (!(flags & record_flags::kCompressed) && available > hs_) {
      auto edid = find_editor_id(bytes_.subspan(body, std::size_t(available - hs_)));
      if (edid) ref.editor_id = *edid;
    }
    return ErrorContext{file_.name(), pos, std::move(ref)};
  }

  [[noreturn]] void fail(std::uint64_t pos, const std::string& detail) const {
    throw Error(file_.name(), pos, std::nullopt, detail);
  }

  // Only built when an error is reported: "top group 'CELL' at offset 0x1A2B".
  std::string group_name(std::uint64_t group) const {
    const auto type = le::i32(bytes_.data() + group + 12);
    const auto label = le::u32(bytes_.data() + group + 8);
    return fmt::format("{} group '{}' at offset 0x{:X}", group_type_name(type), describe_group_label(type, label), group);
  }
  std::string describe_parent(std::uint64_t parent) const {
    return parent == kTopLevel ? std::string("at the top level") : "in the " + group_name(parent);
  }
  std::string parent_end(std::uint64_t parent) const {
    return parent == kTopLevel ? std::string("the file") : "its " + group_name(parent);
  }

  Item read_item(std::uint64_t pos, std::uint64_t limit, std::uint64_t parent) const {
    const std::uint8_t* p = bytes_.data() + pos;
    if (limit - pos < hs_) {
      fail(pos, fmt::format("{} left {}; expected a {}-byte group or record header", counted(limit - pos, "byte"),
                            describe_parent(parent), hs_));
    }
    Item it;
    it.type = Signature::from_bytes(p);
    it.size = le::u32(p + 4);
    it.flags = le::u32(p + 8);
    it.id = le::u32(p + 12);
    if (it.type == kGroupSignature) {
      it.group = true;
      it.flags = le::u32(p + 12);  // group type
      it.id = le::u32(p + 8);      // label
      const auto gtype = std::int32_t(it.flags);
      if (gtype < 0 || gtype > kMaxGroupType) {
        fail(pos, fmt::format("group of unknown type {} (label 0x{:08X}); expected a group type from 0 to {}", gtype,
                              it.id, kMaxGroupType));
      }
      if (it.size < hs_) {
        fail(pos, fmt::format("{} group '{}' has size {}, smaller than its own {}-byte header",
                              group_type_name(gtype), describe_group_label(gtype, it.id), it.size, hs_));
      }
      if (it.size > limit - pos) {
        fail(pos, fmt::format("{} group '{}' of size {} runs {} past the end of {}", group_type_name(gtype),
                              describe_group_label(gtype, it.id), it.size, counted(it.size - (limit - pos), "byte"),
                              parent_end(parent)));
      }
      it.total = it.size;
    } else {
      it.group = false;
      if (parent == kTopLevel && it.type.is_record_type_like()) {
        // Every record after TES4 lives in a group.
        record_context(pos, it.type, it.id, limit - pos)
            .fail("record at the top level of the file; expected every record after TES4 to be inside a GRUP");
      }
      if (!it.type.is_record_type_like()) {
        fail(pos, fmt::format("found '{}' {}; expected a record type (four characters A-Z, 0-9, _) or GRUP",
                              it.type.str(), describe_parent(parent)));
      }
      it.total = std::uint64_t(hs_) + it.size;
      if (it.total > limit - pos) {
        record_context(pos, it.type, it.id, limit - pos)
            .fail(fmt::format("record data of {} runs {} past the end of {}", counted(it.size, "byte"),
                              counted(it.total - (limit - pos), "byte"), parent_end(parent)));
      }
    }
    return it;
  }

  // Walks [begin, end), whose items all lie in one parent group (range_parent, the offset of its
  // header) or at the top level (kTopLevel). Appends entries whose parent and end indices are
  // positions in `entries`; items directly in the range get kNoParent.
  void walk(std::uint64_t begin, std::uint64_t end, std::uint64_t range_parent, std::size_t base_depth,
            IndexVector& entries, LocalStats& stats, Inflater* inflater) const {
    struct Open {
      std::uint64_t end;
      std::uint32_t index;
    };
    std::vector<Open> stack;
    std::uint64_t pos = begin;
    const bool tes5 = game_ != Game::Oblivion;
    for (;;) {
      while (!stack.empty() && pos == stack.back().end) {
        entries[stack.back().index].end = std::uint32_t(entries.size());
        stack.pop_back();
      }
      if (stack.empty() && pos == end) break;
      const std::uint64_t limit = stack.empty() ? end : stack.back().end;
      const std::uint64_t parent_at = stack.empty() ? range_parent : entries[stack.back().index].offset;
      const Item it = read_item(pos, limit, parent_at);
      const auto index = std::uint32_t(entries.size());
      const std::uint32_t parent = stack.empty() ? kNoParent : stack.back().index;
      entries.push_back(IndexEntry{pos, it.type, it.size, it.flags, it.id, parent, index + 1});
      if (it.group) {
        if (base_depth + stack.size() + 1 > kMaxDepth) fail(pos, fmt::format("groups nested deeper than {}", kMaxDepth));
        ++stats.groups;
        ++stats.groups_by_type[it.flags];
        stack.push_back(Open{pos + it.size, index});
        pos += hs_;
      } else {
        ++stats.records;
        const std::uint16_t form_version = tes5 ? le::u16(bytes_.data() + pos + 20) : 0;
        stats.count_record(it.type, form_version, tes5);
        if (it.flags & record_flags::kCompressed) ++stats.compressed;
        if (inflater) count_fields(pos, it, stats.subrecords, *inflater);
        pos += it.total;
      }
    }
    stats.flush_runs();
  }

  // Walks [begin, end) as walk() does, every header checked, but keeps only the records that
  // want keeps, each with no parent and with end set to its index + 1 as walk() would number it
  // (the first item inside taking first_index + 1): for finding a few records of a large plugin
  // without an index of the rest. Returns the index of the last item.
  template <class Want>
  std::uint32_t scan(std::uint64_t begin, std::uint64_t end, std::uint64_t range_parent, std::size_t base_depth,
                     std::uint32_t first_index, const Want& want, IndexVector& out) const {
    struct Open {
      std::uint64_t at, end;
    };
    std::vector<Open> stack;
    std::uint64_t pos = begin;
    std::uint32_t index = first_index;
    for (;;) {
      while (!stack.empty() && pos == stack.back().end) stack.pop_back();
      if (stack.empty() && pos == end) break;
      const std::uint64_t limit = stack.empty() ? end : stack.back().end;
      const Item it = read_item(pos, limit, stack.empty() ? range_parent : stack.back().at);
      ++index;
      if (it.group) {
        if (base_depth + stack.size() + 1 > kMaxDepth) fail(pos, fmt::format("groups nested deeper than {}", kMaxDepth));
        stack.push_back(Open{pos, pos + it.size});
        pos += hs_;
      } else {
        const IndexEntry e{pos, it.type, it.size, it.flags, it.id, kNoParent, index + 1};
        if (want(e)) out.push_back(e);
        pos += it.total;
      }
    }
    return index;
  }

  void count_fields(std::uint64_t pos, const Item& it, SubrecordStats& out, Inflater& inflater) const {
    std::span<const std::uint8_t> body = bytes_.subspan(pos + hs_, it.size);
    if (it.flags & record_flags::kCompressed) {
      const ErrorContext ctx = record_context(pos, it.type, it.id, it.total);
      body = inflate_record_body(body, inflater, ctx);
      out.inflated_bytes += body.size();
      SubrecordCount c = count_subrecords(body, ctx);
      out.fields += c.fields;
      out.oversize += c.oversize;
      return;
    }
    // The context (with its EditorID lookup) is only built when something is wrong.
    try {
      static const ErrorContext kPlain{};
      SubrecordCount c = count_subrecords(body, kPlain, pos + hs_);
      out.fields += c.fields;
      out.oversize += c.oversize;
    } catch (const Error& e) {
      throw Error(file_.name(), e.offset(), record_context(pos, it.type, it.id, it.total).record, e.detail());
    }
  }

  std::size_t header_bytes() const { return hs_; }

 private:
  const PluginBytes& file_;
  std::span<const std::uint8_t> bytes_;
  Game game_;
  std::size_t hs_;
};

// The plan for a parallel walk: groups opened by the planner, and byte ranges of sibling items
// that workers index independently.
struct Segment {
  enum Kind { OpenGroup, Range, CloseGroup } kind;
  std::uint64_t begin = 0, end = 0;  // Range: items; OpenGroup: the group's offset and end
  Item group{};                      // OpenGroup
  std::size_t parent = ~std::size_t{0};  // segment index of the enclosing OpenGroup
  std::size_t depth = 0;
  // Filled by the merge.
  std::uint32_t index = 0;  // OpenGroup: final entry index; Range: first entry index
};

// What one worker thread produced: the entries of all its ranges, one after the other.
struct WorkerOutput {
  IndexVector entries;
  LocalStats stats;
};

struct RangeResult {
  unsigned worker = 0;
  std::size_t start = 0, count = 0;  // where in the worker's entries
  std::exception_ptr error;
  std::uint64_t error_offset = ~std::uint64_t{0};
};

class Planner {
 public:
  Planner(const Walker& walker, std::uint64_t chunk) : walker_(walker), chunk_(chunk) {}

  // Splits the items of [begin, end) into ranges of about chunk bytes, opening groups that are
  // larger than a chunk so their contents can be split in turn.
  void plan(std::uint64_t begin, std::uint64_t end, std::size_t parent, std::size_t depth) {
    const bool top = parent == ~std::size_t{0};
    const std::uint64_t parent_at = top ? kTopLevel : segments[parent].begin;
    std::uint64_t run = begin, pos = begin;
    while (pos < end) {
      const Item it = walker_.read_item(pos, end, parent_at);
      if (it.group && it.total > chunk_ && depth + 1 < kMaxDepth) {
        if (pos > run) add_range(run, pos, parent, depth);
        Segment open{Segment::OpenGroup, pos, pos + it.total, it, parent, depth};
        segments.push_back(open);
        const std::size_t slot = segments.size() - 1;
        plan(pos + walker_.header_bytes(), pos + it.total, slot, depth + 1);
        Segment close{Segment::CloseGroup, pos, pos + it.total, it, slot, depth};
        segments.push_back(close);
        pos += it.total;
        run = pos;
      } else {
        pos += it.total;
        if (pos - run >= chunk_) {
          add_range(run, pos, parent, depth);
          run = pos;
        }
      }
    }
    if (pos > run) add_range(run, pos, parent, depth);
  }

  std::vector<Segment> segments;

 private:
  void add_range(std::uint64_t b, std::uint64_t e, std::size_t parent, std::size_t depth) {
    Segment s{Segment::Range, b, e, {}, parent, depth};
    segments.push_back(s);
  }
  const Walker& walker_;
  std::uint64_t chunk_;
};

}  // namespace

FileStart IndexBuilder::read_file_start(PluginBytes& out, const OpenOptions& options) {
  const auto bytes = out.bytes();
  const std::string& name = out.name();
  if (const FileKind kind = file_kind(bytes);
      kind == FileKind::OblivionSave || kind == FileKind::SkyrimSave || kind == FileKind::UnrealSave)
    throw Error(name, 0, std::nullopt, fmt::format("this is {}, not a plugin", file_kind_text(kind)));
  if (bytes.size() < 24) {
    throw Error(name, 0, std::nullopt,
                fmt::format("file of {} is too short for a plugin; expected a TES4 record header and its HEDR field",
                            counted(bytes.size(), "byte")));
  }
  const Signature first = Signature::from_bytes(bytes.data());
  if (first != kHeaderRecord) {
    throw Error(name, 0, std::nullopt,
                fmt::format("file starts with '{}'; expected the TES4 file header record", first.str()));
  }
  // Oblivion's header is 20 bytes, Skyrim's 24: the first field, HEDR, sits right after it.
  Game game;
  if (Signature::from_bytes(bytes.data() + 20) == Signature("HEDR")) {
    game = Game::Oblivion;
  } else if (bytes.size() >= 28 && Signature::from_bytes(bytes.data() + 24) == Signature("HEDR")) {
    game = Game::SkyrimLE;
  } else {
    throw Error(name, 20, std::nullopt,
                "no HEDR field at offset 20 (Oblivion) or 24 (Skyrim); expected HEDR as the first field of TES4");
  }
  if (options.game) {
    if ((*options.game == Game::Oblivion) != (game == Game::Oblivion)) {
      throw Error(name, 0, std::nullopt,
                  fmt::format("asked to read as {}, but the file has {}-byte record headers", game_title(*options.game),
                              header_size(game)));
    }
    game = *options.game;
  }
  const std::size_t hs = header_size(game);
  const RecordHeader h = RecordHeader::read(bytes.data(), game);
  ErrorContext ctx{name, 0, RecordRef{kHeaderRecord, h.form_id, {}}};
  if (h.data_size > bytes.size() - hs) {
    ctx.fail(fmt::format("file header record of {} bytes runs past the end of the {}-byte file", h.data_size,
                         bytes.size()));
  }
  auto fields = read_subrecords(bytes.subspan(hs, h.data_size), ctx, hs);
  out.header_ = FileHeader::decode(h.flags, fields, ctx);
  if (game != Game::Oblivion && !options.game && !known_skyrim_version(out.header_.version)) {
    ctx.fail(fmt::format("HEDR version {:.2f} is not a Skyrim version; expected 0.94, 1.70 or 1.71 "
                         "(24-byte headers are also used by Fallout 3, New Vegas and 4, which tesmod does not read)",
                         out.header_.version));
  }
  out.game_ = game;
  return FileStart{IndexEntry{0, kHeaderRecord, h.data_size, h.flags, h.form_id, kNoParent, 1}, h.form_version,
                   hs + h.data_size};
}

void IndexBuilder::read_file_header() {
  const FileStart start = read_file_start(out_, options_);
  body_start_ = start.body_start;
  out_.entries_.push_back(start.header_entry);
  if (out_.game_ != Game::Oblivion) out_.stats_.form_versions[start.form_version] += 1;
}



void IndexBuilder::build() {
  read_file_header();
  const auto bytes = out_.bytes();
  const Walker walker(out_, bytes, out_.game_);
  const unsigned threads = thread_count(options_.threads);
  const std::uint64_t span = bytes.size() - body_start_;

  // HEDR's count is a hint for sizing the index (capped by what the file could hold).
  const std::uint64_t hinted = std::min<std::uint64_t>(std::uint64_t(std::max(out_.header_.record_count, 0)),
                                                       span / header_size(out_.game_));

  // Indexing alone is bound by memory latency, and splitting it costs a merge: measured on the
  // 255 MB benchmark fixture, two threads were no faster than one. Threads pay off when each
  // record has real work: walking its fields and inflating it.
  if (threads <= 1 || span < (1u << 20) || !options_.count_subrecords) {
    // One thread: walk straight into the index, no merge.
    out_.entries_.reserve(1 + hinted);
    LocalStats local;
    std::unique_ptr<Inflater> inflater;
    if (options_.count_subrecords) inflater = std::make_unique<Inflater>();
    if (span > 0) walker.walk(body_start_, bytes.size(), kTopLevel, 0, out_.entries_, local, inflater.get());
    add_stats(local);
    finish();
    return;
  }

  // Ranges of ~1/16 of a thread's share, so that the workers stay balanced even though record
  // sizes and compression vary a lot.
  std::vector<Segment> segments;
  std::exception_ptr plan_error;
  std::uint64_t plan_error_offset = ~std::uint64_t{0};
  {
    Planner planner(walker, std::max<std::uint64_t>(span / (threads * 32), 64 * 1024));
    try {
      planner.plan(body_start_, bytes.size(), ~std::size_t{0}, 0);
    } catch (const Error& e) {
      // Index what comes before the error, so the reported error is the first in file order
      // whatever the thread count.
      plan_error = std::current_exception();
      plan_error_offset = e.offset();
    }
    segments = std::move(planner.segments);
  }

  std::vector<std::size_t> ranges;
  for (std::size_t i = 0; i < segments.size(); ++i)
    if (segments[i].kind == Segment::Range) ranges.push_back(i);
  std::vector<RangeResult> results(ranges.size());
  const unsigned workers = std::min<unsigned>(threads, unsigned(std::max<std::size_t>(ranges.size(), 1)));
  std::vector<WorkerOutput> outputs(workers);
  std::atomic<std::size_t> next{0};
  auto work = [&](unsigned w) {
    WorkerOutput& out = outputs[w];
    out.entries.reserve(std::size_t(hinted / workers * 23 / 20 + 1024));
    std::unique_ptr<Inflater> inflater;
    if (options_.count_subrecords) inflater = std::make_unique<Inflater>();
    for (;;) {
      const std::size_t k = next.fetch_add(1);
      if (k >= ranges.size()) break;
      const Segment& s = segments[ranges[k]];
      RangeResult& r = results[k];
      r.worker = w;
      r.start = out.entries.size();
      try {
        const std::uint64_t parent_at = s.parent == ~std::size_t{0} ? kTopLevel : segments[s.parent].begin;
        walker.walk(s.begin, s.end, parent_at, s.depth, out.entries, out.stats, inflater.get());
      } catch (const Error& e) {
        r.error = std::current_exception();
        r.error_offset = e.offset();
      } catch (...) {
        r.error = std::current_exception();
        r.error_offset = s.begin;
      }
      r.count = out.entries.size() - r.start;
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < workers; ++t) pool.emplace_back(work, t);
    work(0);
  }

  // The first error in file order wins.
  std::exception_ptr error = plan_error;
  std::uint64_t error_offset = plan_error_offset;
  for (const RangeResult& r : results) {
    if (r.error && (!error || r.error_offset < error_offset)) {
      error = r.error;
      error_offset = r.error_offset;
    }
  }
  if (error) std::rethrow_exception(error);

  // Merge: give every planned group and range its place, then copy the ranges' entries with
  // their local indices made global.
  std::uint32_t count = 1;  // the TES4 record
  std::vector<std::uint32_t> close_at(segments.size(), 0);
  for (std::size_t i = 0, k = 0; i < segments.size(); ++i) {
    Segment& s = segments[i];
    if (s.kind == Segment::OpenGroup) {
      s.index = count++;
    } else if (s.kind == Segment::Range) {
      s.index = count;
      const std::size_t n = results[k++].count;
      if (n > std::size_t(kNoParent - 1) - count) throw Error(out_.name(), s.begin, std::nullopt, "more than 4 billion groups and records");
      count += std::uint32_t(n);
    } else {
      close_at[i] = count;
    }
  }
  auto& entries = out_.entries_;
  entries.resize(count);
  auto parent_of = [&](const Segment& s) { return s.parent == ~std::size_t{0} ? kNoParent : segments[s.parent].index; };
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const Segment& s = segments[i];
    if (s.kind == Segment::OpenGroup) {
      entries[s.index] = IndexEntry{s.begin, kGroupSignature, s.group.size, s.group.flags, s.group.id, parent_of(s), 0};
    } else if (s.kind == Segment::CloseGroup) {
      entries[segments[s.parent].index].end = close_at[i];
    }
  }
  std::atomic<std::size_t> next_copy{0};
  auto copy = [&] {
    for (;;) {
      const std::size_t k = next_copy.fetch_add(1);
      if (k >= ranges.size()) break;
      const Segment& s = segments[ranges[k]];
      const RangeResult& r = results[k];
      // Worker-local indices become global: shift by (base - start).
      const std::uint32_t base = s.index, parent = parent_of(s), start = std::uint32_t(r.start);
      const IndexEntry* src = outputs[r.worker].entries.data() + r.start;
      IndexEntry* dst = entries.data() + base;
      for (std::size_t i = 0; i < r.count; ++i) {
        IndexEntry g = src[i];
        g.parent = g.parent == kNoParent ? parent : g.parent - start + base;
        g.end = g.end - start + base;
        dst[i] = g;
      }
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < workers; ++t) pool.emplace_back(copy);
    copy();
  }

  for (const Segment& s : segments) {
    if (s.kind == Segment::OpenGroup) {
      ++out_.stats_.groups;
      ++out_.stats_.groups_by_type[std::int32_t(s.group.flags)];
    }
  }
  for (const WorkerOutput& o : outputs) add_stats(o.stats);
  finish();
}

void IndexBuilder::add_stats(const LocalStats& local) {
  PluginStats& st = out_.stats_;
  st.groups += local.groups;
  st.records += local.records;
  st.compressed += local.compressed;
  for (std::size_t t = 0; t < local.groups_by_type.size(); ++t)
    if (local.groups_by_type[t]) st.groups_by_type[std::int32_t(t)] += local.groups_by_type[t];
  for (const auto& [type, n] : local.by_type) st.records_by_type[Signature::from_value(type)] += n;
  for (const auto& [v, n] : local.form_versions) st.form_versions[v] += n;
  sub_.fields += local.subrecords.fields;
  sub_.oversize += local.subrecords.oversize;
  sub_.inflated_bytes += local.subrecords.inflated_bytes;
}

void IndexBuilder::finish() {
  PluginStats& st = out_.stats_;
  const auto bytes = out_.bytes();
  if (options_.count_subrecords) {
    // The TES4 record's own fields count too.
    const auto hs = header_size(out_.game_);
    SubrecordCount c = count_subrecords(bytes.subspan(hs, out_.entries_[0].size), ErrorContext{out_.name(), 0, std::nullopt}, hs);
    sub_.fields += c.fields;
    sub_.oversize += c.oversize;
    st.subrecords = sub_;
  }

  // LE or SE: the header, else any record saved with form version 44.
  if (out_.game_ == Game::SkyrimLE && !options_.game) {
    const bool fv44 = !st.form_versions.empty() && st.form_versions.rbegin()->first >= 44;
    if (header_says_se(out_.header_) || fv44) out_.game_ = Game::SkyrimSE;
  }
}

void IndexBuilder::outline(PluginOutline& out, const OpenOptions& options) {
  const FileStart start = read_file_start(out, options);
  const auto bytes = out.bytes();
  const Walker walker(out, bytes, out.game_);
  // Only the top level: each item is checked (a group, of a known type, inside the file) and
  // stepped over.
  for (std::uint64_t pos = start.body_start; pos < bytes.size();) {
    const Item it = walker.read_item(pos, bytes.size(), kTopLevel);
    const auto index = std::uint32_t(out.top_.size());
    out.top_.push_back(IndexEntry{pos, it.type, it.size, it.flags, it.id, kNoParent, index + 1});
    pos += it.total;
  }
  out.groups_.resize(out.top_.size());
  if (out.game_ == Game::SkyrimLE && !options.game) {
    // What the header alone tells; the records' form versions decide the rest (see finish()).
    if (header_says_se(out.header_)) out.game_ = Game::SkyrimSE;
    else out.game_known_ = false;
  }
}

FoundRecords IndexBuilder::find_records(const PluginBytes& file, const IndexEntry& group, std::uint64_t begin,
                                        std::uint64_t end, const RecordWanted& want) {
  const Walker walker(file, file.bytes(), file.game_);
  FoundRecords out;
  // Numbered as if the run's first item followed a group header at 0.
  out.entries = walker.scan(begin, end, group.offset, 1, 0, want, out.records);
  return out;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> IndexBuilder::split_group(const PluginBytes& file,
                                                                               const IndexEntry& group,
                                                                               std::uint64_t piece) {
  const auto bytes = file.bytes();
  const std::uint64_t hs = file.header_size();
  const std::uint64_t end = group.offset + group.size;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs;
  std::uint64_t run = group.offset + hs;
  // Steps over the direct children by their sizes, unchecked: at a header that does not read
  // the split ends there, and the walk of the last run meets it (and reports it in file order).
  for (std::uint64_t pos = run; pos < end;) {
    if (end - pos < hs) break;
    const bool is_group = Signature::from_bytes(bytes.data() + pos) == kGroupSignature;
    const std::uint64_t size = le::u32(bytes.data() + pos + 4);
    const std::uint64_t total = is_group ? size : hs + size;
    if (total < hs || total > end - pos) break;
    pos += total;
    if (pos - run >= piece && pos < end) {
      runs.emplace_back(run, pos);
      run = pos;
    }
  }
  runs.emplace_back(run, end);
  return runs;
}

IndexVector IndexBuilder::index_group(const PluginBytes& file, const IndexEntry& group) {
  const auto bytes = file.bytes();
  const Walker walker(file, bytes, file.game_);
  IndexVector entries;
  entries.push_back(IndexEntry{group.offset, group.type, group.size, group.flags, group.id, kNoParent, 0});
  LocalStats stats;
  walker.walk(group.offset + file.header_size(), group.offset + group.size, group.offset, 1, entries, stats, nullptr);
  // The walk leaves the range's own items without a parent: here that is the group.
  for (std::size_t i = 1; i < entries.size(); ++i)
    if (entries[i].parent == kNoParent) entries[i].parent = 0;
  entries[0].end = std::uint32_t(entries.size());
  return entries;
}

}  // namespace tesmod
