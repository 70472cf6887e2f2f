#include "read_all_layers.hpp"

#include <sstream>

#include "tesmod/plugin/form_ids.hpp"
#include "tesmod/plugin/round_trip.hpp"
#include "tesmod/text/dump.hpp"

namespace tesmod::test {

LayersResult read_all_layers(const std::vector<std::uint8_t>& bytes, const std::string& name, std::uint32_t form_id,
                             unsigned threads) {
  OpenOptions o;
  o.count_subrecords = true;
  o.threads = threads;
  PluginFile f = PluginFile::parse(FileBytes::hold(bytes, name), o);
  const RoundTrip round_trip = write_back_and_compare(f);
  LayersResult result{round_trip.identical, round_trip.first_difference};

  FormIds::Options fo;
  fo.load_masters = false;
  fo.threads = 1;
  FormIds ids = FormIds::build(f, fo);
  TextCodec codec;
  text::DumpOptions d;
  d.codec = &codec;
  d.form_id_names = &ids;
  d.form_ids = {form_id};
  std::ostringstream out;
  text::dump_text(f, d, out);
  text::dump_json(f, d, out);
  return result;
}

}  // namespace tesmod::test
