#!/usr/bin/env python3
"""Load orders with known answers, made by ../shared/bench/make_load_order.py, read by the CLI.

    generated_load_orders_test.py TESMOD SHARED_BENCH WORKDIR

For Skyrim SE and Oblivion masters made by make_big_plugin.py (small, a few thousand records) and
load orders made from them with this test's own seeds, and for the Skyrim SE one rewritten in
Skyrim LE's form (loadorder.txt + plugins.txt), checks against expected.json:
  load-order --json   the plugins in order, the active ones, indices, masters;
  conflicts --json    for every overridden record: versions, winner, category and itpo; every
                      other record listed is a wrapper (CELL, WRLD, DIAL holding overrides);
                      --only, --type, --plugin and --form select what they say;
  check --json        every planted deleted base record is reported as deleted_with_fields.
Exits 77 (skip) when SHARED_BENCH is missing, unless CI=true (then 1).
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

TESMOD, BENCH, WORK = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
CASES = [  # (game, master seed, records, load-order seed, plugins)
    ("sse", 21, 2500, 7, 8),
    ("sse", 22, 3000, 1234, 5),
    ("oblivion", 23, 2500, 99, 8),
]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args, expect=0):
    p = subprocess.run([TESMOD, *args], capture_output=True, text=True)
    if p.returncode != expect:
        raise SystemExit(f"tesmod {' '.join(args)} exited {p.returncode}: {p.stderr[:2000]}")
    return p.stdout


def run_json(*args, expect=0):
    return json.loads(run(*args, "--json", expect=expect))


def make(game, master_seed, records, seed, plugins):
    out = WORK / f"{game}_{master_seed}_{seed}"
    if out.exists():
        shutil.rmtree(out)
    WORK.mkdir(parents=True, exist_ok=True)
    master = WORK / f"master_{game}_{master_seed}.esm"
    if not master.exists():
        subprocess.run([sys.executable, BENCH / "make_big_plugin.py", master, "--records", str(records), "--game", game,
                        "--seed", str(master_seed)], check=True, capture_output=True)
    subprocess.run([sys.executable, BENCH / "make_load_order.py", master, out, "--plugins", str(plugins), "--seed",
                    str(seed)], check=True, capture_output=True)
    return out


def to_skyrim_le(sse_dir):
    """The same load order as Skyrim LE keeps it: loadorder.txt (every plugin) and plugins.txt (active)."""
    le = sse_dir.with_name(sse_dir.name + "_le")
    if le.exists():
        shutil.rmtree(le)
    shutil.copytree(sse_dir, le)
    exp = json.loads((le / "expected.json").read_text())
    (le / "plugins.txt").write_text("".join(n + "\r\n" for n in exp["active"]))
    (le / "loadorder.txt").write_text("".join(n + "\n" for n in exp["load_order"]))
    return le


def check_dir(d, game_args, label):
    exp = json.loads((d / "expected.json").read_text())
    lo = run_json("load-order", "--data", str(d), *game_args)
    names = [p["name"] for p in lo["plugins"]]
    check(names == exp["load_order"], f"{label}: load order {names} != {exp['load_order']}")
    active = [p["name"] for p in lo["plugins"] if p["active"]]
    check(active == exp["active"], f"{label}: active {active} != {exp['active']}")
    indices = [p["index"] for p in lo["plugins"] if p["active"]]
    check(indices == ["%02X" % i for i in range(len(active))], f"{label}: indices {indices}")
    for p in lo["plugins"]:
        want = exp["plugins"].get(p["name"], {}).get("masters", [])
        check(p["masters"] == want, f"{label}: masters of {p['name']} {p['masters']} != {want}")
        check(p["index"] is None or p["active"], f"{label}: {p['name']} has an index but is inactive")
    check(lo["problems"] == [], f"{label}: load-order problems {lo['problems']}")

    doc = run_json("conflicts", "--data", str(d), *game_args)
    check(doc["load_order"] == exp["active"], f"{label}: conflicts load_order")
    got = {r["form_id"]: r for r in doc["records"]}
    wrappers = set()
    for p in exp["plugins"].values():
        wrappers.update(p.get("wrappers", []))
    for fid, want in sorted(exp["conflicts"].items()):
        r = got.get(fid)
        if r is None:
            check(False, f"{label}: {fid} not reported")
            continue
        for key in ("versions", "winner", "category", "itpo"):
            check(r[key] == want[key], f"{label}: {fid} {key}: {r[key]} != {want[key]}")
        check(len(r["states"]) == len(r["versions"]) and r["states"][0] == "master", f"{label}: {fid} states")
        check((r["category"] == "no_conflict") == (r["fields"] == []), f"{label}: {fid} fields vs category")
        check(r["file"] == exp["master"], f"{label}: {fid} file {r['file']}")
    extra = sorted(set(got) - set(exp["conflicts"]))
    check(all(f in wrappers for f in extra), f"{label}: records listed that are neither overridden nor wrappers: "
                                            f"{[f for f in extra if f not in wrappers][:5]}")
    check(doc["problems"] == [], f"{label}: conflicts problems {doc['problems']}")
    cats = {}
    for r in doc["records"]:
        cats[r["category"]] = cats.get(r["category"], 0) + 1
    check(len(cats) == 3, f"{label}: every category occurs ({cats})")

    # Filters select what they say.
    only = run_json("conflicts", "--data", str(d), *game_args, "--only", "conflict", "--only", "override")
    check(sorted(r["form_id"] for r in only["records"])
          == sorted(f for f, r in got.items() if r["category"] in ("conflict", "override")), f"{label}: --only")
    patch = run_json("conflicts", "--data", str(d), *game_args, "--plugin", "Patch.esp")
    check(patch["records"] and all("Patch.esp" in r["versions"] for r in patch["records"]), f"{label}: --plugin")
    check(len(patch["records"]) == sum(1 for r in got.values() if "Patch.esp" in r["versions"]), f"{label}: --plugin count")
    some = next(r for r in doc["records"] if r["category"] == "conflict")
    by_type = run_json("conflicts", "--data", str(d), *game_args, "--type", some["type"])
    check(by_type["records"] and all(r["type"] == some["type"] for r in by_type["records"]), f"{label}: --type")
    check(len(by_type["records"]) == sum(1 for r in got.values() if r["type"] == some["type"]), f"{label}: --type count")
    one = run_json("conflicts", "--data", str(d), *game_args, "--form", some["form_id"])
    check([r["form_id"] for r in one["records"]] == [some["form_id"]], f"{label}: --form FORMID")
    if some["editor_id"]:
        by_edid = run_json("conflicts", "--data", str(d), *game_args, "--form", some["editor_id"].lower())
        check(some["form_id"] in [r["form_id"] for r in by_edid["records"]], f"{label}: --form EDID")
    text = run("conflicts", "--data", str(d), *game_args, "--only", "conflict")
    check(f"{some['type']} {some['form_id']}" in text and "versions:" in text, f"{label}: text output")

    # tesmod check: the planted deleted base records keep their fields.
    checked = run_json("check", "--data", str(d), *game_args, expect=1)
    deleted = {}
    for p in checked["problems"]:
        if p["check"] == "deleted_with_fields":
            deleted.setdefault(p["file"], set()).add(p["form_id"])
    for name, want in exp["plugins"].items():
        if name in exp["active"]:
            planted = set(want["deleted_other"])
            check(planted <= deleted.get(name, set()), f"{label}: check misses deleted records of {name}: "
                                                       f"{sorted(planted - deleted.get(name, set()))[:4]}")
    # make_big_plugin.py fills some FormID fields with made-up values (random bytes, e.g. LCTN
    # LCUN): they name no form, or a form of the wrong type. It also gives some records fields
    # their type does not hold, in another order, of other sizes, or with values no game writes
    # (a Skyrim FACT with keywords, an Oblivion FACT with Skyrim's 12-byte XNAM). The master's
    # records report them, and so do the plugins' copies of those records, and nothing else does.
    made_up_kinds = ("hitme", "unresolved_reference", "wrong_reference_type", "unexpected_field", "field_order",
                     "missing_field", "bad_size", "bad_value")
    kinds = {p["check"] for p in checked["problems"]}
    allowed = {"deleted_with_fields", *made_up_kinds}
    if game_args == ["--game", "skyrim"]:
        allowed.add("form_version")  # Skyrim SE records (form version 44) read as Skyrim LE
    check(kinds <= allowed, f"{label}: unexpected kinds of problems {kinds - allowed}: "
                            f"{[p for p in checked['problems'] if p['check'] not in allowed][:3]}")
    made_up = {p["form_id"] for p in checked["problems"]
               if p["file"] == exp["master"] and p["check"] in made_up_kinds}
    for p in checked["problems"]:
        if p["file"] != exp["master"] and p["check"] in made_up_kinds:
            new = set(exp["plugins"][p["file"]]["new"])
            check(p["form_id"] in made_up or p["form_id"] in new,
                  f"{label}: {p['file']} {p['form_id']}: {p['message']} (the master's record has no such problem)")
    print(f"{label}: {len(exp['conflicts'])} overridden records as expected, {len(extra)} wrappers, {cats}, "
          f"check: {len(checked['problems'])} problems")


def main():
    if not (BENCH / "make_load_order.py").exists():
        print(f"skipped: {BENCH} has no make_load_order.py (../shared is not there)")
        sys.exit(1 if os.environ.get("CI") == "true" else 77)
    for game, master_seed, records, seed, plugins in CASES:
        d = make(game, master_seed, records, seed, plugins)
        check_dir(d, [], f"{game} seed {seed}")
        if game == "sse":
            check_dir(to_skyrim_le(d), ["--game", "skyrim"], f"skyrim LE seed {seed}")
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)
    print("all load orders as expected")


if __name__ == "__main__":
    main()
