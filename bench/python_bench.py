#!/usr/bin/env python3
"""The Python module's speed (issue 14), on the big fixture, in one run:

1. every NPC_ record's EditorID as (FormID, EditorID) pairs, the open included, three ways:
   - lazy open + Plugin.editor_ids("NPC_"): one call; the open reads the top-level groups, the
     call indexes the NPC_ group and reads the EditorIDs (inflating compressed records as far
     as the EDID) on every core in C++;
   - lazy open + a Python loop over records("NPC_") reading each editor_id;
   - full open (every group and record indexed) + the same loop;
   against the plain-Python mmap walker of tests/python/plain_walker.py (header walk into every
   group, zlib for compressed records, EDID read), the peer the issue names; every way gives
   the same list, which is checked. For where the gain comes from, also a plain-Python walker
   that steps over the other top-level groups as the lazy open does (not the named peer);
2. the cost per record of iterating all records reading type, FormID and EditorID, in Python
   against the same loop in C++ (bench/record_loop.cpp), both after the plugin is open.

    PYTHONPATH=BUILD/python python3 bench/python_bench.py BIG.esm RECORD_LOOP [RUNS]

Prints Markdown for BENCHMARKS.md. Medians of RUNS (default 5).
"""
import mmap
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


def plain_skipping(path, only):
    """The plain walker, but stepping over every top-level group not labelled `only`."""
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
        hsize = plain_walker.header_size(data)
        size = len(data)
        pos = hsize + plain_walker._HEADER.unpack_from(data, 0)[1]
        want = only.encode("latin-1")
        out = []
        while pos + hsize <= size:
            _, gsize, label, _ = plain_walker._HEADER.unpack_from(data, pos)
            if label.to_bytes(4, "little") != want:
                pos += gsize
                continue
            end, pos = pos + gsize, pos + hsize
            while pos < end:
                rtype, dsize, flags, form_id = plain_walker._HEADER.unpack_from(data, pos)
                if rtype == b"GRUP":
                    pos += hsize
                    continue
                body_at = pos + hsize
                pos = body_at + dsize
                if rtype == want:
                    out.append((form_id, plain_walker.editor_id(data, body_at, dsize, flags)))
        return out


def main():
    big, record_loop = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5

    ways = {
        "lazy open + `editor_ids(\"NPC_\")` (one call, C++ on every core)":
            lambda: tesmod.open(big, lazy=True).editor_ids("NPC_"),
        "lazy open + Python loop over `records(\"NPC_\")`":
            lambda: [(r.form_id, r.editor_id) for r in tesmod.open(big, lazy=True).records("NPC_")],
        "full open + the same loop":
            lambda: [(r.form_id, r.editor_id) for r in tesmod.open(big).records("NPC_")],
    }
    timed = {name: median_time(fn, runs) for name, fn in ways.items()}
    t_plain, plain = median_time(lambda: [(f, e) for _, f, _, e in plain_walker.records(big, "NPC_")], runs)
    t_skip, skipping = median_time(lambda: plain_skipping(big, "NPC_"), runs)
    for name, (_, got) in timed.items():
        assert got == plain, f"{name}: tesmod and the plain walker disagree"
    assert skipping == plain, "the skipping walker disagrees"
    compressed = sum(1 for r in tesmod.open(big, lazy=True).records("NPC_") if r.compressed)

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
          f"{records:,} records, {len(plain):,} NPC_ ({compressed:,} compressed); medians of {runs} runs.\n")
    print("Every NPC_ EditorID, open included, against the plain-Python walker "
          f"(header walk into every group): **{t_plain * 1e3:.0f} ms**.\n")
    print("| tesmod | ms | vs plain walker | vs a plain walker stepping over other groups "
          f"({t_skip * 1e3:.0f} ms) |")
    print("|---|---:|---:|---:|")
    for name, (t, _) in timed.items():
        print(f"| {name} | {t * 1e3:.1f} | {t_plain / t:.1f}x faster | {t_skip / t:.1f}x faster |")
    print()
    print("| measure | Python | C++ | difference |")
    print("|---|---:|---:|---:|")
    print(f"| all records: type, FormID, EditorID (after a full open) | {py_ns:.0f} ns/record | {cpp_ns:.0f} ns/record "
          f"| +{py_ns - cpp_ns:.0f} ns/record |")


if __name__ == "__main__":
    main()
