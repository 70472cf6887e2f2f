#include "tesmod/text/conflict_text.hpp"

#include <algorithm>
#include <mutex>

#include "tesmod/plugin/field.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "tesmod/fields/field_layout.hpp"
#include "tesmod/text/field_text.hpp"
#include "tesmod/text/record_text.hpp"
#include "tesmod/text/text_namer.hpp"

namespace tesmod::text {

struct LoadOrderNamers::Impl {
  const loadorder::LoadOrder& order;
  std::vector<std::unique_ptr<TextNamer>> namers;
  std::vector<std::once_flag> made;
  explicit Impl(const loadorder::LoadOrder& o) : order(o), namers(o.plugins().size()), made(o.plugins().size()) {}
};

LoadOrderNamers::LoadOrderNamers(const loadorder::LoadOrder& order) : impl_(std::make_unique<Impl>(order)) {}
LoadOrderNamers::~LoadOrderNamers() = default;

const FormNamer& LoadOrderNamers::for_plugin(std::uint32_t position) const {
  std::call_once(impl_->made[position], [&] {
    const loadorder::LoadOrderPlugin& p = impl_->order.plugin(position);
    std::vector<std::string> files;
    for (std::size_t k = 0; k < p.masters.size(); ++k)
      files.push_back(p.master_positions[k] ? impl_->order.plugin(*p.master_positions[k]).name : p.masters[k]);
    files.push_back(p.name);
    auto namer = std::make_unique<TextNamer>(std::move(files));
    namer->finish();
    impl_->namers[position] = std::move(namer);
  });
  return *impl_->namers[position];
}

namespace {

// A version's text split into rows, in order: the key (signature and occurrence: "CNTO" and 1
// for the second CNTO) and the text after the signature.
struct Row {
  std::string_view field;
  int occurrence = 0;
  std::string value;
};

std::string flags_text(Signature type, std::uint32_t flags, Game game) {
  std::string out;
  for (const std::string& name : record_flags::names(type, flags & ~record_flags::kCompressed, game)) {
    if (!out.empty()) out += '|';
    out += name;
  }
  return out.empty() ? "0" : out;
}

// text must outlive the rows (their fields view it). With header, its first line (the record's
// header line) is not a row.
std::vector<Row> split_rows(std::string_view text, std::string flags, bool header = true) {
  std::vector<Row> rows;
  rows.push_back({"flags", 0, std::move(flags)});
  std::size_t pos = 0;
  if (header) {
    pos = text.find('\n');
    pos = pos == std::string_view::npos ? text.size() : pos + 1;
  }
  bool open = false;  // the last row may take a block's inner lines
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    std::size_t indent = 0;
    while (indent < line.size() && line[indent] == ' ') ++indent;
    const std::string_view body = line.substr(indent);
    if (body.empty()) continue;
    if (indent > 2 || body == "}") {  // inside a VMAD or package block
      if (open) {
        rows.back().value += '\n';
        rows.back().value += line.substr(std::min<std::size_t>(indent, 2));
      }
      continue;
    }
    const std::size_t space = body.find(' ');
    const std::string_view sig = body.substr(0, space);
    if (sig == "XXXX" || sig == "zlib-stored") {  // storage, not content
      open = false;
      continue;
    }
    int occurrence = 0;
    for (const Row& r : rows) occurrence += r.field == sig;
    rows.push_back({sig, occurrence, space == std::string_view::npos ? std::string() : std::string(body.substr(space + 1))});
    open = true;
  }
  return rows;
}

}  // namespace

namespace {

// A field, or a condition with the CIS1/CIS2 after it: what one row of a record's text shows.
struct Unit {
  Signature type;
  int occurrence = 0;       // among the units of this type
  std::size_t first = 0, last = 0;  // field indices
};

// Fields whose text depends on others around them: a Skyrim package's fields after EDID and
// VMAD are one block, an Oblivion package's PKDT/PLDT/PSDT/PTDT and conditions too, and a
// script's source reads with its compiled fields. A record where one of these differs is
// written whole.
bool needs_whole_record(Signature record, Signature field) {
  static constexpr Signature kScript[] = {"SCHR", "SCDA", "SCTX", "SLSD", "SCVR", "SCRO", "SCRV"};
  if (record == Signature("PACK") && field != Signature("EDID") && field != Signature("VMAD")) return true;
  return std::find(std::begin(kScript), std::end(kScript), field) != std::end(kScript);
}

std::vector<Unit> units_of(std::span<const SubrecordView> fields) {
  std::vector<Unit> out;
  for (std::size_t i = 0; i < fields.size();) {
    std::size_t last = i + 1;
    if (fields[i].type == Signature("CTDA") || fields[i].type == Signature("CTDT"))
      while (last < fields.size() && (fields[last].type == Signature("CIS1") || fields[last].type == Signature("CIS2")))
        ++last;
    int occurrence = 0;
    for (const Unit& u : out) occurrence += u.type == fields[i].type;
    out.push_back({fields[i].type, occurrence, i, last});
    i = last;
  }
  return out;
}

bool same_unit(std::span<const SubrecordView> a, const Unit& ua, std::span<const SubrecordView> b, const Unit& ub) {
  if (ua.last - ua.first != ub.last - ub.first) return false;
  for (std::size_t k = 0; k < ua.last - ua.first; ++k) {
    const SubrecordView& x = a[ua.first + k];
    const SubrecordView& y = b[ub.first + k];
    if (x.type != y.type || !std::ranges::equal(x.data, y.data)) return false;
  }
  return true;
}

// The text export writes after the signature of a plain field that has at most one layout
// (most fields), without setting up a whole record writer; nullopt for anything else (conditions,
// VMAD, script sources, fields with several layouts or a layout with conditions or walked bytes,
// size prefixes), which append_fields_text
// writes.
std::optional<std::string> plain_field_text(Game game, Signature record, std::span<const SubrecordView> fields,
                                            const Unit& unit, const RecordTextOptions& options) {
  if (unit.last != unit.first + 1) return std::nullopt;
  const SubrecordView& f = fields[unit.first];
  const bool skyrim = game != Game::Oblivion;
  if (f.oversize || f.type == Signature("CTDA") || f.type == Signature("CTDT") || record == Signature("PACK") ||
      (skyrim && f.type == Signature("VMAD")) || (!skyrim && f.type == Signature("SCTX")))
    return std::nullopt;
  if (f.data.empty()) return std::string();
  const auto layouts = fields::layout_table(game).find(record, f.type);
  if (layouts.size() > 1 || (layouts.size() == 1 && (!layouts[0]->simple || !layouts[0]->conditions.empty())))
    return std::nullopt;
  std::string out;
  if (layouts.size() == 1) {
    FieldTextContext context;
    context.namer = options.namer;
    context.codec = options.codec;
    context.localized = options.localized;
    if (append_layout_value(out, *layouts[0], f.data, context)) return out;
    out.clear();
  }
  out = "hex ";
  append_hex(out, f.data);
  return out;
}

}  // namespace

std::vector<FieldDifference> conflict_fields(const loadorder::LoadOrder& order, const loadorder::ConflictRecord& record,
                                             const LoadOrderNamers& namers, const TextCodec& codec, Inflater& inflater) {
  const std::size_t n = record.versions.size();
  // Each version's fields.
  std::vector<std::vector<std::uint8_t>> bodies(n);
  std::vector<std::vector<SubrecordView>> fields(n);
  std::vector<std::vector<Unit>> units(n);
  std::vector<RecordHeader> headers(n);
  for (std::size_t v = 0; v < n; ++v) {
    const loadorder::RecordVersion& version = record.versions[v].version;
    const PluginBytes& bytes = order.bytes(version.plugin);
    headers[v] = bytes.record_header(version.entry);
    std::span<const std::uint8_t> body = bytes.stored_body(version.entry);
    if (version.entry.is_compressed()) {  // the inflater's buffer is reused: keep a copy
      const auto inflated = bytes.body(version.entry, inflater);
      bodies[v].assign(inflated.begin(), inflated.end());
      body = bodies[v];
    }
    const ErrorContext where{bytes.name(), version.entry.offset, RecordRef{version.entry.type, version.entry.id, {}}};
    fields[v] = read_subrecords(body, where);
    units[v] = units_of(fields[v]);
  }
  auto options_for = [&](std::size_t v) {
    const loadorder::LoadOrderPlugin& plugin = order.plugin(record.versions[v].version.plugin);
    RecordTextOptions options;
    options.game = order.game();
    options.namer = &namers.for_plugin(record.versions[v].version.plugin);
    options.codec = &codec;
    options.localized = order.game() != Game::Oblivion && plugin.header.is_localized();
    return options;
  };

  // The units whose bytes are not the same in every version, in the order they first appear.
  std::vector<std::pair<Signature, int>> keys;
  for (const auto& list : units)
    for (const Unit& u : list)
      if (std::find(keys.begin(), keys.end(), std::pair(u.type, u.occurrence)) == keys.end())
        keys.emplace_back(u.type, u.occurrence);
  auto find_unit = [&](std::size_t v, Signature type, int occurrence) -> const Unit* {
    for (const Unit& u : units[v])
      if (u.type == type && u.occurrence == occurrence) return &u;
    return nullptr;
  };
  std::vector<std::pair<Signature, int>> differing;
  bool whole = false;
  for (const auto& [type, occurrence] : keys) {
    const Unit* first = find_unit(0, type, occurrence);
    bool differs = false;
    for (std::size_t v = 1; v < n && !differs; ++v) {
      const Unit* u = find_unit(v, type, occurrence);
      differs = !first || !u || !same_unit(fields[0], *first, fields[v], *u);
    }
    if (!differs) continue;
    differing.emplace_back(type, occurrence);
    whole = whole || needs_whole_record(record.type, type);
  }

  std::vector<FieldDifference> out;
  const auto flags_of = [&](std::size_t v) { return flags_text(headers[v].type, headers[v].flags, order.game()); };
  {
    FieldDifference d;
    d.field = "flags";
    bool differs = false;
    for (std::size_t v = 0; v < n; ++v) {
      d.values.push_back(flags_of(v));
      differs = differs || d.values.back() != d.values.front();
    }
    if (differs) out.push_back(std::move(d));
  }
  if (whole) {
    // Every version written whole, its rows matched by type and occurrence.
    std::vector<std::string> texts(n);
    std::vector<std::vector<Row>> rows(n);
    for (std::size_t v = 0; v < n; ++v) {
      const loadorder::RecordVersion& version = record.versions[v].version;
      const PluginBytes& bytes = order.bytes(version.plugin);
      append_record_text(texts[v], headers[v], bytes.stored_body(version.entry), options_for(v), inflater);
      rows[v] = split_rows(texts[v], std::string());
    }
    std::vector<std::pair<std::string_view, int>> row_keys;
    for (const auto& list : rows)
      for (std::size_t r = 1; r < list.size(); ++r)  // row 0: the flags, done above
        if (std::find(row_keys.begin(), row_keys.end(), std::pair(list[r].field, list[r].occurrence)) == row_keys.end())
          row_keys.emplace_back(list[r].field, list[r].occurrence);
    for (const auto& key : row_keys) {
      // Not a structured binding: clang before 16 (the fuzz builds) cannot capture one.
      const auto& [field, occurrence] = key;
      FieldDifference d;
      bool differs = false;
      for (const auto& list : rows) {
        const auto it = std::find_if(list.begin() + 1, list.end(),
                                     [&](const Row& r) { return r.field == key.first && r.occurrence == key.second; });
        d.values.push_back(it == list.end() ? std::nullopt : std::optional<std::string>(it->value));
        differs = differs || d.values.back() != d.values.front();
      }
      if (!differs) continue;
      d.field = std::string(field);
      out.push_back(std::move(d));
    }
    return out;
  }
  // Only the differing units, each written alone as export writes it.
  for (const auto& [type, occurrence] : differing) {
    FieldDifference d;
    d.field = type.str();
    for (std::size_t v = 0; v < n; ++v) {
      const Unit* u = find_unit(v, type, occurrence);
      if (!u) {
        d.values.push_back(std::nullopt);
        continue;
      }
      const RecordTextOptions options = options_for(v);
      if (auto plain = plain_field_text(order.game(), record.type, fields[v], *u, options)) {
        d.values.push_back(std::move(*plain));
        continue;
      }
      std::string text;
      append_fields_text(text, headers[v], std::span(fields[v]).subspan(u->first, u->last - u->first), options);
      const std::vector<Row> rows = split_rows(text, std::string(), false);
      d.values.push_back(rows.size() > 1 ? std::optional<std::string>(rows[1].value) : std::optional<std::string>(""));
    }
    // Bytes that differ can read the same (one form under two master lists): no row then.
    if (std::all_of(d.values.begin(), d.values.end(), [&](const auto& x) { return x == d.values.front(); })) continue;
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace tesmod::text
