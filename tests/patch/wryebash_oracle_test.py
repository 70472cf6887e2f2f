#!/usr/bin/env python3
"""`tesmod patch` against Wrye Bash's own Bashed Patch (its Leveled Lists patcher, Relev/Delev).

    wryebash_oracle_test.py TESMOD SHARED_DIR WORKDIR

SHARED_DIR is the repository's ../shared. The cases are
  * oracle/*.oracle.json next to this script: what Wrye Bash wrote for load orders made by
    SHARED_DIR/bench/make_big_plugin.py and make_patch_order.py with this test's own seeds; each file's
    "made_with" holds the two generators' argument lists and the sha256 of every input file
    (plugins, plugins.txt, BashTags/*.txt);
  * the two stored examples of SHARED_DIR/tools/wb_oracle/examples/, read in place; their
    "made_with" is in shared_examples.json.
For each case the master and the order are made again in WORKDIR with the recorded arguments (a
master is made once per run and reused by the cases naming it), the inputs' sha256 are compared
with the recorded ones (a difference means the shared generators changed, not that tesmod is
wrong: the oracle must be made again, see README.md), then
`SHARED_DIR/tools/check_patch.py TESMOD ORDER ORACLE_JSON` must exit 0 (it runs `tesmod patch`,
with --remove-empty when the oracle ran with a non-default "remove empty sublists", and compares
list by list). Wrye Bash itself is not needed.
Exits 77 (skip) when SHARED_DIR/bench or SHARED_DIR/tools is missing, unless CI=true (then 1);
1 on any failure.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESMOD = SHARED = WORK = BENCH = TOOLS = None   # set by main from the command line
PLUGIN_EXT = (".esm", ".esp", ".esl")
failures = []


def fail(what):
    failures.append(what)
    print("FAIL:", what)


def input_sha256(order):
    """sha256 of what Wrye Bash and tesmod read from an order folder: plugins, plugins.txt, BashTags/*."""
    names = sorted(f.name for f in order.iterdir() if f.is_file() and
                   (f.suffix.lower() in PLUGIN_EXT or f.name.lower() == "plugins.txt"))
    tags = order / "BashTags"
    names += ["BashTags/" + f.name for f in sorted(tags.iterdir())] if tags.is_dir() else []
    return {n: hashlib.sha256((order / n).read_bytes()).hexdigest() for n in names}


def plain_name(name):
    return isinstance(name, str) and name and Path(name).name == name and name not in (".", "..")


def generate(script, args):
    p = subprocess.run([sys.executable, str(BENCH / script), *args], cwd=WORK, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s %s exited %d: %s" % (script, " ".join(args), p.returncode, (p.stderr or p.stdout)[-2000:]))


def cases():
    """(label, oracle JSON path, made_with) for every case, the repository's first."""
    out = []
    for path in sorted((HERE / "oracle").glob("*.oracle.json")):
        out.append((path.name[:-len(".oracle.json")], path, json.loads(path.read_text(encoding="utf-8"))["made_with"]))
    for rel, made_with in json.loads((HERE / "shared_examples.json").read_text(encoding="utf-8"))["examples"].items():
        out.append(("shared:" + Path(rel).name[:-len(".oracle.json")], SHARED / rel, made_with))
    return out


def run_case(label, oracle_path, made_with, masters):
    if not oracle_path.is_file():
        fail(f"{label}: {oracle_path} is missing")
        return
    margs, oargs = made_with["make_big_plugin.py"], made_with["make_patch_order.py"]
    master, order_name = margs[0], oargs[1]
    if not (plain_name(master) and plain_name(order_name) and oargs[0] == master):
        fail(f"{label}: made_with must name the master and the order folder as plain names, the order made "
             f"from that master: {margs} / {oargs}")
        return
    try:
        if master in masters:
            if masters[master] != margs:
                fail(f"{label}: master {master} is made by two cases with different arguments: "
                     f"{masters[master]} and {margs}")
                return
        else:
            (WORK / master).unlink(missing_ok=True)   # never reuse one from an earlier run
            generate("make_big_plugin.py", margs)
            masters[master] = margs
        order = WORK / order_name
        shutil.rmtree(order, ignore_errors=True)
        generate("make_patch_order.py", oargs)
    except RuntimeError as e:
        fail(f"{label}: {e}")
        return

    want, got = made_with["input_sha256"], input_sha256(order)
    changed = [n for n in sorted(set(want) | set(got)) if want.get(n) != got.get(n)]
    if changed:
        for n in changed:
            fail(f"{label}: the shared generators changed: {n} of the order is not the file the oracle was made "
                 f"from (sha256 {got.get(n, 'none: not made')}, recorded {want.get(n, 'none: not an input then')}); "
                 f"the oracle must be made again with Wrye Bash (tests/patch/README.md), tesmod is not judged")
        return

    cmd = [sys.executable, str(TOOLS / "check_patch.py"), TESMOD, str(order), str(oracle_path)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        fail(f"{label}: check_patch.py did not finish in 300 s")
        return
    lines = p.stdout.strip().splitlines()
    summary = lines[-1] if lines and p.returncode != 2 else "tesmod failed or wrote no patch"
    oracle = json.loads(oracle_path.read_text(encoding="utf-8"))
    setting = "remove empty sublists " + ("on" if oracle.get("remove_empty_sublists") else "off")
    if p.returncode != 0:
        sys.stdout.write(p.stdout)
        sys.stdout.write(p.stderr)
        fail(f"{label}: check_patch.py exited {p.returncode} ({summary}; {setting})")
        return
    print(f"{label}: {summary} ({setting})")


def main():
    global TESMOD, SHARED, WORK, BENCH, TOOLS
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    TESMOD, SHARED, WORK = sys.argv[1], Path(sys.argv[2]).resolve(), Path(sys.argv[3]).resolve()
    if os.path.exists(TESMOD):
        TESMOD = os.path.abspath(TESMOD)
    BENCH, TOOLS = SHARED / "bench", SHARED / "tools"
    NEEDED = (BENCH / "make_big_plugin.py", BENCH / "make_patch_order.py", TOOLS / "check_patch.py")
    if not BENCH.is_dir() or not TOOLS.is_dir() or not all(f.is_file() for f in NEEDED):
        ci = os.environ.get("CI") == "true"
        print(f"{'FAIL (CI=true)' if ci else 'skipped'}: {SHARED} lacks bench/ or tools/ (../shared is not there): "
              f"{', '.join(str(f) for f in NEEDED if not f.is_file())}")
        sys.exit(1 if ci else 77)
    WORK.mkdir(parents=True, exist_ok=True)
    all_cases, masters, failed = cases(), {}, []
    for label, path, made_with in all_cases:
        before = len(failures)
        try:
            run_case(label, path, made_with, masters)
        except (KeyError, IndexError, TypeError, ValueError) as e:   # a malformed oracle file
            fail(f"{label}: cannot use {path}: {type(e).__name__}: {e}")
        if len(failures) > before:
            failed.append(label)
    if failures:
        print(f"{len(failed)} of {len(all_cases)} cases failed: {', '.join(failed)}")
        sys.exit(1)
    print(f"all {len(all_cases)} cases: tesmod patch wrote the leveled lists Wrye Bash wrote")


if __name__ == "__main__":
    main()
