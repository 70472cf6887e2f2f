// Compiling and decompiling every script of the Oblivion corpus (Google Benchmark). Each
// benchmark reports the time per script. EncodeFields, the floor, only writes each script's
// subrecords back out: the least any tool does that touches every script.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "tesmod/script/compiler.hpp"
#include "tesmod/script/decompiler.hpp"
#include "tesmod/script/plugin_names.hpp"
#include "tesmod/script/plugin_scripts.hpp"

namespace {

using namespace tesmod;
using namespace tesmod::script;

struct Loaded {
  std::vector<std::unique_ptr<PluginFile>> files;
  std::vector<std::unique_ptr<PluginNames>> names;
  struct Item {
    PluginScript script;
    const PluginNames* names;
    std::string text;  // decompiled
  };
  std::vector<Item> items;
};

const Loaded& corpus() {
  static const Loaded loaded = [] {
    Loaded l;
    const char* env = std::getenv("TESMOD_CORPUS");
    std::filesystem::path dir = env ? env : TESMOD_SOURCE_DIR "/../shared/corpus";
    dir /= "oblivion";
    std::vector<std::filesystem::path> paths;
    if (std::filesystem::exists(dir))
      for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (e.path().extension() == ".esp" || e.path().extension() == ".esm") paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());
    for (const auto& p : paths) {
      l.files.push_back(std::make_unique<PluginFile>(PluginFile::open(p)));
      l.names.push_back(PluginNames::build(*l.files.back()));
      for (PluginScript& s : plugin_scripts(*l.files.back())) {
        if (s.error || s.data.bytecode.empty()) continue;
        DecompileOptions o;
        o.names = l.names.back().get();
        o.script_name = s.editor_id;
        try {
          std::string text = decompile(s.data, o);
          l.items.push_back({std::move(s), l.names.back().get(), std::move(text)});
        } catch (const Error&) {
        }
      }
    }
    return l;
  }();
  return loaded;
}

void per_script(benchmark::State& state) {
  const auto n = static_cast<double>(corpus().items.size());
  state.counters["scripts"] = n;
  state.counters["per_script"] = benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate |
                                                           benchmark::Counter::kInvert);
}

void EncodeFields(benchmark::State& state) {
  const auto& c = corpus();
  for (auto _ : state)
    for (const auto& item : c.items) benchmark::DoNotOptimize(encode_script(item.script.data).size());
  per_script(state);
}

void Decompile(benchmark::State& state) {
  const auto& c = corpus();
  for (auto _ : state)
    for (const auto& item : c.items) {
      DecompileOptions o;
      o.names = item.names;
      o.script_name = item.script.editor_id;
      benchmark::DoNotOptimize(decompile(item.script.data, o).size());
    }
  per_script(state);
}

void Compile(benchmark::State& state) {
  const auto& c = corpus();
  for (auto _ : state)
    for (const auto& item : c.items) {
      CompileOptions o;
      o.names = item.names;
      o.previous = &item.script.data;
      o.result_script = item.script.is_result_script();
      try {
        benchmark::DoNotOptimize(compile(item.script.data.source, o).script.bytecode.size());
      } catch (const CompileError&) {
      }
    }
  per_script(state);
}

BENCHMARK(EncodeFields)->Unit(benchmark::kMillisecond);
BENCHMARK(Decompile)->Unit(benchmark::kMillisecond);
BENCHMARK(Compile)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
