#include "delocalize.hpp"

#include <fmt/format.h>

#include "tesmod/io/little_endian.hpp"

namespace tesmod::patch {

void delocalize(loadorder::ResolvedRecord& r, const LocalizedStrings& strings, const std::string& plugin_name,
                const std::function<void(std::string)>& warn) {
  if (!r.localized) return;
  const std::string type = r.header.type.str();
  for (loadorder::ResolvedField& f : r.fields) {
    const auto kind = lstring_kind(type, f.field.type.str());
    if (!kind || f.field.data.size() != 4) continue;
    const std::uint32_t id = le::u32(f.field.data.data());
    std::string text;
    if (id != 0) {
      if (const auto found = strings.lookup(id, *kind)) text = std::string(*found);
      else
        warn(fmt::format("{}: {} {:08X} {}: string id {:08X} is in none of the plugin's string tables (written empty)",
                         plugin_name, type, r.version.entry.id, f.field.type.str(), id));
    }
    f.field.data.assign(text.begin(), text.end());
    f.field.data.push_back(0);
  }
  r.localized = false;
}

}  // namespace tesmod::patch
