// Compiling and decompiling the scripts of the Oblivion corpus (Google Benchmark), time per
// script. EncodeFields, the floor, only writes each script's subrecords back out: the least any
// tool does that touches every script.
//
// Each benchmark times only the scripts it completes: at load, every script is tried once in
// each mode, and a script that fails there (a compile error, an unknown opcode) is left out of
// that mode's set, so no timing includes a compile that stopped half-way. The counters say how
// many scripts each figure covers.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "tesmod/script/compiler.hpp"
#include "tesmod/script/decompiler.hpp"
#include "tesmod/script/master_facts.hpp"
#include "tesmod/script/obse_profile.hpp"
#include "tesmod/script/plugin_names.hpp"
#include "tesmod/script/plugin_scripts.hpp"

namespace {

using namespace tesmod;
using namespace tesmod::script;

struct Item {
  PluginScript script;
  CompileOptions fresh;     // no previous; the plugin's OBSE setup; master facts
  CompileOptions in_place;  // the stored script as the previous compile
  DecompileOptions decompile;
  MasterFacts facts;
  std::size_t masters = 0;  // of the script's plugin
  std::string text;  // decompiled
};

struct Loaded {
  std::vector<std::unique_ptr<PluginFile>> files;
  std::vector<std::unique_ptr<PluginNames>> names;
  std::vector<std::unique_ptr<Item>> items;
  // The scripts each mode completes.
  std::vector<const Item*> encode, decompile, fresh, in_place, learn;
};

bool compiles(std::string_view source, const CompileOptions& o) {
  try {
    compile(source, o);
    return true;
  } catch (const CompileError&) {
    return false;
  }
}

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
      const PluginNames* names = l.names.back().get();
      std::vector<PluginScript> scripts = plugin_scripts(*l.files.back());
      const ObseEvidence setup = obse_evidence(scripts);
      for (PluginScript& s : scripts) {
        if (s.error || s.data.bytecode.empty()) continue;
        auto item = std::make_unique<Item>();
        item->script = std::move(s);
        const PluginScript& ps = item->script;
        CompileOptions& o = item->fresh;
        o.names = names;
        o.result_script = ps.is_result_script();
        o.result_locals = o.result_script ? result_locals(ps, *names) : nullptr;
        o.type = static_cast<ScriptType>(ps.data.header.type);
        o.obse_profile = setup.early_strings ? ObseProfile::Early : ObseProfile::Current;
        o.obse_plugins = setup.plugins;
        item->masters = l.files.back()->header().masters.size();
        item->facts = learn_master_facts(ps.data, o, item->masters);
        o.facts = &item->facts;
        item->in_place = o;
        item->in_place.previous = &ps.data;
        item->decompile.names = names;
        item->decompile.script_name = ps.is_result_script() ? std::string() : ps.editor_id;
        item->decompile.obse_plugins = setup.plugins;

        l.encode.push_back(item.get());
        l.learn.push_back(item.get());
        try {
          item->text = script::decompile(ps.data, item->decompile);
          l.decompile.push_back(item.get());
        } catch (const Error&) {
        }
        if (compiles(ps.data.source, item->fresh)) l.fresh.push_back(item.get());
        if (compiles(ps.data.source, item->in_place)) l.in_place.push_back(item.get());
        l.items.push_back(std::move(item));
      }
    }
    return l;
  }();
  return loaded;
}

void per_script(benchmark::State& state, std::size_t count) {
  const auto n = static_cast<double>(count);
  state.counters["scripts"] = n;
  state.counters["per_script"] = benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate |
                                                           benchmark::Counter::kInvert);
}

void EncodeFields(benchmark::State& state) {
  const auto& set = corpus().encode;
  for (auto _ : state)
    for (const Item* item : set) benchmark::DoNotOptimize(encode_script(item->script.data).size());
  per_script(state, set.size());
}

void Decompile(benchmark::State& state) {
  const auto& set = corpus().decompile;
  for (auto _ : state)
    for (const Item* item : set) benchmark::DoNotOptimize(decompile(item->script.data, item->decompile).size());
  per_script(state, set.size());
}

// A new script: no previous compile.
void CompileFresh(benchmark::State& state) {
  const auto& set = corpus().fresh;
  for (auto _ : state)
    for (const Item* item : set) benchmark::DoNotOptimize(compile(item->script.data.source, item->fresh).script.bytecode.size());
  per_script(state, set.size());
}

// A recompile: the stored script as the previous compile.
void CompileInPlace(benchmark::State& state) {
  const auto& set = corpus().in_place;
  for (auto _ : state)
    for (const Item* item : set)
      benchmark::DoNotOptimize(compile(item->script.data.source, item->in_place).script.bytecode.size());
  per_script(state, set.size());
}

// What verify and import pay before compiling a script whose masters are not at hand.
void LearnMasterFacts(benchmark::State& state) {
  const auto& set = corpus().learn;
  for (auto _ : state)
    for (const Item* item : set) benchmark::DoNotOptimize(learn_master_facts(item->script.data, item->fresh, item->masters).forms.size());
  per_script(state, set.size());
}

BENCHMARK(EncodeFields)->Unit(benchmark::kMillisecond);
BENCHMARK(Decompile)->Unit(benchmark::kMillisecond);
BENCHMARK(CompileFresh)->Unit(benchmark::kMillisecond);
BENCHMARK(CompileInPlace)->Unit(benchmark::kMillisecond);
BENCHMARK(LearnMasterFacts)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
