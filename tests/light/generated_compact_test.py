#!/usr/bin/env python3
"""`tesmod esl compact` on load orders made by ../shared/bench/make_load_order.py, judged by the load
order itself (no stored answer):

    generated_compact_test.py TESMOD SHARED_BENCH WORKDIR

A Skyrim SE master of make_big_plugin.py (its records' ids spread over 0x000-0x1FFF: about a third
outside the light range) with N plugins that name it as a master; the master is compacted with
--flag and --map, and its dependants are rewritten:
  - the map: every FormID outside 800-FFF moved, into ids no record had, in FormID order; the
    records in range kept;
  - `tesmod conflicts --json` over the compacted order gives, under the map, the same records with
    the same versions, winners, categories, ITPOs and differing fields;
  - `tesmod check --json` gives the same problems of every kind (under the map), so no new
    unresolved reference;
  - every record of every written file is the record read before, byte for byte once inflated,
    except at four-byte places where the old file held a renumbered FormID and the new one holds
    its new id (read with the tests' own reader, tests/scripts/plugin_bytes.py);
  - files that name no renumbered record are not written;
  - compacting the result again plans nothing (`--dry-run` exits 0) and writes nothing.
A Mod plugin of the order (new records from 0x800: light as it stands) compacts to nothing.
Exits 77 (skip) when SHARED_BENCH is missing; with CI=true that is a failure.
"""
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

TESMOD, BENCH, WORK = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from checks import check, failures  # noqa: E402
from plugin_bytes import fid, fields, flags, read, records, rtype  # noqa: E402

CASES = [  # (master seed, records, load-order seed, plugins)
    (41, 2000, 7, 8),
    (42, 1800, 1234, 5),
]
HEX8 = re.compile(r"\b[0-9A-F]{8}\b")


def run(*args):
    return subprocess.run([TESMOD, *args], capture_output=True, text=True)


def make(seed, n, lo_seed, plugins, where):
    master = where / "Master.esm"
    where.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, str(BENCH / "make_big_plugin.py"), str(master), "--records", str(n), "--game", "sse",
                    "--seed", str(seed)], check=True, capture_output=True)
    order = where / "order"
    subprocess.run([sys.executable, str(BENCH / "make_load_order.py"), str(master), str(order), "--plugins", str(plugins),
                    "--seed", str(lo_seed)], check=True, capture_output=True)
    return order


class Renumbering:
    """The map applied to tesmod's text: load-order FormIDs (the master is at index 00) and
    `Master.esm:OBJECT` references. (A FormID with a file index past a plugin's master list, which
    the game reads as the plugin's own, is not renumbered: tesmod check reports it as hitme.)"""

    def __init__(self, old_to_new):
        self.objects = {a & 0xFFFFFF: b & 0xFFFFFF for a, b in old_to_new.items()}

    def form_id(self, text):
        v = int(text, 16)
        if v >> 24 == 0 and v & 0xFFFFFF in self.objects:
            return f"{(v & 0xFF000000) | self.objects[v & 0xFFFFFF]:08X}"
        return text

    def text(self, text):
        text = re.sub(r"Master\.esm:([0-9A-F]{6,8})\b",
                      lambda m: "Master.esm:" + self.form_id(m.group(1).rjust(8, "0"))[-len(m.group(1)):], text)
        return HEX8.sub(lambda m: self.form_id(m.group(0)), text)


NO_MAP = Renumbering({})


def conflicts(d, ren):
    r = run("conflicts", "--data", str(d), "--json")
    check(r.returncode in (0, 1), f"conflicts over {d}: exit {r.returncode}: {r.stderr}")
    doc = json.loads(r.stdout)
    out = {}
    for rec in doc["records"]:
        key = (rec["file"], ren.form_id(rec["form_id"]))
        out[key] = ren.text(json.dumps({k: v for k, v in rec.items() if k != "form_id"}, sort_keys=True))
    return doc["load_order"], out


def check_problems(d, ren):
    r = run("check", "--data", str(d), "--json")
    doc = json.loads(r.stdout)
    return Counter((p["file"], p["check"], ren.form_id(p["form_id"]), ren.text(p["message"])) for p in doc["problems"])


def inflated_records(path):
    _, tes4, items = read(path.read_bytes())
    out = {}
    for h, body in records(items):
        out.setdefault(fid(h), []).append((rtype(h), flags(h), fields(body, h)))
    return tes4, out


def same_but_renumbered(old, new, stored_map):
    """Whether new equals old except at 4-byte places holding a renumbered FormID (as this file stores it)."""
    if len(old) != len(new):
        return False
    i = 0
    while i < len(old):
        if old[i] == new[i]:
            i += 1
            continue
        # A difference: it must lie in a FormID that starts within the 3 bytes before.
        for start in range(max(0, i - 3), i + 1):
            if start + 4 <= len(old):
                a = int.from_bytes(old[start:start + 4], "little")
                b = int.from_bytes(new[start:start + 4], "little")
                if stored_map.get(a) == b:
                    i = start + 4
                    break
        else:
            return False
    return True


def case(seed, n, lo_seed, plugins):
    where = WORK / f"case_{seed}"
    shutil.rmtree(where, ignore_errors=True)
    order = make(seed, n, lo_seed, plugins, where)
    out = where / "out"
    map_file = where / "map.json"
    r = run("esl", "compact", "Master.esm", "--data", str(order), "-o", str(out), "--map", str(map_file), "--json")
    if not check(r.returncode == 0, f"compact exit {r.returncode}: {r.stderr}"):
        return
    report = json.loads(r.stdout)
    doc = json.loads(map_file.read_text())
    check(set(doc) == {"plugin", "hedr", "map"}, f"map keys {sorted(doc)}")
    check(doc["plugin"] == "Master.esm" and doc["hedr"] is None, f"map header {doc['plugin']} {doc['hedr']}")
    old_to_new = {int(k, 16): int(v, 16) for k, v in doc["map"].items()}
    check(len(old_to_new) > 0, "something was renumbered")

    # The map: every id outside the range moved into a free one, in FormID order.
    _, before = inflated_records(order / "Master.esm")
    ids_before = sorted(before)
    outside = [i for i in ids_before if not 0x800 <= (i & 0xFFFFFF) <= 0xFFF]
    check(sorted(old_to_new) == outside, f"renumbered {len(old_to_new)} of {len(outside)} outside the range")
    free = [i for i in range(0x800, 0x1000) if i not in set(ids_before)]
    check([old_to_new[i] for i in outside] == free[:len(outside)], "new ids are the lowest free ones, in FormID order")

    # Conflicts and check under the map.
    compacted = where / "compacted"
    shutil.copytree(order, compacted)
    written = sorted(p.name for p in out.iterdir())
    check([w["name"] for w in report["written"]] == written, f"written {written}")
    for name in written:
        shutil.copy(out / name, compacted / name)
    ren = Renumbering(old_to_new)
    lo_before, c_before = conflicts(order, ren)
    lo_after, c_after = conflicts(compacted, NO_MAP)
    check(lo_before == lo_after, "the same load order")
    check(set(c_before) == set(c_after), f"the same conflict records ({len(c_before)} / {len(c_after)})")
    differing = [k for k in c_before if k in c_after and c_before[k] != c_after[k]]
    check(not differing, f"{len(differing)} conflict records differ under the map, e.g. {differing[:2]}")
    p_before, p_after = check_problems(order, ren), check_problems(compacted, NO_MAP)
    check(p_before == p_after, f"check problems differ: {len((p_before - p_after) + (p_after - p_before))} "
                               f"e.g. {list(((p_before - p_after) + (p_after - p_before)).elements())[:2]}")

    # Byte for byte, but for the renumbered FormIDs.
    for name in written:
        tes4_old, old = inflated_records(order / name)
        _, new = inflated_records(out / name)
        if name == "Master.esm":
            stored = old_to_new
        else:
            masters = [m.decode() for m in re.findall(rb"MAST..([^\x00]*)\x00", tes4_old, re.S)]
            k = masters.index("Master.esm")
            stored = {k << 24 | a: k << 24 | b for a, b in old_to_new.items()}
        check(len(old) == len(new), f"{name}: {len(old)} FormIDs before, {len(new)} after")
        bad = 0
        for old_id, versions in old.items():
            new_versions = new.get(stored.get(old_id, old_id))
            if new_versions is None or len(new_versions) != len(versions):
                bad += 1
                continue
            for (t1, f1, fs1), (t2, f2, fs2) in zip(versions, new_versions):
                ok = t1 == t2 and (f1 & ~0x40000) == (f2 & ~0x40000) and [s for s, _ in fs1] == [s for s, _ in fs2]
                ok = ok and all(same_but_renumbered(a, b, stored) for (_, a), (_, b) in zip(fs1, fs2))
                bad += not ok
        check(bad == 0, f"{name}: {bad} records differ other than by renumbered FormIDs")
    check("Master.esm" in written, "the master is written")

    # Again: nothing to do.
    r = run("esl", "compact", "Master.esm", "--data", str(compacted), "--dry-run", "--json")
    check(r.returncode == 0, f"compacting the compacted master: exit {r.returncode} {r.stdout[:300]} {r.stderr}")
    again = json.loads(r.stdout) if r.stdout else {}
    check(again.get("map") == {} and again.get("would_write") == [], f"second compaction plans {again.get('map')}")
    # --in-place --flag over a copy: the files -o wrote, but for the master's ESL flag; the load
    # order then gives the master an FE slot.
    inplace = where / "inplace"
    shutil.copytree(order, inplace)
    r = run("esl", "compact", "Master.esm", "--data", str(inplace), "--in-place", "--flag")
    check(r.returncode == 0, f"--in-place --flag: exit {r.returncode}: {r.stderr}")
    for name in written:
        a, b = (out / name).read_bytes(), (inplace / name).read_bytes()
        hs = 24
        if name == "Master.esm":
            check(flags(b[:hs]) == flags(a[:hs]) | 0x200, "the master's ESL flag set in place")
            check(a[hs:] == b[hs:] and a[:8] == b[:8] and a[12:hs] == b[12:hs], "in place: the same bytes but the flag")
        else:
            check(a == b, f"{name}: in place and -o write the same bytes")
    lo = json.loads(run("load-order", "--data", str(inplace), "--json").stdout)
    master = next(p for p in lo["plugins"] if p["name"] == "Master.esm")
    check(master["light"] and str(master["index"]).startswith("FE"), f"the compacted master loads light: {master}")
    # A Mod plugin: light as it stands.
    r = run("esl", "compact", "Mod_01.esp", "--data", str(order), "--dry-run", "--json")
    mod = json.loads(r.stdout) if r.stdout else {}
    check(r.returncode == 0 and mod.get("map") == {}, f"Mod_01.esp: exit {r.returncode}, map {mod.get('map')}")


def too_many(where):
    """3,000 new records in a plugin without masters: they fit neither 800-FFF nor, with HEDR 1.71,
    001-FFF (a plugin without masters cannot use ids below 800); nothing is written."""
    shutil.rmtree(where, ignore_errors=True)
    order = make(43, 3000, 17, 5, where)
    before = {p.name: p.read_bytes() for p in order.iterdir()}
    r = run("esl", "compact", "Master.esm", "--data", str(order), "-o", str(where / "out"))
    check(r.returncode == 1 and "3000 new records do not fit the light range 800-FFF (2048 ids)" in r.stderr,
          f"too many: exit {r.returncode}: {r.stderr}")
    r = run("esl", "compact", "Master.esm", "--data", str(order), "--in-place", "--hedr", "1.71")
    check(r.returncode == 1 and "ids below 800 are closed to it (the plugin has no master)" in r.stderr,
          f"too many with 1.71: exit {r.returncode}: {r.stderr}")
    check(not (where / "out").exists(), "nothing written on error")
    check(before == {p.name: p.read_bytes() for p in order.iterdir()}, "the data folder untouched on error")


def main():
    if not (BENCH / "make_load_order.py").exists():
        print(f"SKIP: {BENCH} has no make_load_order.py")
        sys.exit(1 if os.environ.get("CI") == "true" else 77)
    WORK.mkdir(parents=True, exist_ok=True)
    for c in CASES:
        case(*c)
    too_many(WORK / "too_many")
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)
    print(f"generated_compact: {len(CASES)} load orders compacted and checked")


main()
