#!/usr/bin/env bash
# Speed benchmark (not a test): tesmod against the physical floor, measured in the same run.
#   bench/run.sh [SECTION]  (needs ../shared/bench, or TESMOD_SHARED=/path/to/shared)
#   SECTION: all (default), plugin, text, scripts, saves, python, loadorder, page, clean, patch, patchers or esl
#   TESMOD_BASELINE=/path/to/an/older/tesmod: the text section also times that build's export
#   and import of the fixture in the same run (a same-machine, same-run comparison); with
#   TURNS=N as well, the two builds again in turns, N rounds (see the section).
# Makes the ~255 MB fixture with ../shared/bench/make_big_plugin.py (cached in bench/.cache),
# builds ../shared/bench/floor.cpp, and times each pair with hyperfine (medians). Prints a
# Markdown report (also written to bench/.cache/report.md) for BENCHMARKS.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${TESMOD_SHARED:-$root/../shared}
cache=$root/bench/.cache
runs=${RUNS:-15}
section=${1:-all}
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

want() { [[ $section == all || $section == "$1" ]]; }
# Peak resident memory (KB), the largest of three runs each.
peak() { local m=0 v; for _ in 1 2 3; do v=$(/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1); ((v > m)) && m=$v; done; echo "$m"; }
# The 100-plugin load order over the fixture (sections loadorder, clean, patchers), made once.
lo=$cache/loadorder
make_loadorder() {
  if [[ ! -f $lo/expected.json ]]; then
    echo "bench: making the 100-plugin load order (about a minute)"
    rm -rf "$lo"
    python3 "$shared/bench/make_load_order.py" "$big" "$lo" --plugins 100 --seed 1 >/dev/null
  fi
}
: >"$cache/report.md"
cd "$cache"

if want plugin; then
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

python3 - "$cache/times.json" "$cache/peak.txt" "$big" <<'PY' | tee -a "$cache/report.md"
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
fi

# Oblivion scripts: compile and decompile every script of the corpus, against writing each
# script's subrecords back out (the floor), Google Benchmark, medians of 10 repetitions.
corpus=${TESMOD_CORPUS:-$root/../shared/corpus}
if want scripts || want saves || want python || want patchers; then
"$root/scripts/build.sh" "$root/build-bench" -DCMAKE_BUILD_TYPE=Release -DTESMOD_BENCH=ON -DTESMOD_TESTS=OFF \
  -DTESMOD_PYTHON=ON -DPython_EXECUTABLE="$(command -v /usr/bin/python3 || command -v python3)"
fi
# The Python module: NPC_ EditorIDs against a plain-Python mmap walker, and the per-record cost
# of a Python loop against the same loop in C++ (bench/python_bench.py).
if want python; then
  PYTHONPATH="$root/build-bench/python" "$(command -v /usr/bin/python3 || command -v python3)" \
    "$root/bench/python_bench.py" "$big" "$root/build-bench/bench/record_loop" "${RUNS:-5}" | tee -a "$cache/report.md"
fi
if want scripts; then
TESMOD_CORPUS=$corpus "$root/build-bench/bench/script_bench" --benchmark_repetitions=10 \
  --benchmark_report_aggregates_only=true --benchmark_format=json >"$cache/scripts.json"
# verify --deep on the plugin with the most scripts, against plain verify (read, write to
# memory, compare) of the same file: what checking every script four ways adds.
scripted=$(find "$corpus/oblivion" -name 'lSortYourStuff.esp' | head -1)
hyperfine -N -w 3 -r "$runs" --export-json "$cache/scripts-verify.json" \
  -n verify "$tesmod verify '$scripted'" \
  -n verify-deep "$tesmod verify --deep '$scripted'" >/dev/null
python3 - "$cache/scripts.json" "$cache/scripts-verify.json" "$scripted" <<'PY' | tee -a "$cache/report.md"
import json, os, sys
runs = {b["run_name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"] if b.get("aggregate_name") == "median"}
floor = runs["EncodeFields"]["real_time"] / runs["EncodeFields"]["scripts"]
print(f"\nOblivion scripts of the corpus with compiled code, medians of 10; each figure times only the"
      " scripts that mode completes (the count says how many).\n")
print("| what | scripts | whole set ms | per script µs | vs floor (per script) |")
print("|---|---:|---:|---:|---:|")
for k, label in (("EncodeFields", "floor: write each script's subrecords"), ("Decompile", "decompile"),
                 ("CompileFresh", "compile as a new script (no previous)"),
                 ("CompileInPlace", "recompile in place (stored script as previous)"),
                 ("LearnMasterFacts", "learn master facts (placeholder compile + pairing)")):
    n = int(runs[k]["scripts"])
    ms = runs[k]["real_time"]
    print(f"| {label} | {n} | {ms:.2f} | {ms * 1000 / n:.1f} | {ms / n / floor:.1f} |")
t = {r["command"]: r for r in json.load(open(sys.argv[2]))["results"]}
med = lambda k: t[k]["median"] * 1000
print(f"\n`verify --deep` on {os.path.basename(sys.argv[3])} ({os.path.getsize(sys.argv[3]):,} bytes), hyperfine,"
      f" {len(t['verify']['times'])} runs, medians: verify {med('verify'):.1f} ms, verify --deep {med('verify-deep'):.1f} ms"
      f" ({med('verify-deep') / med('verify'):.1f}x).")
PY

fi

# Oblivion saves: parse the largest corpus save and decode its NPC_/CREA change records, against
# one read pass over its bytes (the floor), all from memory; Google Benchmark, medians of 10.
if want saves; then
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
fi

# Plugins as text: export the fixture to a folder and import that folder, against the floor's
# inflate pass, on two threads (hyperfine medians; the folder is removed before each export run,
# untimed); the corpus's largest mods the same way; peak RSS the largest of three runs.
if want text; then
# An output folder is moved aside before each run, not deleted: ext4 avoids reusing inodes freed
# in the last ~30 s, so creating files right after deleting as many costs a disk scan each
# (0.5 ms a file on this VM), which measures the deletion, not the export. The moved folders
# are deleted at the end.
trash=$cache/trash
mkdir -p "$trash"
aside() { echo "sh -c 'mv $1 $trash/\$(date +%s%N) 2>/dev/null; true'"; }
text_dir=$cache/text
text_out=$cache/text.esm
mod_obl="$corpus/oblivion/Laulajatar__my-oblivion-mods/lNameless Overhaul.esp"
mod_sky="$corpus/skyrim/AndersonPaschoalon__Skyrim-DSilHand/DawnOfTheSilverHand.esp"
rm -rf "$text_dir" "$cache/mod-obl" "$cache/mod-sky"
"$tesmod" export "$big" "$text_dir" --threads 2 >/dev/null
"$tesmod" export "$mod_obl" "$cache/mod-obl" >/dev/null
"$tesmod" export "$mod_sky" "$cache/mod-sky" >/dev/null
baseline=()
if [[ -n ${TESMOD_BASELINE:-} ]]; then
  base_dir=$cache/text-baseline
  rm -rf "$base_dir"
  "$TESMOD_BASELINE" export "$big" "$base_dir" --threads 2 >/dev/null
  baseline=(--prepare "$(aside $cache/text3)" -n baseline-export "$TESMOD_BASELINE export $big $cache/text3 --threads 2"
            --prepare true -n baseline-import "$TESMOD_BASELINE import $base_dir -o $cache/text-baseline.esm --threads 2")
fi
# hyperfine takes one --prepare per command, in order.
hyperfine -N -w 2 -r "$runs" --export-json "$cache/text-times.json" \
  --prepare true -n floor-inflate "$floor inflate-libdeflate $big" \
  --prepare "$(aside $cache/text2)" -n export "$tesmod export $big $cache/text2 --threads 2" \
  --prepare true -n import "$tesmod import $text_dir -o $text_out --threads 2" \
  "${baseline[@]}" \
  --prepare "$(aside $cache/mod2)" -n mod-obl-export "$tesmod export '$mod_obl' $cache/mod2" \
  --prepare true -n mod-obl-import "$tesmod import $cache/mod-obl -o $cache/mod-obl.esp" \
  --prepare "$(aside $cache/mod2)" -n mod-sky-export "$tesmod export '$mod_sky' $cache/mod2" \
  --prepare true -n mod-sky-import "$tesmod import $cache/mod-sky -o $cache/mod-sky.esp" \
  --prepare "$(aside $cache/text2)" -n cp-big "cp -r $text_dir $cache/text2" \
  --prepare "$(aside $cache/mod2)" -n cp-mod-obl "cp -r $cache/mod-obl $cache/mod2" \
  --prepare "$(aside $cache/mod2)" -n cp-mod-sky "cp -r $cache/mod-sky $cache/mod2" >/dev/null
# The mods again on tmpfs, where creating a file costs no disk file system work.
shm=""
if [[ -d /dev/shm && -w /dev/shm ]]; then
  shm=$(mktemp -d /dev/shm/tesmod-bench.XXXXXX)
  cp -r "$cache/mod-obl" "$cache/mod-sky" "$shm/"
  hyperfine -N -w 2 -r "$runs" --export-json "$cache/text-shm-times.json" \
    --prepare "rm -rf $shm/mod2" -n mod-obl-export "$tesmod export '$mod_obl' $shm/mod2" \
    --prepare true -n mod-obl-import "$tesmod import $shm/mod-obl -o $shm/mod-obl.esp" \
    --prepare "rm -rf $shm/mod2" -n mod-sky-export "$tesmod export '$mod_sky' $shm/mod2" \
    --prepare true -n mod-sky-import "$tesmod import $shm/mod-sky -o $shm/mod-sky.esp" \
    --prepare "rm -rf $shm/mod2" -n cp-mod-obl "cp -r $shm/mod-obl $shm/mod2" \
    --prepare "rm -rf $shm/mod2" -n cp-mod-sky "cp -r $shm/mod-sky $shm/mod2" >/dev/null
  rm -rf "$shm"
fi
cmp "$big" "$text_out" && cmp "$mod_obl" "$cache/mod-obl.esp" && cmp "$mod_sky" "$cache/mod-sky.esp"
# With TESMOD_BASELINE and TURNS=N: the two builds' export and import of the fixture again, in
# turns, N rounds, the order swapped each round; medians. hyperfine runs one command's runs back
# to back, and this VM drifts by more than the difference between two builds.
rm -f "$cache/turns.txt"
if [[ -n ${TESMOD_BASELINE:-} ]] && ((${TURNS:-0} > 0)); then
  ms() { local s e; s=$(date +%s%N); "$@" >/dev/null; e=$(date +%s%N); echo $(((e - s) / 1000000)); }
  for ((i = 0; i < TURNS; i++)); do
    if ((i % 2)); then order=(baseline this); else order=(this baseline); fi
    for w in "${order[@]}"; do
      if [[ $w == this ]]; then bin=$tesmod; else bin=$TESMOD_BASELINE; fi
      eval "$(aside "$cache/turn-$w")"
      echo "export $w $(ms "$bin" export "$big" "$cache/turn-$w" --threads 2)" >>"$cache/turns.txt"
    done
    for w in "${order[@]}"; do
      if [[ $w == this ]]; then bin=$tesmod dir=$text_dir; else bin=$TESMOD_BASELINE dir=$base_dir; fi
      echo "import $w $(ms "$bin" import "$dir" -o "$cache/turn-$w.esm" --threads 2)" >>"$cache/turns.txt"
    done
  done
  cmp "$big" "$cache/turn-this.esm" && cmp "$big" "$cache/turn-baseline.esm"
  rm -rf "$cache/turn-this" "$cache/turn-baseline" "$cache/turn-this.esm" "$cache/turn-baseline.esm"
fi
if [[ -n ${TESMOD_BASELINE:-} ]]; then
  cmp "$big" "$cache/text-baseline.esm"
  base_bytes=$(du -sb "$base_dir" | cut -f1)
  rm -rf "$cache/text3" "$base_dir" "$cache/text-baseline.esm"
fi
export_peak=0
for _ in 1 2 3; do
  eval "$(aside "$cache/text2")"
  v=$(/usr/bin/time -f %M "$tesmod" export "$big" "$cache/text2" --threads 2 2>&1 >/dev/null | tail -1)
  ((v > export_peak)) && export_peak=$v
done
import_peak=$(peak "$tesmod" import "$text_dir" -o "$text_out" --threads 2)
files=$(find "$text_dir" -type f | wc -l)
folders=$(find "$text_dir" -type d | wc -l)
text_bytes=$(du -sb "$text_dir" | cut -f1)
rm -rf "$cache/text2" "$cache/mod2" "$trash"
python3 - "$cache/text-times.json" "$big" "$export_peak" "$import_peak" "$files" "$folders" "$text_bytes" \
  "$mod_obl" "$mod_sky" "${shm:+$cache/text-shm-times.json}" "${base_bytes:-}" <<'PY' | tee -a "$cache/report.md"
import json, os, sys
times = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
big, export_peak, import_peak, files, folders, text_bytes = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
med = lambda k: times[k]["median"] * 1000
size = os.path.getsize(big)
floor = med("floor-inflate")
print(f"\nPlugins as text: {size:,} bytes fixture, 2 threads, {len(times['export']['times'])} runs each, medians.\n")
print("| what | median ms | vs floor inflate-libdeflate | target | peak RSS MB | RSS target MB |")
print("|---|---:|---:|---:|---:|---:|")
print(f"| floor: `floor inflate-libdeflate` | {floor:.1f} | 1.0 | | | |")
for k, label, peak in (("export", "`tesmod export big.esm DIR --threads 2`", export_peak), ("import", "`tesmod import DIR -o out.esm --threads 2`", import_peak)):
    print(f"| {label} | {med(k):.0f} | {med(k) / floor:.1f} | ≤ 20 | {peak / 1024:.0f} | ≤ {(size / 2**20) + 300:.0f} |")
print(f"| floor: `cp -r` of the exported folder | {med('cp-big'):.0f} | {med('cp-big') / floor:.1f} | | | |")
print(f"\nThe folder: {files:,} files in {folders:,} folders, {text_bytes / 1e6:.0f} MB; import wrote the fixture back byte-identical.\n")
if "baseline-export" in times:
    base_bytes = int(sys.argv[11])
    print("Against the baseline build (TESMOD_BASELINE), same run:\n")
    print("| what | this build ms | baseline ms | this / baseline | this vs floor | baseline vs floor |")
    print("|---|---:|---:|---:|---:|---:|")
    for k in ("export", "import"):
        a, b = med(k), med("baseline-" + k)
        print(f"| {k} | {a:.0f} | {b:.0f} | {a / b:.2f} | {a / floor:.1f} | {b / floor:.1f} |")
    print(f"\nText: {text_bytes / 1e6:.0f} MB from this build, {base_bytes / 1e6:.0f} MB from the baseline; "
          "both imports wrote the fixture back byte-identical.\n")
shm = {r["command"]: r for r in json.load(open(sys.argv[10]))["results"]} if len(sys.argv) > 10 and sys.argv[10] else {}
print("| mod | bytes | where | files | export ms | `cp -r` of its folder ms | import ms | target |")
print("|---|---:|---|---:|---:|---:|---:|---:|")
cache = os.path.dirname(sys.argv[1])
for k, path in (("mod-obl", sys.argv[8]), ("mod-sky", sys.argv[9])):
    n = sum(len(f) for _, _, f in os.walk(os.path.join(cache, k)))
    for where, t in (("disk", times), ("tmpfs", shm)):
        if not t: continue
        m = lambda c: t[c]["median"] * 1000
        print(f"| {os.path.basename(path)} | {os.path.getsize(path):,} | {where} | {n:,} | {m(k + '-export'):.1f} | "
              f"{m('cp-' + k):.1f} | {m(k + '-import'):.1f} | < 100 |")
PY
if [[ -s $cache/turns.txt ]]; then
python3 - "$cache/turns.txt" <<'PY' | tee -a "$cache/report.md"
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    what, who, ms = line.split()
    runs.setdefault((what, who), []).append(int(ms))
n = len(runs[("export", "this")])
print(f"\nThe same two builds in turns, {n} rounds, order swapped each round, medians:\n")
print("| what | this build ms | baseline ms | this / baseline | this: fastest-slowest ms | baseline: fastest-slowest ms |")
print("|---|---:|---:|---:|---|---|")
for what in ("export", "import"):
    a, b = runs[(what, "this")], runs[(what, "baseline")]
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"| {what} | {ma:.0f} | {mb:.0f} | {ma / mb:.2f} | {min(a)}-{max(a)} | {min(b)}-{max(b)} |")
PY
fi
fi

# Load orders: a 100-plugin load order made by ../shared/bench/make_load_order.py over the fixture
# (cached): load-order, conflicts, clean --all and check against the floor's header walk and its
# libdeflate inflate pass over all of its files in one process, on two threads, from one run;
# peak RSS the largest of three runs. Run it on an idle machine: under load the floor slows more.
if want loadorder; then
make_loadorder
lo_files=("$lo"/*.esm "$lo"/*.esp)
hyperfine -N -i -w 3 -r "$runs" --export-json "$cache/loadorder-times.json" \
  -n floor-walk-all "$floor walk ${lo_files[*]}" \
  -n floor-inflate-all "$floor inflate-libdeflate ${lo_files[*]}" \
  -n conflicts "$tesmod conflicts --data $lo --json --threads 2" \
  -n load-order "$tesmod load-order --data $lo --json --threads 2" \
  -n conflicts-text "$tesmod conflicts --data $lo --threads 2" \
  -n clean-all "$tesmod clean --all --data $lo --dry-run --json --threads 2" >/dev/null
# check takes seconds a run: fewer of them (`-i`: it exits 1 when it finds problems, as it does here).
hyperfine -N -i -w 1 -r "$(( runs < 5 ? runs : 5 ))" --export-json "$cache/loadorder-check-times.json" \
  -n check "$tesmod check --data $lo --json --threads 2" >/dev/null
lo_peak_conflicts=$(peak "$tesmod" conflicts --data "$lo" --json --threads 2)
lo_peak_check=$(peak "$tesmod" check --data "$lo" --json --threads 2)
lo_peak_clean=$(peak "$tesmod" clean --all --data "$lo" --dry-run --json --threads 2)
lo_peak_floor=$(peak "$floor" walk "${lo_files[@]}")
lo_bytes=$(cat "${lo_files[@]}" | wc -c)
lo_records=$("$tesmod" conflicts --data "$lo" --json --threads 2 | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["records"]))')
python3 "$shared/tools/check_load_order.py" "$tesmod" "$lo" | sed -n 1,2p || true
python3 - "$cache/loadorder-times.json" "$lo_peak_conflicts" "$lo_peak_floor" "$lo_bytes" "${#lo_files[@]}" "$lo_records" \
  "$cache/loadorder-check-times.json" "$lo_peak_check" "$lo_peak_clean" <<'PY' | tee -a "$cache/report.md"
import json, sys
t = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
t.update({r["command"]: r for r in json.load(open(sys.argv[7]))["results"]})
peak, floor_peak, size, files, records = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
peaks = {"conflicts": peak, "check": int(sys.argv[8]), "clean-all": int(sys.argv[9])}
med = lambda k: t[k]["median"] * 1000
floor, inflate = med("floor-walk-all"), med("floor-inflate-all")
print(f"\nLoad orders: {files} files, {size:,} bytes (the fixture as master, 100 plugins, a patch; one inactive),"
      f" {records:,} records in more than one plugin; page cache warm; {len(t['conflicts']['times'])} runs each"
      f" ({len(t['check']['times'])} of check), medians.\n")
print("| what | median ms | vs floor walk | vs floor inflate | target | peak RSS MB | RSS target MB |")
print("|---|---:|---:|---:|---:|---:|---:|")
print(f"| floor: `floor walk` every file, one process | {floor:.1f} | 1.00 | | | {floor_peak / 1024:.0f} | |")
print(f"| floor: `floor inflate-libdeflate` every file, one process | {inflate:.1f} | {inflate / floor:.2f} | 1.00 | | | |")
for k, label, target, extra in (("load-order", "`tesmod load-order --data DIR --json`", "≤ 1.5 (walk)", 0),
                                ("conflicts", "`tesmod conflicts --data DIR --json --threads 2`", "≤ 2.0 (walk)", 200),
                                ("conflicts-text", "`tesmod conflicts --data DIR --threads 2` (text)", "—", 0),
                                ("clean-all", "`tesmod clean --all --data DIR --dry-run --json --threads 2`", "≤ 2.0 (walk)", 200),
                                ("check", "`tesmod check --data DIR --json --threads 2`", "≤ 3.0 (inflate)", 300)):
    rss = f"{peaks[k] / 1024:.0f}" if k in peaks else ""
    rss_target = f"≤ {size / 2**20 + extra:.0f}" if extra else ""
    print(f"| {label} | {med(k):.1f} | {med(k) / floor:.2f} | {med(k) / inflate:.2f} | {target} | {rss} | {rss_target} |")
PY
fi

# The conflicts page (issue 36) of the 100-plugin load order: `conflicts --html` against
# `conflicts --json` (both write a file), the page's size against the JSON's, and what a reader
# waits for in headless Chromium (bench/page_bench.py: first rows, a filter, a search, more rows).
if want page; then
make_loadorder
hyperfine -N -w 3 -r "$runs" --export-json "$cache/page-times.json" \
  -n conflicts-json "sh -c '$tesmod conflicts --data $lo --json --threads 2 >$cache/conflicts.json'" \
  -n conflicts-html "$tesmod conflicts --data $lo --html $cache/conflicts.html --threads 2" >/dev/null
python3 "$root/bench/page_bench.py" "$cache/conflicts.html" "$(( runs < 7 ? runs : 7 ))" >"$cache/page-browser.json"
python3 - "$cache/page-times.json" "$cache/conflicts.json" "$cache/conflicts.html" "$cache/page-browser.json" \
  "$(chromium --version 2>/dev/null | head -1)" <<'PY' | tee -a "$cache/report.md"
import json, os, sys
t = {r["command"]: r["median"] * 1000 for r in json.load(open(sys.argv[1]))["results"]}
js, page = os.path.getsize(sys.argv[2]), os.path.getsize(sys.argv[3])
b = json.load(open(sys.argv[4]))
records = len(json.load(open(sys.argv[2]))["records"])
print(f"\nThe conflicts page of the 100-plugin load order ({records:,} records in more than one plugin); medians;"
      f" in the browser {sys.argv[5]}, headless, {b['runs']} loads.\n")
print("| what | value | against | ratio | target |")
print("|---|---:|---|---:|---:|")
print(f"| `conflicts --html FILE` | {t['conflicts-html']:.1f} ms | `conflicts --json >FILE` {t['conflicts-json']:.1f} ms |"
      f" {t['conflicts-html'] / t['conflicts-json']:.2f} | — |")
print(f"| page size | {page / 2**20:.1f} MB | JSON {js / 2**20:.1f} MB | {page / js:.2f} | ≤ 3 |")
for k, label in (("load", "first rows shown after opening"), ("filter", "a category unticked, rows shown again"),
                 ("search", "a text typed, rows shown (with the page's 150 ms pause)"),
                 ("more", "next rows after scrolling to the end")):
    print(f"| browser: {label} | {b[k]:.0f} ms | | | |")
PY
fi

# Cleaning: a ~1 MB plugin (make_load_order.py --per-plugin 700 over the fixture) cleaned against
# the fixture as its master, against `tesmod info` of the master; `clean --all --dry-run` over the
# 100-plugin load order against the floor's header walk of all its files in one process.
if want clean; then
make_loadorder
cl=$cache/clean
if [[ ! -f $cl/expected.json ]]; then
  echo "bench: making a ~1 MB plugin over the fixture"
  rm -rf "$cl"
  python3 "$shared/bench/make_load_order.py" "$big" "$cl" --plugins 4 --per-plugin 700 --seed 2 >/dev/null
fi
lo_files=("$lo"/*.esm "$lo"/*.esp)
out=$cache/cleaned.esp
hyperfine -N -i -w 3 -r "$runs" --export-json "$cache/clean-times.json" \
  -n info-master "$tesmod info $cl/$(basename "$big")" \
  -n clean-dry-run "$tesmod clean $cl/Mod_01.esp --dry-run --json" \
  -n clean-write "$tesmod clean $cl/Mod_01.esp -o $out" \
  -n floor-walk-all "$floor walk ${lo_files[*]}" \
  -n clean-all "$tesmod clean --all --data $lo --dry-run --json --threads 2" >/dev/null
rm -f "$out"
cl_peak=$(peak "$tesmod" clean "$cl/Mod_01.esp" --dry-run --json)
cl_all_peak=$(peak "$tesmod" clean --all --data "$lo" --dry-run --json --threads 2)
cl_size=$(wc -c <"$cl/Mod_01.esp")
python3 "$shared/tools/check_load_order.py" "$tesmod" "$cl" | grep "^clean" || true
python3 - "$cache/clean-times.json" "$cl_peak" "$cl_all_peak" "$cl_size" "${#lo_files[@]}" <<'PY' | tee -a "$cache/report.md"
import json, sys
t = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
peak, all_peak, size, files = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
med = lambda k: t[k]["median"] * 1000
print(f"\nCleaning: a {size / 2**20:.2f} MB plugin against the fixture as master; `clean --all` over {files} files;"
      f" {len(t['clean-all']['times'])} runs each, medians.\n")
print("| what | median ms | vs baseline | target | peak RSS MB |")
print("|---|---:|---:|---:|---:|")
print(f"| baseline: `tesmod info MASTER` | {med('info-master'):.1f} | 1.00 | | |")
print(f"| `tesmod clean PLUGIN --dry-run --json` | {med('clean-dry-run'):.1f} | {med('clean-dry-run') / med('info-master'):.2f} | ≤ 2.0 | {peak / 1024:.0f} |")
print(f"| `tesmod clean PLUGIN -o OUT` | {med('clean-write'):.1f} | {med('clean-write') / med('info-master'):.2f} | ≤ 2.0 | |")
print(f"| baseline: `floor walk` every file of the load order, one process | {med('floor-walk-all'):.1f} | 1.00 | | |")
print(f"| `tesmod clean --all --data DIR --dry-run --json --threads 2` | {med('clean-all'):.1f} | {med('clean-all') / med('floor-walk-all'):.2f} | ≤ 3.0 | {all_peak / 1024:.0f} |")
PY
fi

# The Bashed Patch: the order ../shared/bench/make_patch_order.py makes over the fixture (100
# plugins, 2000 lists; cached), `tesmod patch` against the floor's header walk of every file in one
# process, and Wrye Bash's own patcher over the same order when its source is at hand
# (WB_MOPY=/path/to/Mopy, see ../shared/tools/wb_oracle/README.md; the oracle's run includes
# copying the plugins into its temporary game tree), fewer runs as it is slow.
if want patch; then
po=$cache/patch-order
if [[ ! -f $po/plan.json ]]; then
  echo "bench: making the 100-plugin patch order (about a minute)"
  rm -rf "$po"
  python3 "$shared/bench/make_patch_order.py" "$big" "$po" --plugins 100 --lists 2000 >/dev/null
fi
po_files=("$po"/*.esm "$po"/*.esp)
po_out=$cache/patch-out/"Bashed Patch, 0.esp"
mkdir -p "$cache/patch-out"
hyperfine -N -w 3 -r "$runs" --export-json "$cache/patch-times.json" \
  -n floor-walk-all "$floor walk ${po_files[*]}" \
  -n patch "$tesmod patch --data $po -o $cache/patch-out/BP.esp --threads 2" \
  -n patch-dry-run "$tesmod patch --data $po --dry-run --json --threads 2" >/dev/null
po_peak=$(peak "$tesmod" patch --data "$po" -o "$cache/patch-out/BP.esp" --threads 2)
po_bytes=$(cat "${po_files[@]}" | wc -c)
wb_json=""
if [[ -n ${WB_MOPY:-} && -d $WB_MOPY ]]; then
  hyperfine -N -w 1 -r "${WB_RUNS:-3}" --export-json "$cache/patch-wb-times.json" \
    -n wrye-bash "/usr/bin/python3 $shared/tools/wb_oracle/wb_bashed_patch.py $WB_MOPY $po $cache/patch-out/oracle.json" >/dev/null
  wb_json=$cache/patch-wb-times.json
  python3 "$shared/tools/check_patch.py" "$tesmod" "$po" "$cache/patch-out/oracle.json" | tail -1
fi
python3 - "$cache/patch-times.json" "$po_peak" "$po_bytes" "${#po_files[@]}" "$wb_json" <<'PY' | tee -a "$cache/report.md"
import json, sys
t = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
peak, size, files = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
if sys.argv[5]:
    t.update({r["command"]: r for r in json.load(open(sys.argv[5]))["results"]})
med = lambda k: t[k]["median"] * 1000
floor = med("floor-walk-all")
print(f"\nThe Bashed Patch: make_patch_order.py over the fixture, --plugins 100 --lists 2000: {files} files,"
      f" {size:,} bytes; {len(t['patch']['times'])} runs each, medians.\n")
print("| what | median ms | vs floor walk of all files | target | peak RSS MB | RSS target MB |")
print("|---|---:|---:|---:|---:|---:|")
print(f"| floor: `floor walk` every file, one process | {floor:.1f} | 1.00 | | | |")
print(f"| `tesmod patch --data DIR -o OUT --threads 2` | {med('patch'):.1f} | {med('patch') / floor:.2f} | ≤ 3.0 |"
      f" {peak / 1024:.0f} | ≤ {size / 2**20 + 200:.0f} |")
print(f"| `tesmod patch --data DIR --dry-run --json --threads 2` | {med('patch-dry-run'):.1f} |"
      f" {med('patch-dry-run') / floor:.2f} | | | |")
if "wrye-bash" in t:
    wb = med("wrye-bash")
    print(f"| Wrye Bash's Leveled Lists patcher, headless (`wb_bashed_patch.py`, {len(t['wrye-bash']['times'])} runs) |"
          f" {wb:.0f} | {wb / floor:.1f} | | | |")
    print(f"\n`tesmod patch` takes {med('patch') / wb:.3f} of Wrye Bash's time ({wb / med('patch'):.1f}x faster).")
PY
fi

# Python patchers (issue 33): reading every typed field of every winning NPC_ of the 100-plugin
# load order from Python against `tesmod export` of those records (collected into one plugin,
# exported to text without masters); and a patcher overriding 10,000 winning STAT records, each
# with one typed member edited (OBND x1), then saved: Python (bench/python_patcher.py) against
# the same through the C++ API (bench/patcher.cpp). Whole processes, load order opened in each.
if want patchers; then
make_loadorder
py="$(command -v /usr/bin/python3 || command -v python3)"
pp="$root/bench/python_patcher.py"
export PYTHONPATH="$root/build-bench/python"
npcs=$cache/winning-npcs.esp
"$py" "$pp" collect "$lo" NPC_ "$npcs" >/dev/null
hyperfine -N -w 2 -r "$runs" --export-json "$cache/patchers-times.json" \
  -n export "$tesmod export --stdout --no-masters $npcs" \
  -n py-read-lo "$py $pp read $lo NPC_" \
  -n py-read-plugin "$py $pp read-plugin $npcs NPC_" \
  -n cpp-patch "$root/build-bench/bench/patcher $lo STAT OBND x1 10000 $cache/patch-cpp.esp" \
  -n py-patch "$py $pp patch $lo STAT OBND x1 10000 $cache/patch-py.esp" >/dev/null
cmp "$cache/patch-cpp.esp" "$cache/patch-py.esp" && same=yes || same=NO
npc_count=$("$py" "$pp" read-plugin "$npcs" NPC_)
"$py" - "$cache/patchers-times.json" "$same" "$npc_count" "$(wc -c <"$npcs")" <<'PY' | tee -a "$cache/report.md"
import json, sys
t = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
med = lambda k: t[k]["median"] * 1000
print(f"\nPython patchers over the 100-plugin load order; {len(t['export']['times'])} runs each, medians, whole processes.")
print(f"Winning NPC_: {sys.argv[3]} ({int(sys.argv[4]):,} bytes collected into one plugin).\n")
print("| what | median ms | ratio | target |")
print("|---|---:|---:|---:|")
print(f"| `tesmod export --stdout --no-masters` of the winning NPC_ | {med('export'):.0f} | 1.00 | |")
print(f"| Python: `record.typed()` of every winning NPC_, through the load order | {med('py-read-lo'):.0f} | {med('py-read-lo') / med('export'):.2f} | ≤ 3.0 |")
print(f"| Python: the same over the collected plugin | {med('py-read-plugin'):.0f} | {med('py-read-plugin') / med('export'):.2f} | |")
print(f"| C++ API: override 10,000 winning STAT, edit OBND x1, save | {med('cpp-patch'):.0f} | 1.00 | |")
print(f"| Python: the same patcher | {med('py-patch'):.0f} | {med('py-patch') / med('cpp-patch'):.2f} | ≤ 1.5 |")
print(f"\nThe two patches are byte-identical: {sys.argv[2]}.")
PY
fi

if want esl; then
# esl check over the 100-plugin order against the floor's walk of it; esl compact of a 2,000-record
# master (a third of its ids outside 800-FFF) with its 20 dependants against tesmod conflicts of
# that order.
make_loadorder
lo_files=("$lo"/*.esm "$lo"/*.esp)
esl=$cache/esl
if [[ ! -f $esl/order/expected.json ]]; then
  rm -rf "$esl" && mkdir -p "$esl"
  python3 "$shared/bench/make_big_plugin.py" "$esl/Master.esm" --records 2000 --game sse --seed 3 >/dev/null
  python3 "$shared/bench/make_load_order.py" "$esl/Master.esm" "$esl/order" --plugins 20 --seed 2 >/dev/null
fi
hyperfine -N -i -w 3 -r "$runs" --export-json "$cache/esl-times.json" \
  -n floor-walk-all "$floor walk ${lo_files[*]}" \
  -n esl-check "$tesmod esl check --data $lo --json --threads 2" \
  -n conflicts-esl "$tesmod conflicts --data $esl/order --json --threads 2" >/dev/null
hyperfine -N -w 3 -r "$runs" --export-json "$cache/esl-compact-times.json" --prepare "rm -rf $esl/out" \
  -n esl-compact "$tesmod esl compact Master.esm --data $esl/order -o $esl/out --threads 2" >/dev/null
written=$(ls "$esl/out" | wc -l)
renumbered=$("$tesmod" esl compact Master.esm --data "$esl/order" --dry-run --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["map"]))' || true)
esl_bytes=$(cat "$esl"/order/*.es[mp] | wc -c)
lo_bytes=$(cat "${lo_files[@]}" | wc -c)
python3 - "$cache/esl-times.json" "$cache/esl-compact-times.json" "$written" "$renumbered" "$esl_bytes" "$lo_bytes" <<'PY' | tee -a "$cache/report.md"
import json, sys
t = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
t.update({r["command"]: r for r in json.load(open(sys.argv[2]))["results"]})
med = lambda k: t[k]["median"] * 1000
print(f"\nLight plugins; page cache warm; {len(t['esl-check']['times'])} runs each, medians.\n")
print("| what | median ms | against | ratio | target |")
print("|---|---:|---|---:|---:|")
print(f"| floor: `floor walk` the 100-plugin order ({int(sys.argv[6]):,} bytes) | {med('floor-walk-all'):.1f} | | 1.00 | |")
print(f"| `tesmod esl check --data DIR --json --threads 2` (same order) | {med('esl-check'):.1f} | floor walk | {med('esl-check') / med('floor-walk-all'):.2f} | ≤ 1.5 |")
print(f"| `tesmod conflicts --data DIR --json --threads 2` (2,000-record master, 20 plugins, a patch; {int(sys.argv[5]):,} bytes) | {med('conflicts-esl'):.1f} | | 1.00 | |")
print(f"| `tesmod esl compact Master.esm -o OUT` ({sys.argv[4]} records renumbered, {sys.argv[3]} files written) | {med('esl-compact'):.1f} | conflicts | {med('esl-compact') / med('conflicts-esl'):.2f} | ≤ 2.0 |")
PY
fi
