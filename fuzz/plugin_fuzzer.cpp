// libFuzzer entry: any bytes through every layer of the plugin reader and writer. Every input
// either reads and writes back identically, or raises tesmod::Error with a file offset.
#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "tesmod/plugin/form_ids.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/text/dump.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tesmod;
  std::vector<std::uint8_t> bytes(data, data + size);
  try {
    OpenOptions o;
    o.count_subrecords = true;
    o.threads = 1;
    PluginFile f = PluginFile::parse(FileBytes::hold(std::move(bytes), "fuzz.esp"), o);
    Plugin p = Plugin::from_file(f);
    CompareSink sink(f.bytes());
    p.write(sink);
    if (!sink.identical()) std::abort();  // read but not written back as read: a bug
    FormIds::Options fo;
    fo.load_masters = false;
    fo.threads = 1;
    FormIds ids = FormIds::build(f, fo);
    TextCodec codec;
    text::DumpOptions d;
    d.codec = &codec;
    d.form_id_names = &ids;
    std::ostringstream out;
    text::dump_text(f, d, out);
  } catch (const Error& e) {
    if (e.offset() == Error::kNoOffset) std::abort();  // errors about input must say where
  }
  return 0;
}
