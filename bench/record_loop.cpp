// The C++ side of bench/python_bench.py: the same loop the Python one runs (every record's type,
// FormID and EditorID, the plugin already open), timed in-process; prints the median ns/record.
//   record_loop PLUGIN [RUNS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tesmod/plugin/plugin_file.hpp"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  const tesmod::PluginFile file = tesmod::PluginFile::open(argv[1]);
  std::vector<double> ns;
  std::size_t records = 0, checksum = 0;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    records = 0;
    for (const tesmod::IndexEntry& e : file.entries().subspan(1)) {
      if (e.is_group()) continue;
      ++records;
      checksum += e.type.value() ^ e.id;
      if (auto edid = file.editor_id(e)) checksum += edid->size();
    }
    const auto end = std::chrono::steady_clock::now();
    ns.push_back(std::chrono::duration<double, std::nano>(end - start).count() / double(records));
  }
  std::sort(ns.begin(), ns.end());
  std::printf("%zu %.1f %zu\n", records, ns[ns.size() / 2], checksum);
  return 0;
}
