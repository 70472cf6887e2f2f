// Reading the largest Oblivion save of the corpus (Google Benchmark), from memory: parse every
// section and change record header; parse and decode every NPC_/CREA change record; parse and
// run the verify check (write back and compare, decode and encode every NPC_/CREA record).
// ReadFloor, the floor, reads every byte of the file once: the least any reader does.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tesmod/save/actor_change.hpp"
#include "tesmod/save/change_type.hpp"
#include "tesmod/save/save_check.hpp"
#include "tesmod/save/save_file.hpp"

namespace {

using namespace tesmod;
using namespace tesmod::save;

const std::shared_ptr<const FileBytes>& largest_save() {
  static const std::shared_ptr<const FileBytes> bytes = [] {
    const char* env = std::getenv("TESMOD_CORPUS");
    const std::filesystem::path dir = std::filesystem::path(env ? env : TESMOD_SOURCE_DIR "/../shared/corpus") / "saves-oblivion";
    std::filesystem::path best;
    if (std::filesystem::exists(dir))
      for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (e.path().extension() == ".ess" && (best.empty() || e.file_size() > std::filesystem::file_size(best)))
          best = e.path();
    if (best.empty()) {
      std::fprintf(stderr, "save_bench: no .ess under %s (set TESMOD_CORPUS)\n", dir.c_str());
      std::exit(1);
    }
    std::ifstream in(best, std::ios::binary);
    std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return FileBytes::hold(std::move(data), best.filename().string());
  }();
  return bytes;
}

void per_file(benchmark::State& state) {
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(largest_save()->size()));
  state.SetLabel(largest_save()->name());
}

void ReadFloor(benchmark::State& state) {
  const auto& bytes = largest_save();
  for (auto _ : state) {
    std::uint64_t sum = 0;
    const std::uint8_t* p = bytes->data();
    std::size_t n = bytes->size(), i = 0;
    for (; i + 8 <= n; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      sum += w;
    }
    for (; i < n; ++i) sum += p[i];
    benchmark::DoNotOptimize(sum);
  }
  per_file(state);
}

void Parse(benchmark::State& state) {
  const auto& bytes = largest_save();
  for (auto _ : state) benchmark::DoNotOptimize(SaveFile::parse(bytes).change_records.size());
  per_file(state);
}

void ParseAndDecodeActors(benchmark::State& state) {
  const auto& bytes = largest_save();
  std::size_t actors = 0;
  for (auto _ : state) {
    const SaveFile s = SaveFile::parse(bytes);
    actors = 0;
    for (const ChangeRecord& c : s.change_records) {
      if (!is_actor_change_type(c.type)) continue;
      const ActorChange a = decode_actor_change(c, s.name());
      benchmark::DoNotOptimize(a.flags());
      ++actors;
    }
  }
  state.counters["actor_records"] = double(actors);
  per_file(state);
}

void ParseAndCheck(benchmark::State& state) {
  const auto& bytes = largest_save();
  for (auto _ : state) benchmark::DoNotOptimize(check_save(SaveFile::parse(bytes)).change_records.identical);
  per_file(state);
}

BENCHMARK(ReadFloor)->Unit(benchmark::kMillisecond);
BENCHMARK(Parse)->Unit(benchmark::kMillisecond);
BENCHMARK(ParseAndDecodeActors)->Unit(benchmark::kMillisecond);
BENCHMARK(ParseAndCheck)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
