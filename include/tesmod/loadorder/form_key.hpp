// A form across a load order: the plugin that defines it (its position in the load order) and
// its object id. A plugin stores FormIDs relative to its own master list (the top byte indexes
// it; one past the last master is the plugin itself); the game's load-order FormID puts the
// defining plugin's load-order index there instead (or FE + a 12-bit slot for light plugins).
// FormKey is neither: it names the form whether or not its plugin is active.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>

namespace tesmod::loadorder {

struct FormKey {
  std::uint32_t plugin = 0;     // position in LoadOrder::plugins()
  std::uint32_t object_id = 0;  // low 24 bits of the FormID

  std::uint64_t packed() const { return std::uint64_t(plugin) << 32 | object_id; }
  friend auto operator<=>(const FormKey&, const FormKey&) = default;
};

}  // namespace tesmod::loadorder

template <>
struct std::hash<tesmod::loadorder::FormKey> {
  std::size_t operator()(const tesmod::loadorder::FormKey& k) const noexcept {
    return std::size_t(k.packed() * 0x9E3779B97F4A7C15ull >> 16);
  }
};
