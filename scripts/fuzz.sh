#!/usr/bin/env bash
# Builds the libFuzzer targets (clang++-14, ASan + UBSan), makes seed corpora from the plugin and
# save corpus, and runs the fuzz/*_fuzzer targets for SECONDS each (default 60): all of them, or
# the ones named (`plugin` or `plugin_fuzzer`):
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Environment: TESMOD_CORPUS (default ../shared/corpus), TESMOD_FUZZ_BUILD (build folder, default
# build-fuzz), TESMOD_JOBS (build jobs, default 1), TESMOD_FUZZ_PARALLEL (targets run at once,
# default 1; each takes one core). Inputs a run finds are kept in
# BUILD/fuzz-corpus/TARGET for the next run; crashing inputs go to BUILD/fuzz-artifacts/. Prints
# per target the executions, executions per second, coverage (cov: edges, ft: features) and
# crashes; exits non-zero when any target crashed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
wanted=("$@")
parallel=${TESMOD_FUZZ_PARALLEL:-1}
corpus=${TESMOD_CORPUS:-$root/../shared/corpus}
build=${TESMOD_FUZZ_BUILD:-$root/build-fuzz}
jobs=${TESMOD_JOBS:-1}

"$root/scripts/setup.sh" --fuzz
if ! command -v clang++-14 >/dev/null; then
  echo "fuzz.sh: clang++-14 not found (Debian: apt-get install clang-14 libclang-rt-14-dev)" >&2
  exit 2
fi

echo "== build ($build)"
nice cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++-14 -DTESMOD_FUZZ=ON -DTESMOD_TESTS=OFF \
  -DTESMOD_SANITIZE=ON >/dev/null
nice cmake --build "$build" -j"$jobs"

seeds="$build/fuzz-seeds"
echo "== seeds ($corpus -> $seeds)"
if [ -d "$corpus" ]; then
  rm -rf "$seeds"
  ASAN_OPTIONS=detect_leaks=0 nice python3 "$root/scripts/make_fuzz_seeds.py" "$corpus" "$seeds" \
    --tesmod "$build/tools/tesmod/tesmod"
else
  echo "no corpus at $corpus: targets start from their kept inputs only" >&2
fi

artifacts="$build/fuzz-artifacts"
results="$build/fuzz-results"
mkdir -p "$artifacts"
rm -rf "$results"
mkdir -p "$results"

# Runs one target; writes its summary line to $results/NAME and "crash" to $results/NAME.crash.
run_target() {
  local binary=$1 name work dict log before after crashes status execs rate cov ft line
  name=$(basename "$binary")
  work="$build/fuzz-corpus/$name"
  mkdir -p "$work"
  dict="$root/fuzz/dict/${name%_fuzzer}.dict"
  [ -f "$dict" ] || dict="$root/fuzz/dict/${name%%_*}.dict"  # script_compile -> script.dict
  [ -f "$dict" ] || dict="$root/fuzz/dict/plugin.dict"
  local dirs=("$work")
  [ -d "$seeds/$name" ] && dirs+=("$seeds/$name")
  log="$build/fuzz-$name.log"
  before=$(find "$artifacts" -name "$name-*" | wc -l)
  echo "== $name: ${seconds}s (log: $log)"
  status=0
  nice "$binary" -max_total_time="$seconds" -timeout=30 -print_final_stats=1 -dict="$dict" \
    -artifact_prefix="$artifacts/$name-" "${dirs[@]}" >"$log" 2>&1 || status=$?
  after=$(find "$artifacts" -name "$name-*" | wc -l)
  crashes=$((after - before))
  if [ "$status" -ne 0 ] && [ "$crashes" -eq 0 ]; then crashes=1; fi  # died without an artifact
  # A run that died early may print none of these: '?' then.
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
  line=$(printf '%-26s execs %-10s execs/s %-7s cov %-6s ft %-7s crashes %s' "$name" "${execs:-?}" "${rate:-?}" \
    "${cov:-?}" "${ft:-?}" "$crashes")
  echo "$line"
  echo "$line" >"$results/$name"
  if [ "$crashes" -ne 0 ]; then
    echo crash >"$results/$name.crash"
    grep -m2 -E 'oracle failed|runtime error|ERROR: |Test unit written' "$log" || true
  fi
}

targets=()
for binary in "$build"/fuzz/*_fuzzer; do
  [ -x "$binary" ] || continue
  name=$(basename "$binary")
  if [ "${#wanted[@]}" -gt 0 ]; then
    keep=0
    for w in "${wanted[@]}"; do
      [ "$name" = "$w" ] || [ "$name" = "${w}_fuzzer" ] && keep=1
    done
    [ "$keep" -eq 1 ] || continue
  fi
  targets+=("$binary")
done
if [ "${#targets[@]}" -eq 0 ]; then
  echo "no matching *_fuzzer targets in $build/fuzz" >&2
  exit 2
fi

running=0
for binary in "${targets[@]}"; do
  if [ "$running" -ge "$parallel" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_target "$binary" &
  running=$((running + 1))
done
wait || true

echo "== summary (${seconds}s per target, $parallel at a time)"
failed=0
for binary in "${targets[@]}"; do
  name=$(basename "$binary")
  if [ -f "$results/$name" ]; then cat "$results/$name"; else echo "$name: no result"; failed=1; fi
  [ -f "$results/$name.crash" ] && failed=1
done
exit "$failed"
