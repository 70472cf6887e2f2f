// Whether a master file found beside a plugin is the build the plugin was made against. Its
// file name can match while its FormIDs do not (a newer or older build of the master); names
// resolved through such a file would silently point at other forms.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "tesmod/plugin/plugin_file.hpp"

namespace tesmod {

struct MasterMatch {
  std::size_t checked = 0;  // forms the plugin takes from the master
  std::size_t found = 0;    // of those, the ones the master file defines
  // A plugin may keep a few references to forms its master has since deleted; a different
  // build of the master loses most of them.
  bool plausible() const { return found * 2 >= checked; }
  std::string describe(std::string_view master_name) const;
};

// Looks up `form_ids` (plugin-relative; those whose top byte is `master_index` are checked)
// among the records `master` itself defines.
MasterMatch match_master(const PluginFile& master, std::uint32_t master_index,
                         std::span<const std::uint32_t> form_ids);

}  // namespace tesmod
