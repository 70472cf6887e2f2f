// One plugin file's references to the compacted plugin's renumbered records rewritten: the
// private half of compact_files (compact.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/plugin_file.hpp"

namespace tesmod::light::detail {

// The renumbered object ids of one plugin, for every file that names it.
class ObjectMap {
 public:
  explicit ObjectMap(const std::map<std::uint32_t, std::uint32_t>& objects);
  std::optional<std::uint32_t> find(std::uint32_t object) const {
    if (!may_be_either(object)) return std::nullopt;
    auto it = old_.find(object);
    if (it == old_.end()) return std::nullopt;
    return it->second;
  }
  // An id the plan gives to a record (no record had it before).
  bool is_target(std::uint32_t object) const { return may_be_either(object) && target_.contains(object); }
  // False when the id is neither an old nor a new one; true for those (and a few others): a
  // 64 KB filter that stays in cache where exact sets would not.
  bool may_be_either(std::uint32_t object) const { return filter_[(object & kMask) >> 6] >> (object & 63) & 1; }
  // The old id that takes this target.
  std::uint32_t source_of(std::uint32_t target) const;

 private:
  static constexpr std::uint32_t kMask = (1u << 19) - 1;
  std::unordered_map<std::uint32_t, std::uint32_t> old_;
  std::unordered_map<std::uint32_t, std::uint32_t> target_;  // new -> old
  std::vector<std::uint64_t> filter_;
};

// How one file names the plugin. A reference names it by one index: its own records' (its master
// count) in the plugin itself, the master's place in a dependant's list. Record headers and the
// labels of child groups name it by that index or, in the plugin itself, any index past its
// master list (the game reads those as its own: its records are renumbered whatever their index).
// References with such an index are errors (`tesmod check`'s hitme) and are left as they are.
struct FileNaming {
  const ObjectMap* objects = nullptr;
  std::uint32_t index = 0;
  bool records[256] = {};  // file indices whose records (headers, child group labels) are the plugin's
  std::string plugin;      // the compacted plugin's name, for messages

  // A reference (a field, ONAM).
  std::optional<std::uint32_t> map(std::uint32_t stored) const {
    if ((stored >> 24) != index) return std::nullopt;
    return map_object(stored);
  }
  // A record's FormID or a child group's label.
  std::optional<std::uint32_t> map_record(std::uint32_t stored) const {
    if (!records[stored >> 24]) return std::nullopt;
    return map_object(stored);
  }
  bool names_target(std::uint32_t stored) const { return (stored >> 24) == index && objects->is_target(stored & 0xFFFFFF); }
  // Whether any four bytes of data could be a FormID this rewrite touches (a fast filter: every
  // FormID a field holds is four stored bytes of its record's body).
  bool may_hold(std::span<const std::uint8_t> data) const;

 private:
  std::optional<std::uint32_t> map_object(std::uint32_t stored) const {
    auto to = objects->find(stored & 0xFFFFFF);
    if (!to) return std::nullopt;
    return (stored & 0xFF000000u) | *to;
  }
};

// What to change in the TES4 record besides ONAM.
struct HeaderEdit {
  std::optional<float> version;
  std::optional<std::uint32_t> next_object_id;
  bool set_light_flag = false;
};

struct RewriteResult {
  bool changed = false;
  std::vector<std::uint8_t> bytes;  // when changed
  std::size_t records_changed = 0;
  std::size_t references = 0;
  std::size_t cells_moved = 0;
};

// Rewrites the file's references through naming; a file with nothing to rewrite and no header
// edit is left (changed false). Throws tesmod::Error naming the file, offset and record for a
// record that does not read, or a reference to an id the plan gives to a record that no record
// had (it would come to name that record).
RewriteResult rewrite_file(const PluginFile& file, const FileNaming& naming, const HeaderEdit& header, Inflater& inflater);

}  // namespace tesmod::light::detail
