#!/usr/bin/env python3
"""The Python module's speed (issue 14), on the big fixture, in one run:

1. every NPC_ record's EditorID: tesmod (open + records("NPC_") + editor_id; open indexes every
   group and record) against the
   plain-Python mmap walker of tests/python/plain_walker.py (header walk, zlib for compressed
   records, EDID read); both produce the same list, which is checked;
2. the cost per record of iterating all records reading type, FormID and EditorID, in Python
   against the same loop in C++ (bench/record_loop.cpp), both after the plugin is open.

    PYTHONPATH=BUILD/python python3 bench/python_bench.py BIG.esm RECORD_LOOP [RUNS]

Prints Markdown for BENCHMARKS.md. Medians of RUNS (default 5).
"""
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "python"))
import plain_walker  # noqa: E402
import tesmod  # noqa: E402


def median_time(fn, runs):
    result = fn()  # warm-up: the file in the page cache, imports done
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main():
    big, record_loop = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5

    def ours():
        return [r.editor_id for r in tesmod.open(big).records("NPC_")]

    def plain():
        return [edid for _, _, _, edid in plain_walker.records(big, "NPC_")]

    t_ours, a = median_time(ours, runs)
    t_plain, b = median_time(plain, runs)
    assert a == b, "tesmod and the plain walker disagree"
    compressed = sum(1 for r in tesmod.open(big).records("NPC_") if r.compressed)

    plugin = tesmod.open(big)

    def loop():
        n = 0
        for r in plugin:
            r.type, r.form_id, r.editor_id
            n += 1
        return n

    t_loop, records = median_time(loop, runs)
    out = subprocess.run([record_loop, big, str(runs)], capture_output=True, text=True, check=True).stdout.split()
    cpp_records, cpp_ns = int(out[0]), float(out[1])
    assert cpp_records == records
    py_ns = t_loop / records * 1e9

    size = os.path.getsize(big)
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print(f"Machine: {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}; fixture {size / 1e6:.0f} MB, "
          f"{records:,} records, {len(a):,} NPC_ ({compressed:,} compressed); medians of {runs} runs.\n")
    print("| measure | tesmod | peer | ratio |")
    print("|---|---:|---:|---:|")
    print(f"| every NPC_ EditorID (open included) | {t_ours * 1e3:.0f} ms | plain-Python walker {t_plain * 1e3:.0f} ms "
          f"| {t_plain / t_ours:.1f}x faster |")
    print(f"| all records: type, FormID, EditorID (after open) | Python {py_ns:.0f} ns/record | C++ {cpp_ns:.0f} ns/record "
          f"| +{py_ns - cpp_ns:.0f} ns/record |")


if __name__ == "__main__":
    main()
