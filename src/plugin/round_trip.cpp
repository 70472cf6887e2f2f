#include "tesmod/plugin/round_trip.hpp"

#include "tesmod/io/byte_sink.hpp"
#include "tesmod/plugin/plugin.hpp"

namespace tesmod {

RoundTrip write_back_and_compare(const PluginFile& file) {
  Plugin plugin = Plugin::from_file(file);
  CompareSink sink(file.bytes());
  plugin.write(sink);
  return RoundTrip{sink.identical(), sink.position(), sink.first_difference()};
}

}  // namespace tesmod
