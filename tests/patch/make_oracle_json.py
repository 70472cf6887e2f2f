#!/usr/bin/env python3
"""Make one oracle/*.oracle.json for wryebash_oracle_test.py: Wrye Bash's Bashed Patch of a generated order.

    make_oracle_json.py SHARED_DIR WB_MOPY WORKDIR GAME MASTER_SEED RECORDS ORDER_SEED PLUGINS LISTS
                        [--remove-empty on|off] [--out DIR]

GAME is sse or oblivion. In WORKDIR (cwd of every step) it runs
    SHARED_DIR/bench/make_big_plugin.py <game>-m<MASTER_SEED>r<RECORDS>.esm --records RECORDS --seed MASTER_SEED
                                        [--game oblivion]
    SHARED_DIR/bench/make_patch_order.py <that master> <stem> --seed ORDER_SEED --plugins PLUGINS --lists LISTS
    SHARED_DIR/tools/wb_oracle/wb_bashed_patch.py WB_MOPY <stem> <stem>.wb.json [--remove-empty on|off]
with <stem> = <game>-m<MASTER_SEED>r<RECORDS>-o<ORDER_SEED>p<PLUGINS>l<LISTS>[-re<on|off>], requires exit 0
from each, and writes DIR/<stem>.oracle.json (DIR: oracle/ next to this script): Wrye Bash's JSON without
"log", "cross_check" and the Mopy path (its commit kept), plus "made_with": the three argument lists
and "input_sha256" (sha256 of the order's plugins, plugins.txt and BashTags/*.txt, taken before Wrye
Bash runs). WB_MOPY is a Wrye Bash source tree's Mopy folder (README.md: how to get it). Wrye Bash is
GPL-3: it is only run, never copied.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True   # no __pycache__ in the source tree
from wryebash_oracle_test import input_sha256  # noqa: E402   (the same inputs the test checks)

KEEP = ("game", "load_order", "patch_masters", "remove_empty_sublists", "game_master_stub", "tags")


def dump(doc):
    """JSON with one top-level key, one argument list, one input and one leveled list per line."""
    parts = []
    for k, v in doc.items():
        if k == "lists":
            inner = ",\n".join("  %s: %s" % (json.dumps(lk), json.dumps(lv)) for lk, lv in v.items())
            parts.append(' "lists": {\n%s\n }' % inner)
        elif k == "made_with":
            inner = ",\n".join("  %s: %s" % (json.dumps(mk), json.dumps(mv)) for mk, mv in v.items()
                               if mk != "input_sha256")
            sha = ",\n".join("   %s: %s" % (json.dumps(f), json.dumps(h)) for f, h in v["input_sha256"].items())
            parts.append(' "made_with": {\n%s,\n  "input_sha256": {\n%s\n  }\n }' % (inner, sha))
        else:
            parts.append(" %s: %s" % (json.dumps(k), json.dumps(v)))
    text = "{\n" + ",\n".join(parts) + "\n}\n"
    assert json.loads(text) == doc
    return text


def run(cmd, cwd):
    p = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True)
    sys.stderr.write(p.stderr)
    sys.stdout.write(p.stdout)
    if p.returncode != 0:
        sys.exit("make_oracle_json: %s exited %d" % (" ".join(map(str, cmd)), p.returncode))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shared", type=Path)
    ap.add_argument("mopy", type=Path)
    ap.add_argument("work", type=Path)
    ap.add_argument("game", choices=("sse", "oblivion"))
    for name in ("master_seed", "records", "order_seed", "plugins", "lists"):
        ap.add_argument(name, type=int)
    ap.add_argument("--remove-empty", choices=("on", "off"))
    ap.add_argument("--out", type=Path, default=HERE / "oracle")
    a = ap.parse_args()
    shared, mopy, work = a.shared.resolve(), a.mopy.resolve(), a.work.resolve()
    master = "%s-m%dr%d.esm" % (a.game, a.master_seed, a.records)
    stem = "%s-o%dp%dl%d%s" % (master[:-4], a.order_seed, a.plugins, a.lists,
                               "-re" + a.remove_empty if a.remove_empty else "")
    margs = [master, "--records", str(a.records), "--seed", str(a.master_seed)] + \
        (["--game", "oblivion"] if a.game == "oblivion" else [])
    oargs = [master, stem, "--seed", str(a.order_seed), "--plugins", str(a.plugins), "--lists", str(a.lists)]
    wargs = [stem, stem + ".wb.json"] + (["--remove-empty", a.remove_empty] if a.remove_empty else [])
    work.mkdir(parents=True, exist_ok=True)
    (work / master).unlink(missing_ok=True)
    shutil.rmtree(work / stem, ignore_errors=True)
    run([sys.executable, shared / "bench" / "make_big_plugin.py", *margs], work)
    run([sys.executable, shared / "bench" / "make_patch_order.py", *oargs], work)
    shas = input_sha256(work / stem)
    run([sys.executable, shared / "tools" / "wb_oracle" / "wb_bashed_patch.py", mopy, *wargs], work)
    if input_sha256(work / stem) != shas:
        sys.exit("make_oracle_json: the order's inputs changed while Wrye Bash ran")
    wb = json.loads((work / (stem + ".wb.json")).read_text(encoding="utf-8"))
    doc = {k: wb[k] for k in KEEP}
    doc["wrye_bash"] = {"commit": wb["wrye_bash"]["commit"]}
    doc["made_with"] = {"make_big_plugin.py": margs, "make_patch_order.py": oargs,
                        "wb_bashed_patch.py": ["Mopy", *wargs], "input_sha256": shas}
    doc["lists"] = wb["lists"]
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / (stem + ".oracle.json")).write_text(dump(doc), encoding="utf-8")
    print("make_oracle_json: %s: %d lists written by Wrye Bash (%s) -> %s" % (
        stem, len(doc["lists"]), doc["wrye_bash"]["commit"], a.out / (stem + ".oracle.json")))


if __name__ == "__main__":
    main()
