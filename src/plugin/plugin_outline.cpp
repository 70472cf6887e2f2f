#include "tesmod/plugin/plugin_outline.hpp"

#include <algorithm>
#include <array>

#include "index_builder.hpp"
#include "tesmod/plugin/group_order.hpp"

namespace tesmod {
namespace {

// Top-level groups that hold other groups: cells (with their references), worlds (with their
// cells) and dialogue topics (with their responses).
constexpr std::array kContainerGroups{Signature("CELL"), Signature("WRLD"), Signature("DIAL")};

// Types the format stores inside those groups rather than (only) in a group of their own, in
// Oblivion and Skyrim: cells (exterior and persistent ones under WRLD), responses, placed
// references of every kind, landscape, navigation meshes, path grids and roads.
constexpr std::array kNestedTypes{
    Signature("CELL"), Signature("INFO"), Signature("REFR"), Signature("ACHR"), Signature("ACRE"), Signature("PGRE"),
    Signature("PMIS"), Signature("PHZD"), Signature("PARW"), Signature("PBAR"), Signature("PBEA"), Signature("PCON"),
    Signature("PFLA"), Signature("LAND"), Signature("NAVM"), Signature("PGRD"), Signature("ROAD")};

template <typename A>
bool contains(const A& list, Signature s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

}  // namespace

PluginOutline PluginOutline::open(const std::filesystem::path& path, const OpenOptions& options) {
  return parse(FileBytes::map(path, PageIn::OnUse), options);
}

PluginOutline PluginOutline::parse(std::shared_ptr<const FileBytes> bytes, const OpenOptions& options) {
  PluginOutline out;
  out.bytes_ = std::move(bytes);
  out.options_ = options;
  IndexBuilder::outline(out, options);
  return out;
}

std::span<const IndexEntry> PluginOutline::group(std::size_t i) {
  if (groups_[i].empty()) groups_[i] = IndexBuilder::index_group(*this, top_[i]);
  return groups_[i];
}

FoundRecords PluginOutline::find_records(std::size_t i, const RecordWanted& want) const {
  // Walked anew even when group(i) is indexed: groups_ may be written by another thread. The
  // group's whole contents as one run, then its header counted.
  FoundRecords found = IndexBuilder::find_records(*this, top_[i], top_[i].offset + header_size(),
                                                  top_[i].offset + top_[i].size, want);
  ++found.entries;
  return found;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> PluginOutline::split_group(std::size_t i, std::uint64_t piece) const {
  return IndexBuilder::split_group(*this, top_[i], piece);
}

FoundRecords PluginOutline::find_records(std::size_t i, std::uint64_t begin, std::uint64_t end,
                                         const RecordWanted& want) const {
  return IndexBuilder::find_records(*this, top_[i], begin, end, want);
}

std::vector<std::size_t> PluginOutline::groups_holding(Signature type) const {
  auto is_top = [](const IndexEntry& g) { return g.group_type() == 0; };
  const bool own_group = std::any_of(top_.begin(), top_.end(), [&](const IndexEntry& g) {
    return is_top(g) && g.id == type.value();
  });
  // A type the game keeps in top-level groups of its own, which this plugin lacks, has no records
  // here (a well-formed plugin); an unknown type may be anywhere.
  const bool in_containers =
      contains(kNestedTypes, type) || (!own_group && !top_group_rank(game_, type).has_value());
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < top_.size(); ++i) {
    const IndexEntry& g = top_[i];
    const Signature label = Signature::from_value(g.id);
    if (!is_top(g) || label == type || (in_containers && contains(kContainerGroups, label))) out.push_back(i);
  }
  return out;
}

PluginFile PluginOutline::index_all() const { return PluginFile::parse(bytes_, options_); }

}  // namespace tesmod
