#include "tesmod/plugin/plugin.hpp"

#include <fmt/format.h>

#include "plugin_writer.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod {

namespace {
// The header's HEDR: the first one, as FileHeader::decode reads it (a repeat is another field).
Field* first_hedr(std::vector<Field>& fields) {
  for (Field& f : fields) {
    if (f.type == Signature("HEDR")) return f.data.size() == 12 ? &f : nullptr;
  }
  return nullptr;
}
}  // namespace

Group::Group() = default;
Group::Group(const GroupHeader& h) : header(h) {}
Group::Group(Group&&) noexcept = default;
Group& Group::operator=(Group&&) noexcept = default;
Group::~Group() = default;

Group Group::top(Signature record_type) {
  GroupHeader h;
  h.label = record_type.value();
  h.type = 0;
  return Group(h);
}

Plugin Plugin::create(Game game, std::string name) {
  Plugin p;
  p.game_ = game;
  p.name_ = std::move(name);
  std::vector<std::uint8_t> hedr(12);
  // New plugins: HEDR 1.0 (Oblivion) or 1.70 (Skyrim, which every Skyrim runtime accepts);
  // object ids below 0x800 are reserved for the engine.
  le::store(hedr.data(), game == Game::Oblivion ? 1.0f : 1.7f);
  le::store(hedr.data() + 4, std::int32_t{0});
  le::store(hedr.data() + 8, std::uint32_t{0x800});
  std::vector<Field> fields{Field::bytes(Signature("HEDR"), hedr), Field::zstring(Signature("CNAM"), "DEFAULT")};
  p.header_ = Record(kHeaderRecord, 0, std::move(fields), 0);
  if (game != Game::Oblivion) p.header_.set_form_version(game == Game::SkyrimSE ? 44 : 43);
  return p;
}

Plugin Plugin::open(const std::filesystem::path& path, const OpenOptions& options) {
  return from_file(PluginFile::open(path, options));
}

Plugin Plugin::from_file(const PluginFile& file) {
  Plugin p;
  p.game_ = file.game();
  p.name_ = file.name();
  p.source_ = file.file_bytes();
  const FileBytes* src = p.source_.get();
  const auto hs = std::uint8_t(file.header_size());
  auto entries = file.entries();
  p.header_ = Record(file.record_header(entries[0]), file.stored_body(entries[0]), src, hs);

  // Entries are in file order with each group's extent known, so a stack of open groups
  // rebuilds the tree in one pass.
  std::vector<std::pair<Group*, std::uint32_t>> open;  // group, index past its last descendant
  for (std::uint32_t i = 1; i < entries.size(); ++i) {
    while (!open.empty() && open.back().second == i) open.pop_back();
    std::vector<Node>& into = open.empty() ? p.top_ : open.back().first->children;
    const IndexEntry& e = entries[i];
    if (e.is_group()) {
      into.emplace_back(Group(file.group_header(e)));
      open.emplace_back(&into.back().group(), e.end);
    } else {
      into.emplace_back(Record(file.record_header(e), file.stored_body(e), src, hs));
    }
  }
  p.loaded_items_ = entries.size() - 1;
  p.loaded_count_was_right_ = std::uint64_t(std::int64_t(file.header().record_count)) == p.loaded_items_;
  return p;
}

FileHeader Plugin::header() const {
  return FileHeader::decode(header_.flags(), field_views(header_.fields()), header_.context());
}

void Plugin::set_author(std::string_view text) { header_.set(Field::zstring(Signature("CNAM"), text)); }

void Plugin::set_description(std::string_view text) {
  auto& fs = header_.edit_fields();
  for (Field& f : fs) {
    if (f.type == Signature("SNAM")) {
      f = Field::zstring(Signature("SNAM"), text);
      return;
    }
  }
  // SNAM follows CNAM.
  auto at = fs.begin();
  for (auto it = fs.begin(); it != fs.end(); ++it)
    if (it->type == Signature("CNAM") || it->type == Signature("HEDR")) at = it + 1;
  fs.insert(at, Field::zstring(Signature("SNAM"), text));
}

void Plugin::rename_master(std::size_t index, std::string_view name) {
  std::size_t seen = 0;
  for (Field& f : header_.edit_fields()) {
    if (f.type == Signature("MAST") && seen++ == index) {
      f = Field::zstring(Signature("MAST"), name);
      return;
    }
  }
  throw Error(name_, Error::kNoOffset, std::nullopt,
              fmt::format("no master with index {} (the plugin has {})", index, seen));
}

namespace {

std::uint32_t remap_form_id(std::uint32_t id, std::span<const std::uint32_t> old_to_new) {
  const std::uint32_t index = id >> 24;
  // Indices past the own index all belong to the plugin itself.
  const std::uint32_t mapped = index < old_to_new.size() ? old_to_new[index] : old_to_new.back();
  return (mapped << 24) | (id & 0x00FFFFFF);
}

void remap_nodes(std::vector<Node>& nodes, std::span<const std::uint32_t> old_to_new) {
  for (Node& n : nodes) {
    if (n.is_group()) {
      Group& g = n.group();
      if (g.type() == 1 || (g.type() >= 6 && g.type() <= 10)) g.header.label = remap_form_id(g.header.label, old_to_new);
      remap_nodes(g.children, old_to_new);
    } else {
      Record& r = n.record();
      r.set_form_id(remap_form_id(r.form_id(), old_to_new));
    }
  }
}

}  // namespace

void Plugin::set_masters(const std::vector<MasterFile>& masters, std::span<const std::uint32_t> old_to_new) {
  const std::size_t old_count = header().masters.size();
  if (old_to_new.size() != old_count + 1) {
    throw Error(name_, Error::kNoOffset, std::nullopt,
                fmt::format("master remap has {} entries; expected {} (one per old master, then the plugin itself)",
                            old_to_new.size(), old_count + 1));
  }
  for (std::uint32_t v : old_to_new) {
    if (v > masters.size()) {
      throw Error(name_, Error::kNoOffset, std::nullopt,
                  fmt::format("master remap target {} is past the new list of {} masters", v, masters.size()));
    }
  }
  auto& fs = header_.edit_fields();
  std::size_t insert_at = fs.size();
  std::vector<Field> kept;
  for (std::size_t i = 0; i < fs.size(); ++i) {
    const bool mast = fs[i].type == Signature("MAST");
    const bool its_data = fs[i].type == Signature("DATA") && i > 0 && fs[i - 1].type == Signature("MAST");
    if (mast || its_data) {
      if (insert_at == fs.size()) insert_at = kept.size();
      continue;
    }
    if (insert_at == fs.size() && (fs[i].type == Signature("ONAM") || fs[i].type == Signature("INTV") ||
                                   fs[i].type == Signature("INCC") || fs[i].type == Signature("SCRN")))
      insert_at = kept.size();
    kept.push_back(std::move(fs[i]));
  }
  if (insert_at > kept.size()) insert_at = kept.size();
  std::vector<Field> block;
  for (const MasterFile& m : masters) {
    block.push_back(Field::zstring(Signature("MAST"), m.name));
    std::vector<std::uint8_t> data(8);
    le::store(data.data(), m.data.value_or(0));
    block.push_back(Field::bytes(Signature("DATA"), data));
  }
  kept.insert(kept.begin() + std::ptrdiff_t(insert_at), block.begin(), block.end());
  fs = std::move(kept);
  remap_nodes(top_, old_to_new);
}

namespace {

const Record* find_in(const std::vector<Node>& nodes, std::uint32_t form_id) {
  for (const Node& n : nodes) {
    if (n.is_group()) {
      if (const Record* r = find_in(n.group().children, form_id)) return r;
    } else if (n.record().form_id() == form_id) {
      return &n.record();
    }
  }
  return nullptr;
}

bool remove_in(std::vector<Node>& nodes, std::uint32_t form_id) {
  for (auto it = nodes.begin(); it != nodes.end(); ++it) {
    if (it->is_group()) {
      if (remove_in(it->group().children, form_id)) return true;
    } else if (it->record().form_id() == form_id) {
      nodes.erase(it);
      return true;
    }
  }
  return false;
}

std::uint64_t count_in(const std::vector<Node>& nodes) {
  std::uint64_t n = 0;
  for (const Node& node : nodes) n += 1 + (node.is_group() ? count_in(node.group().children) : 0);
  return n;
}

}  // namespace

Record* Plugin::find(std::uint32_t form_id) { return const_cast<Record*>(find_in(top_, form_id)); }
const Record* Plugin::find(std::uint32_t form_id) const { return find_in(top_, form_id); }

Group& Plugin::top_group(Signature record_type) {
  for (Node& n : top_)
    if (n.is_group() && n.group().type() == 0 && n.group().label() == record_type.value()) return n.group();
  top_.emplace_back(Group::top(record_type));
  return top_.back().group();
}

Record& Plugin::add(Record record) {
  static const Signature kNested[] = {"REFR", "ACHR", "ACRE", "PGRE", "PMIS", "PHZD", "PARW", "PBAR", "PBEA",
                                      "PCON", "PFLA", "NAVM", "LAND", "PGRD", "INFO", "ROAD", "CELL"};
  for (Signature s : kNested) {
    if (record.type() == s) {
      throw Error(name_, Error::kNoOffset, RecordRef{record.type(), record.form_id(), {}},
                  "records of this type live inside cell, world or topic groups; add it to that group instead");
    }
  }
  if (game_ != Game::Oblivion && record.header().form_version == 0) {
    record.set_form_version(game_ == Game::SkyrimSE ? 44 : 43);
  }
  Group& g = top_group(record.type());
  g.children.emplace_back(std::move(record));
  return g.children.back().record();
}

bool Plugin::remove(std::uint32_t form_id) { return remove_in(top_, form_id); }

std::uint32_t Plugin::allocate_form_id() {
  FileHeader h = header();
  const std::uint32_t next = std::max<std::uint32_t>(h.next_object_id, 0x800);
  if (next > 0x00FFFFFF) throw Error(name_, Error::kNoOffset, std::nullopt, "no object ids left (next object id past 0xFFFFFF)");
  if (Field* hedr = first_hedr(header_.edit_fields())) le::store(hedr->data.data() + 8, next + 1);
  return std::uint32_t(h.masters.size()) << 24 | next;
}

std::uint64_t Plugin::count_items() const { return count_in(top_); }

void Plugin::update_record_count() {
  const std::uint64_t items = count_items();
  if (items == loaded_items_ && !loaded_count_was_right_) return;
  if (items > 0x7FFFFFFF) throw Error(name_, Error::kNoOffset, std::nullopt, "more items than HEDR can count");
  const Field* hedr = header_.find(Signature("HEDR"));
  if (!hedr || hedr->data.size() != 12) return;
  if (le::i32(hedr->data.data() + 4) == std::int32_t(items)) return;
  if (Field* first = first_hedr(header_.edit_fields())) le::store(first->data.data() + 4, std::int32_t(items));
}

void Plugin::write(ByteSink& sink) {
  update_record_count();
  PluginWriter(game_, name_).write(header_, top_, sink);
}

std::vector<std::uint8_t> Plugin::serialize() {
  MemorySink sink(source_ ? source_->size() : 0);
  write(sink);
  return std::move(sink.bytes());
}

void Plugin::save(const std::filesystem::path& path) {
  AtomicFile file(path);
  write(file);
  file.commit();
}

}  // namespace tesmod
