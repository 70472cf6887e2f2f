#!/usr/bin/env bash
# Speed benchmark (not a test): tesmod against the physical floor, measured in the same run.
#   bench/run.sh            (needs ../shared/bench, or TESMOD_SHARED=/path/to/shared)
# Makes the ~255 MB fixture with ../shared/bench/make_big_plugin.py (cached in bench/.cache),
# builds ../shared/bench/floor.cpp, and times each pair with hyperfine (medians). Prints a
# Markdown report (also written to bench/.cache/report.md) for BENCHMARKS.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${TESMOD_SHARED:-$root/../shared}
cache=$root/bench/.cache
runs=${RUNS:-15}
mkdir -p "$cache"
"$root/scripts/setup.sh" --bench
"$root/scripts/build.sh" "$root/build" -DCMAKE_BUILD_TYPE=Release
tesmod=$root/build/tools/tesmod/tesmod

big=$cache/big.esm
if [[ ! -f $big ]]; then
  echo "bench: generating the fixture (about a minute)"
  python3 "$shared/bench/make_big_plugin.py" "$big" >/dev/null
fi
g++ -O2 -std=c++17 -DHAVE_LIBDEFLATE "$shared/bench/floor.cpp" -o "$cache/floor" -lz -ldeflate
floor=$cache/floor
copy=$cache/copy.esm

cd "$cache"
hyperfine -N -w 3 -r "$runs" --export-json "$cache/times.json" \
  -n floor-walk "$floor walk $big" \
  -n info "$tesmod info $big" \
  -n info-t1 "$tesmod info $big --threads 1" \
  -n floor-inflate "$floor inflate-libdeflate $big" \
  -n subrecords-t1 "$tesmod info $big --subrecords --threads 1" \
  -n subrecords-t2 "$tesmod info $big --subrecords --threads 2" \
  -n cp-cmp "sh -c 'cp $big $copy && cmp $big $copy'" \
  -n verify "$tesmod verify $big" \
  -n rewrite "$tesmod rewrite $big -o $copy" >/dev/null

# Peak resident memory (KB), the largest of three runs each.
peak() { local m=0 v; for _ in 1 2 3; do v=$(/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1); ((v > m)) && m=$v; done; echo "$m"; }
{
  echo "floor-walk $(peak "$floor" walk "$big")"
  echo "info $(peak "$tesmod" info "$big")"
  echo "info-t1 $(peak "$tesmod" info "$big" --threads 1)"
  echo "floor-inflate $(peak "$floor" inflate-libdeflate "$big")"
  echo "subrecords-t1 $(peak "$tesmod" info "$big" --subrecords --threads 1)"
  echo "subrecords-t2 $(peak "$tesmod" info "$big" --subrecords --threads 2)"
  echo "cp-cmp $(peak sh -c "cp $big $copy && cmp $big $copy")"
  echo "verify $(peak "$tesmod" verify "$big")"
  echo "rewrite $(peak "$tesmod" rewrite "$big" -o "$copy")"
} >"$cache/peak.txt"
rm -f "$copy"

python3 - "$cache/times.json" "$cache/peak.txt" "$big" <<'PY' | tee "$cache/report.md"
import json, os, platform, subprocess, sys
times = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
peak = dict(line.split() for line in open(sys.argv[2]))
size = os.path.getsize(sys.argv[3])
med = lambda k: times[k]["median"] * 1000
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"Machine: {cpu}, {os.cpu_count()} cores, Linux {platform.release()}; fixture {size:,} bytes;"
      f" {len(times['info']['times'])} runs each, medians.\n")
print("| what | command | median ms | vs | ratio | target | peak RSS MB |")
print("|---|---|---:|---|---:|---:|---:|")
rows = [("index only, all cores", "info", "info big.esm", "floor-walk", "≤ 2.00"),
        ("index only, 1 thread", "info-t1", "info big.esm --threads 1", "floor-walk", "≤ 2.00"),
        ("all subrecords, 1 thread", "subrecords-t1", "info big.esm --subrecords --threads 1", "floor-inflate", "≤ 1.15"),
        ("all subrecords, 2 threads", "subrecords-t2", "info big.esm --subrecords --threads 2", "floor-inflate", "≤ 0.65"),
        ("verify (read, write to memory, compare)", "verify", "verify big.esm", "cp-cmp", "≤ 2.00"),
        ("rewrite to a new file", "rewrite", "rewrite big.esm -o copy.esm", "cp-cmp", "—")]
for label, k, shown, ref, target in rows:
    print(f"| {label} | `tesmod {shown}` | {med(k):.1f} | {ref} {med(ref):.1f} | {med(k) / med(ref):.2f} | {target} |"
          f" {int(peak[k]) / 1024:.0f} |")
print()
print("| reference | command | median ms | peak RSS MB |")
print("|---|---|---:|---:|")
for k, shown in (("floor-walk", "floor walk big.esm"), ("floor-inflate", "floor inflate-libdeflate big.esm"),
                 ("cp-cmp", "cp big.esm copy.esm && cmp big.esm copy.esm")):
    print(f"| {k} | `{shown}` | {med(k):.1f} | {int(peak[k]) / 1024:.0f} |")
PY

# Oblivion scripts: compile and decompile every script of the corpus, against writing each
# script's subrecords back out (the floor), Google Benchmark, medians of 10 repetitions.
corpus=${TESMOD_CORPUS:-$root/../shared/corpus}
"$root/scripts/build.sh" "$root/build-bench" -DCMAKE_BUILD_TYPE=Release -DTESMOD_BENCH=ON -DTESMOD_TESTS=OFF
TESMOD_CORPUS=$corpus "$root/build-bench/bench/script_bench" --benchmark_repetitions=10 \
  --benchmark_report_aggregates_only=true --benchmark_format=json >"$cache/scripts.json"
python3 - "$cache/scripts.json" <<'PY' | tee -a "$cache/report.md"
import json, sys
runs = {b["run_name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"] if b.get("aggregate_name") == "median"}
n = int(runs["EncodeFields"]["scripts"])
floor = runs["EncodeFields"]["real_time"]
print(f"\nOblivion scripts: {n} scripts of the corpus (those with compiled code that decompile), medians of 10.\n")
print("| what | whole corpus ms | per script µs | vs floor |")
print("|---|---:|---:|---:|")
for k, label in (("EncodeFields", "floor: write each script's subrecords"), ("Decompile", "decompile"), ("Compile", "compile (source to SCHR/SCDA/SLSD/SCRO)")):
    ms = runs[k]["real_time"]
    print(f"| {label} | {ms:.2f} | {ms * 1000 / n:.1f} | {ms / floor:.1f} |")
PY

# Oblivion saves: parse the largest corpus save and decode its NPC_/CREA change records, against
# one read pass over its bytes (the floor), all from memory; Google Benchmark, medians of 10.
TESMOD_CORPUS=$corpus "$root/build-bench/bench/save_bench" --benchmark_repetitions=10 \
  --benchmark_report_aggregates_only=true --benchmark_format=json >"$cache/saves.json"
python3 - "$cache/saves.json" <<'PY' | tee -a "$cache/report.md"
import json, sys
runs = {b["run_name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"] if b.get("aggregate_name") == "median"}
floor = runs["ReadFloor"]["real_time"]
label = runs["Parse"].get("label", "the largest save")
print(f"\nOblivion saves: {label}, from memory, medians of 10.\n")
print("| what | ms | MB/s | vs floor |")
print("|---|---:|---:|---:|")
for k, what in (("ReadFloor", "floor: read every byte once"), ("Parse", "parse every section and change record header"),
                ("ParseAndDecodeActors", "parse + decode every NPC_/CREA change record"),
                ("ParseAndCheck", "parse + verify check (write back and compare, NPC_/CREA decode and encode)")):
    ms = runs[k]["real_time"]
    print(f"| {what} | {ms:.3f} | {runs[k]['bytes_per_second'] / 1e6:.0f} | {ms / floor:.1f} |")
PY
