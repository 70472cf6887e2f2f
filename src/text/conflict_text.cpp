#include "tesmod/text/conflict_text.hpp"

#include <map>
#include <mutex>

#include "tesmod/plugin/record_flags.hpp"
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

// A version's text split into rows: key (signature and occurrence) -> value.
struct Rows {
  std::vector<std::string> order;  // keys in first-seen order
  std::map<std::string, std::string> values;
};

std::string flags_text(Signature type, std::uint32_t flags, Game game) {
  std::string out;
  for (const std::string& name : record_flags::names(type, flags & ~record_flags::kCompressed, game)) {
    if (!out.empty()) out += '|';
    out += name;
  }
  return out.empty() ? "0" : out;
}

Rows split_rows(std::string_view text, const std::string& flags) {
  Rows rows;
  rows.order.push_back("flags");
  rows.values["flags"] = flags;
  std::map<std::string, int> seen;
  std::string* open = nullptr;  // the row a block's inner lines belong to
  std::size_t pos = text.find('\n');  // the header line is not a row
  pos = pos == std::string_view::npos ? text.size() : pos + 1;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    std::size_t indent = 0;
    while (indent < line.size() && line[indent] == ' ') ++indent;
    std::string_view body = line.substr(indent);
    if (body.empty()) continue;
    if (indent > 2 || body == "}") {  // inside a VMAD or package block
      if (open) {
        *open += '\n';
        *open += line.substr(std::min<std::size_t>(indent, 2));
      }
      continue;
    }
    const std::size_t space = body.find(' ');
    const std::string sig(body.substr(0, space));
    if (sig == "XXXX" || sig == "zlib-stored") {  // storage, not content
      open = nullptr;
      continue;
    }
    const std::string key = sig + "#" + std::to_string(seen[sig]++);
    rows.order.push_back(key);
    std::string& value = rows.values[key];
    value = space == std::string_view::npos ? std::string() : std::string(body.substr(space + 1));
    open = &value;
  }
  return rows;
}

}  // namespace

std::vector<FieldDifference> conflict_fields(const loadorder::LoadOrder& order, const loadorder::ConflictRecord& record,
                                             const LoadOrderNamers& namers, const TextCodec& codec, Inflater& inflater) {
  std::vector<Rows> versions;
  for (const loadorder::ConflictVersion& v : record.versions) {
    const PluginBytes& bytes = order.bytes(v.version.plugin);
    const loadorder::LoadOrderPlugin& plugin = order.plugin(v.version.plugin);
    RecordTextOptions options;
    options.game = order.game();
    options.namer = &namers.for_plugin(v.version.plugin);
    options.codec = &codec;
    options.localized = order.game() != Game::Oblivion && plugin.header.is_localized();
    std::string text;
    const RecordHeader header = bytes.record_header(v.version.entry);
    append_record_text(text, header, bytes.stored_body(v.version.entry), options, inflater);
    versions.push_back(split_rows(text, flags_text(header.type, header.flags, order.game())));
  }
  std::vector<std::string> keys;
  std::map<std::string, bool> listed;
  for (const Rows& r : versions)
    for (const std::string& k : r.order)
      if (!listed[k]) {
        listed[k] = true;
        keys.push_back(k);
      }
  std::vector<FieldDifference> out;
  for (const std::string& k : keys) {
    FieldDifference d;
    d.field = k.substr(0, k.find('#'));
    bool differs = false;
    for (const Rows& r : versions) {
      auto it = r.values.find(k);
      d.values.push_back(it == r.values.end() ? std::nullopt : std::optional<std::string>(it->second));
      if (d.values.back() != d.values.front()) differs = true;
    }
    if (differs) out.push_back(std::move(d));
  }
  return out;
}

}  // namespace tesmod::text
