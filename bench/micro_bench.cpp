// Micro-benchmarks of the plugin layers on an in-memory synthetic plugin (Google Benchmark).
// The headline figures against the physical floor come from bench/run.sh; these isolate each
// stage: index, index + every subrecord, model + writer compared to the input.
#include <benchmark/benchmark.h>

#include <random>

#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/round_trip.hpp"

namespace {

using namespace tesmod;

// ~40 MB: records of mixed sizes in top groups, a share of them compressed.
const std::shared_ptr<const FileBytes>& fixture() {
  static const std::shared_ptr<const FileBytes> bytes = [] {
    Plugin p = Plugin::create(Game::SkyrimSE, "bench.esm");
    std::mt19937 rng(1);
    const Signature types[] = {"MISC", "WEAP", "ARMO", "NPC_", "STAT"};
    for (int i = 0; i < 150000; ++i) {
      std::vector<std::uint8_t> data(rng() % 500 + 8);
      for (auto& b : data) b = std::uint8_t(rng() % 16);
      p.add(Record(types[i % 5], p.allocate_form_id(),
                   {Field::zstring("EDID", "Thing" + std::to_string(i)), Field::bytes("DATA", data),
                    Field::u32("NAME", std::uint32_t(i))},
                   i % 10 == 0 ? record_flags::kCompressed : 0));
    }
    return FileBytes::hold(p.serialize(), "bench.esm");
  }();
  return bytes;
}

void Index(benchmark::State& state) {
  const auto& bytes = fixture();  // built before timing starts
  OpenOptions o;
  o.threads = unsigned(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(PluginFile::parse(bytes, o).entries().size());
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(fixture()->size()));
}
BENCHMARK(Index)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void IndexAndSubrecords(benchmark::State& state) {
  const auto& bytes = fixture();
  OpenOptions o;
  o.threads = unsigned(state.range(0));
  o.count_subrecords = true;
  for (auto _ : state) benchmark::DoNotOptimize(PluginFile::parse(bytes, o).stats().subrecords->fields);
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(fixture()->size()));
}
BENCHMARK(IndexAndSubrecords)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void ModelWriteCompare(benchmark::State& state) {
  PluginFile f = PluginFile::parse(fixture());
  for (auto _ : state)
    if (!write_back_and_compare(f).identical) state.SkipWithError("not identical");
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(fixture()->size()));
}
BENCHMARK(ModelWriteCompare)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
